import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../core/index.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { openStore } from '../store/index.js';
import { startRun } from '../runs.js';
import { startApiServer } from './testing/api-server.js';
import type { RunningServer } from './serve.js';

const ROOT = resolve(import.meta.dirname, '../..');

let dir: string;
let store: Store;
let model: FakeServer;
let web: RunningServer;
let openGate!: () => void;
let gate = new Promise<void>(r => { openGate = r; });
const closeGate = () => { gate = new Promise<void>(r => { openGate = r; }); };
/** While true, model m10 answers 400. */
let refuseM10 = true;
/** Set by the test: the run's record is read, then the run finishes, then the read returns. */
let finishDuringRead: ((id: string) => Promise<void>) | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paideia-run-race-'));
  mkdirSync(join(dir, 'suites/two'), { recursive: true });
  mkdirSync(join(dir, 'scenarios'));
  cpSync(join(ROOT, 'scenarios/scripts'), join(dir, 'scenarios/scripts'), { recursive: true });
  const items = readFileSync(join(ROOT, 'data/samples/english/exercises.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 2);
  writeFileSync(join(dir, 'suites/two/exercises.jsonl'), `${items.join('\n')}\n`);
  store = await openStore(`sqlite:${join(dir, 'p.db')}`);
  // Every call waits for the gate, so the run is surely still running when the page asks.
  model = await startOpenAICompatibleServer(async req => {
    await gate;
    // A bad request is no retryable error: its trial is stored failed at once.
    if ((req.body as { model?: string }).model === 'm10' && refuseM10) return { status: 400, body: { error: { message: 'bad request' } } };
    return { body: openAIChatBody({ text: 'himself' }) };
  });
  const slowReads = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key === 'getRun') {
        return async (id: string) => {
          const run = await target.getRun(id);
          await finishDuringRead?.(id);
          return run;
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  web = await startApiServer(slowReads, dir, {
    env: { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'k' },
    folders: { base: dir, suites: [join(dir, 'suites')], scenarios: [join(dir, 'scenarios')] },
  });
}, 60_000);
afterAll(async () => {
  openGate();
  await web?.close();
  await model?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a run page asked for while its run ends', () => {
  it('never says "running" and "finished" at once: it is told to follow the run, and the run\'s events end', async () => {
    const launched = await fetch(`${web.url}/api/launch`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { kind: 'suite', suites: [join(dir, 'suites/two')], models: ['m=openai:m'], repeats: 1 } }),
    });
    expect(launched.status, await launched.clone().text()).toBe(200);
    const { runId } = await launched.json() as { runId: string };
    // The page's read of the run sees it running; the run then completes before the answer is made.
    finishDuringRead = async id => {
      finishDuringRead = undefined;
      openGate();
      await expect.poll(async () => (await store.getRun(id))?.status, { timeout: 20_000 }).toBe('completed');
      // Past the store's last write: the server's handle has settled too.
      await new Promise(r => setTimeout(r, 200));
    };
    const detail = await (await fetch(`${web.url}/api/runs/${runId}`)).json() as { status: string; live: { finished: boolean } | null };
    expect(finishDuringRead).toBeUndefined();
    // "running" with a finished live run: the page would draw a run it never follows, "running" for ever.
    expect([detail.status, detail.live?.finished]).not.toEqual(['running', true]);
    if (detail.status === 'running') {
      // The page follows the run's events: they end at once, and the page reloads the finished run.
      const events = await (await fetch(`${web.url}/api/runs/${runId}/events`)).text();
      expect(events).toMatch(/event: end\ndata: \{"outcome":\{[^\n]*"status":"completed"/);
    }
    expect((await (await fetch(`${web.url}/api/runs/${runId}`)).json() as { status: string }).status).toBe('completed');
  }, 60_000);
});

