import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../core/index.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { openStore } from '../store/index.js';
import { startApiServer } from './testing/api-server.js';
import type { RunningServer } from './serve.js';

const ROOT = resolve(import.meta.dirname, '../..');

let dir: string;
let store: Store;
let model: FakeServer;
let web: RunningServer;
let openGate!: () => void;
const gate = new Promise<void>(r => { openGate = r; });
/** Set by the test: the run's record is read, then the run finishes, then the read returns. */
let finishDuringRead: ((id: string) => Promise<void>) | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paideia-run-race-'));
  mkdirSync(join(dir, 'suites/two'), { recursive: true });
  const items = readFileSync(join(ROOT, 'data/samples/english/exercises.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 2);
  writeFileSync(join(dir, 'suites/two/exercises.jsonl'), `${items.join('\n')}\n`);
  store = await openStore(`sqlite:${join(dir, 'p.db')}`);
  // Every call waits for the gate, so the run is surely still running when the page asks.
  model = await startOpenAICompatibleServer(async () => { await gate; return { body: openAIChatBody({ text: 'himself' }) }; });
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
    folders: { base: dir, suites: [join(dir, 'suites')], scenarios: [] },
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