const launch = async (config: Record<string, unknown>) => {
  const res = await fetch(`${web.url}/api/launch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ config }) });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json() as { runId: string }).runId;
};
type Detail = { status: string; live: { finished: boolean; error: string | null } | null };
/** A POST to the server's API. */
const post = (path: string, body = '{}') => fetch(`${web.url}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
/** Requests the model got for one model name. */
const askedOf = (name: string) => model.requests.filter(r => (r.body as { model?: string }).model === name).length;
/** A suite run of model `name`, launched with the gate closed: back once its first request waits at the gate. */
const launchHeld = async (name: string, repeats: number) => {
  closeGate();
  const config = { kind: 'suite', suites: [join(dir, 'suites/two')], models: [`m=openai:${name}`], repeats };
  const id = await launch(config);
  await expect.poll(() => askedOf(name), { timeout: 20_000 }).toBeGreaterThan(0);
  return { id, config };
};
const detailOf = async (id: string) => await (await fetch(`${web.url}/api/runs/${id}`)).json() as Detail;
/** A moment for a second session to be refused: the run must still be this server's, followed, with no error, and stored as running. */
const stillFollowed = async (id: string) => {
  await new Promise(r => setTimeout(r, 500));
  const detail = await detailOf(id);
  expect(detail.live).toMatchObject({ finished: false, error: null });
  expect(detail.status).toBe('running');
};
/** Let the calls through and wait for the run's end: its stored status and the calls its model got. */
const settled = async (id: string, modelName: string) => {
  openGate();
  await expect.poll(async () => (await detailOf(id)).live?.finished, { timeout: 20_000 }).toBe(true);
  return { status: (await detailOf(id)).status, calls: model.requests.filter(r => (r.body as { model?: string }).model === modelName).length };
};

describe('a launch of a run this server is already running', () => {
  it('joins the live run by its id (a config written otherwise is the same run): the run stays followed and stoppable', async () => {
    closeGate();
    const config = { kind: 'suite', suites: [join(dir, 'suites/two')], models: ['m=openai:m2'], repeats: 20 };
    const first = await launch(config);
    await expect.poll(() => model.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
    // The same run asked again in other words (the seed given at its default): the same run id.
    // Twice at once, too (a double click): one session runs it.
    const [again, twice] = await Promise.all([launch({ ...config, seed: 20261129 }), launch(config)]);
    expect([again, twice]).toEqual([first, first]);
    // The second session is refused by the first one's claims; that must not become the run's state.
    await stillFollowed(first);
    // Stop reaches the session that runs it: the calls in flight finish, nothing new starts.
    const stop = await fetch(`${web.url}/api/runs/${first}/stop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(stop.status).toBe(200);
    const { status, calls } = await settled(first, 'm2');
    expect(status).toBe('stopped');
    expect(calls).toBeLessThan(40);
  }, 60_000);

  it('a run launched twice at once is run by one session, which the page follows', async () => {
    closeGate();
    const config = { kind: 'suite', suites: [join(dir, 'suites/two')], models: ['m=openai:m4'], repeats: 20 };
    const [a, b] = await Promise.all([launch(config), launch(config)]);
    expect(a).toBe(b);
    await stillFollowed(a);
    const listed = async () => (await (await fetch(`${web.url}/api/runs`)).json() as Array<{ id: string; live: unknown }>).find(r => r.id === a);
    expect((await listed())?.live).toMatchObject({ total: 40 });
    expect(await settled(a, 'm4')).toEqual({ status: 'completed', calls: 40 });
    // Its session ended: the list reads the store (another process may finish a run this server stopped).
    expect((await listed())?.live).toBeNull();
  }, 60_000);

  it('refuses the same launch while its run goes if its files changed since (say why), and starts it as its own run once that run ended', async () => {
    closeGate();
    const config = { kind: 'suite', suites: [join(dir, 'suites/two')], models: ['m=openai:m3'], repeats: 2 };
    const first = await launch(config);
    const file = join(dir, 'suites/two/exercises.jsonl');
    const items = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${items[0]}\n`);
    const refused = await fetch(`${web.url}/api/launch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ config }) });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`a file of this launch changed since run ${first} started from it, and that run is still running here: stop it or wait for it to end, then launch again`);
    await stillFollowed(first);
    expect((await settled(first, 'm3')).status).toBe('completed');
    const second = await launch(config);
    expect(second).not.toBe(first);
    await expect.poll(async () => (await detailOf(second)).live?.finished, { timeout: 20_000 }).toBe(true);
    expect((await detailOf(second)).status).toBe('completed');
    writeFileSync(file, `${items.join('\n')}\n`);
  }, 60_000);
});

describe('a launch whose file changed while a resumed session of its run goes', () => {
  it('is refused as for a launched one: the resumed session\'s config is written otherwise but reads the same scenario file', async () => {
    closeGate();
    // The tutor is the gated server's model; the judge is scripted.
    const file = join(dir, 'scenarios/k.yaml');
    writeFileSync(file, readFileSync(join(ROOT, 'scenarios/knowledge-explanation.yaml'), 'utf8')
      .replace(/type: baseline\n( +)model: script\n +script: [^\n]+\n/, (_m, indent: string) => `type: openai\n${indent}model: m11\n`));
    const config = { kind: 'scenario', file };
    const id = await launch(config);
    await expect.poll(() => askedOf('m11'), { timeout: 20_000 }).toBeGreaterThan(0);
    expect((await post(`runs/${id}/stop`)).status).toBe(200);
    expect((await post(`runs/${id}/abort`)).status).toBe(200);
    await expect.poll(async () => (await detailOf(id)).live?.finished, { timeout: 20_000 }).toBe(true);
    expect((await post(`runs/${id}/resume`)).status).toBe(200);
    await stillFollowed(id);
    // A new judge prompt keeps the run id: a second session would plan judgments neither runs.
    const judged = readFileSync(file, 'utf8');
    expect(judged).toContain('You are an expert teacher educator');
    writeFileSync(file, judged.replace('You are an expert teacher educator', 'You are a strict teacher educator'));
    const refused = await post('launch', JSON.stringify({ config }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`a file of this launch changed since run ${id} started from it, and that run is still running here`);
    await stillFollowed(id);
    openGate();
    await expect.poll(async () => (await detailOf(id)).live?.finished, { timeout: 20_000 }).toBe(true);
    expect((await detailOf(id)).status).toBe('completed');
  }, 60_000);
});

describe('a resume or launch while the run is stopping', () => {
  it('waits for the drain, then runs the rest in a new session: the run ends completed, no call asked twice', async () => {
    const { id, config } = await launchHeld('m7', 20);
    expect((await post(`runs/${id}/stop`)).status).toBe(200);
    // Asked while the calls in flight are held: neither joins the session that is about to end "stopped".
    const resumed = post(`runs/${id}/resume`);
    const relaunched = post('launch', JSON.stringify({ config }));
    await new Promise(r => setTimeout(r, 300));
    openGate();
    for (const res of await Promise.all([resumed, relaunched])) {
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json() as { runId: string }).runId).toBe(id);
    }
    await expect.poll(async () => (await detailOf(id)).status, { timeout: 20_000 }).toBe('completed');
    const asked = model.requests.filter(r => (r.body as { model?: string }).model === 'm7').map(r => JSON.stringify(r.body));
    expect(asked.length).toBe(40);
    expect(new Set(asked).size).toBe(40);
  }, 60_000);
});

describe('stop now, after a stop', () => {
  it('abandons the calls in flight: the run ends stopped while they are still held, nothing of them stored, and a resume asks them again', async () => {
    const { id, config } = await launchHeld('m9', 3);
    expect((await post(`runs/${id}/stop`)).status).toBe(200);
    await stillFollowed(id);
    expect((await post(`runs/${id}/abort`)).status).toBe(200);
    await expect.poll(async () => (await detailOf(id)).live?.finished, { timeout: 20_000 }).toBe(true);
    expect((await detailOf(id)).status).toBe('stopped');
    expect(await store.listCalls(id)).toHaveLength(0);
    openGate();
    expect((await post(`runs/${id}/resume`)).status).toBe(200);
    await expect.poll(async () => (await detailOf(id)).status, { timeout: 20_000 }).toBe('completed');
    expect((await post('runs/run-none/abort')).status).toBe(404);
  }, 60_000);
});

describe('retrying failed trials from the page', () => {
  it('a run whose trials failed asks them again on request (retryErrors), and only them', async () => {
    openGate();
    const config = { kind: 'suite', suites: [join(dir, 'suites/two')], models: ['m=openai:m10'], repeats: 2 };
    const id = await launch(config);
    await expect.poll(async () => (await detailOf(id)).live?.finished, { timeout: 20_000 }).toBe(true);
    const failed = await (await fetch(`${web.url}/api/runs/${id}`)).json() as { status: string; counts: { failed: number } };
    // Every trial failed: the run is stored failed, its trials not pending.
    expect([failed.status, failed.counts.failed]).toEqual(['failed', 4]);
    const resume = (body: string) => post(`runs/${id}/resume`, body);
    expect((await resume('{"retryErrors":"yes"}')).status).toBe(400);
    refuseM10 = false;
    const before = model.requests.length;
    expect((await resume('{"retryErrors":true}')).status).toBe(200);
    await expect.poll(async () => (await (await fetch(`${web.url}/api/runs/${id}`)).json() as { counts: { failed: number } }).counts.failed, { timeout: 20_000 }).toBe(0);
    expect(model.requests.length - before).toBe(4);
  }, 60_000);
});

describe('resuming from the page a run the CLI started', () => {
  it('refuses a scenario run whose file lies outside the folders the server offers, saying so, and calls nothing', async () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    cpSync(join(ROOT, 'scenarios/knowledge-explanation.yaml'), join(elsewhere, 'k.yaml'));
    cpSync(join(ROOT, 'scenarios/scripts'), join(elsewhere, 'scripts'), { recursive: true });
    // Planned only, as `paideia scenario run --plan-only` leaves it: every dialogue pending.
    const planned = await startRun({ kind: 'scenario', file: join(elsewhere, 'k.yaml'), planOnly: true }, { store, env: {} }).done;
    const res = await fetch(`${web.url}/api/runs/${planned.runId}/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/k\.yaml\\" is not in a folder this server offers \(suites, scenarios\); put the file there, or resume it with the CLI/);
    expect((await store.getRun(planned.runId))?.status).toBe('stopped');
    expect((await store.listCalls(planned.runId)).length).toBe(0);
  });

  it('resumes a suite run whose item files lie elsewhere: it reads its items from the store, not from files', async () => {
    const elsewhere = join(dir, 'elsewhere-items');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, 'exercises.jsonl'), readFileSync(join(dir, 'suites/two/exercises.jsonl')));
    const planned = await startRun({ kind: 'suite', suites: [elsewhere], models: ['m=baseline:gold'], repeats: 1, planOnly: true }, { store }).done;
    const res = await fetch(`${web.url}/api/runs/${planned.runId}/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(200);
    await expect.poll(async () => (await detailOf(planned.runId)).status, { timeout: 20_000 }).toBe('completed');
  });
});

describe('launching from the page a run another process is running', () => {
  it('leaves it to that process: the page says who runs it, no error of a refused session stays, and the run ends completed', async () => {
    closeGate();
    const config = { kind: 'suite' as const, suites: [join(dir, 'suites/two')], models: ['m=openai:m6'], repeats: 4 };
    // Another session of the store's (as the CLI would be) holds the run's trials.
    const other = startRun(config, { store, env: { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'k' } });
    const id = await other.runId;
    await expect.poll(() => model.requests.filter(r => (r.body as { model?: string }).model === 'm6').length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await launch(config)).toBe(id);
    // Refused by the other session's claims: nothing of this server's is left on the run.
    await expect.poll(async () => (await detailOf(id)).live, { timeout: 20_000 }).toBeNull();
    expect((await detailOf(id)).status).toBe('running');
    openGate();
    expect((await other.done).status).toBe('completed');
    expect(await detailOf(id)).toMatchObject({ status: 'completed', live: null });
  }, 60_000);
});
