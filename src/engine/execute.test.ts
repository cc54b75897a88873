import { describe, expect, it } from 'vitest';
import {
  ProviderCallError, type ChatModel, type ChatRequest, type Item, type Scorer, type TestDefinition,
} from '../core/index.js';
import { openStore } from '../store/index.js';
import { itemStep } from '../suites/item-step.js';
import { planTrials } from '../suites/plan.js';
import type { CostModel } from './call.js';
import { executeTrials } from './execute.js';
import { fourNouns as items, lemmaTest as test } from '../suites/testing/four-nouns.js';
import { createOpenAICompatibleModel } from '../providers/index.js';
import { retryMiddleware, wrapChatModel } from '../providers/middleware/index.js';
import { openAIChatBody, startOpenAICompatibleServer } from '../providers/testing/fake-servers.js';

/** The engine run over item trials, as a suite run drives it. */
interface ExecuteOptions {
  store: Awaited<ReturnType<typeof openStore>>;
  runId: string;
  trials: ReturnType<typeof planTrials>;
  items: Map<string, Item>;
  tests: Map<string, TestDefinition>;
  models: Map<string, ChatModel>;
  scorers: Map<string, Scorer[]>;
  cost: CostModel;
  concurrency: () => number;
  costCapUsd?: number;
  useCache?: boolean;
  retryErrors?: boolean;
  signal?: AbortSignal;
}

function executeRun(o: ExecuteOptions) {
  return executeTrials({
    store: o.store, runId: o.runId, trials: o.trials, models: o.models, cost: o.cost,
    stepOf: () => itemStep({ items: o.items, tests: o.tests, scorers: o.scorers, params: {} }),
    identityOf: alias => ({ spec: `openai:${alias}` }),
    poolOf: () => ({ name: 'openai', size: o.concurrency() }),
    ...(o.costCapUsd !== undefined ? { costCapUsd: o.costCapUsd } : {}),
    ...(o.useCache !== undefined ? { useCache: o.useCache } : {}),
    ...(o.retryErrors !== undefined ? { retryErrors: o.retryErrors } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
}

const twoStep: TestDefinition = { ...test, render: (item, prev) => (prev.length >= 2 ? null : { messages: [{ role: 'user', content: `${item.input.lemma}#${prev.length}` }], params: {} }) };

const equals: Scorer = {
  ref: { name: 'equals', version: '1', args: {} },
  score: ({ item, outputs }) => ({ value: outputs.at(-1) === item.accepted![0] ? 1 : 0 }),
};

/** An in-process model that answers from the hints, and can be told to fail. */
function model(over: Partial<{ fail: (r: ChatRequest) => boolean; usage: number }> = {}): ChatModel & { calls: ChatRequest[] } {
  const calls: ChatRequest[] = [];
  return {
    specVersion: 'paideia.chat-model.v1', provider: 'openai', modelId: 'm', isBaseline: false, calls,
    async generate(request) {
      calls.push(request);
      if (over.fail?.(request)) throw new ProviderCallError({ message: 'boom 500', kind: 'http', statusCode: 500, isRetryable: true });
      return { text: request.hints?.gold ?? 'x', warnings: [], usage: { inputTokens: over.usage ?? 1000, outputTokens: over.usage ?? 1000 } };
    },
  };
}

const cost: CostModel = {
  costOf: (_a, u) => ((u?.inputTokens ?? 0) + (u?.outputTokens ?? 0)) / 1e6, // $1 per million tokens
  estimate: () => 0.002,
};

async function setup(m: ChatModel, t: TestDefinition = test, over: Partial<ExecuteOptions> = {}) {
  const store = await openStore('sqlite::memory:');
  const models = [{ alias: 'm', provider: 'openai' as const, model: 'm', spec: 'openai:m' as const }];
  const trials = planTrials({ runId: 'r', items, models, tests: new Map([[t.name, t]]), repeats: 2, seed: 1, params: {} });
  await store.saveTrials(trials);
  const options: ExecuteOptions = {
    store, runId: 'r', trials, items: new Map(items.map(v => [v.hash, v.item])), tests: new Map([[t.name, t]]),
    models: new Map([['m', m]]), scorers: new Map([[t.name, [equals]]]), cost, concurrency: () => 3, ...over,
  };
  return { store, trials, options };
}


describe('executeRun', () => {
  it('runs, stores every call, scores, and makes no call on a re-run', async () => {
    const m = model();
    const { store, options } = await setup(m);
    const first = await executeRun(options);
    expect(first).toMatchObject({ total: 8, done: 8, failed: 0, pending: 0 });
    expect(m.calls).toHaveLength(8);
    expect((await store.listCalls('r')).length).toBe(8);
    expect((await store.listScores('r')).map(s => s.value)).toEqual(Array(8).fill(1));
    const again = await executeRun(options);
    expect(again.done).toBe(8);
    expect(m.calls).toHaveLength(8);
  });

  it('answers a new run of the same requests from the cache, unless told not to', async () => {
    const m = model();
    const { options } = await setup(m);
    await executeRun(options);
    const trials2 = options.trials.map(t => ({ ...t, runId: 'r2' }));
    await executeRun({ ...options, runId: 'r2', trials: trials2 });
    expect(m.calls).toHaveLength(8);
    const cached = (await options.store.listCalls('r2')).filter(c => c.cached);
    expect(cached).toHaveLength(8);
    await executeRun({ ...options, runId: 'r3', trials: options.trials.map(t => ({ ...t, runId: 'r3' })), useCache: false });
    expect(m.calls).toHaveLength(16);
  });

  it('keeps failed calls apart from wrong answers and retries only them with retryErrors', async () => {
    let failing = true;
    const m = model({ fail: r => failing && r.messages[0]!.content === 'bean' });
    const { store, options } = await setup(m);
    const first = await executeRun(options);
    expect(first).toMatchObject({ done: 6, failed: 2 });
    const scores = await store.listScores('r');
    expect(scores).toHaveLength(6);
    const errors = (await store.listCalls('r')).filter(c => c.status === 'error');
    expect(errors.map(e => e.error?.statusCode)).toEqual([500, 500]);
    // A plain resume skips failed trials; --retry-errors runs only them.
    failing = false;
    expect((await executeRun(options)).failed).toBe(2);
    expect(m.calls).toHaveLength(8);
    const retried = await executeRun({ ...options, retryErrors: true });
    expect(retried).toMatchObject({ done: 8, failed: 0 });
    expect(m.calls).toHaveLength(10);
    expect((await store.listCalls('r')).filter(c => c.status === 'error')).toHaveLength(2);
  });

  it('stops before a call that could pass the cost cap, and resumes with a higher cap', async () => {
    const m = model(); // each call costs $0.002; estimate $0.002
    const { options } = await setup(m, test, { concurrency: () => 1 });
    const capped = await executeRun({ ...options, costCapUsd: 0.0061 });
    expect(capped.stoppedBy).toBe('cost-cap');
    expect(capped.done).toBe(3);
    expect(capped.spentUsd).toBeCloseTo(0.006, 10);
    const resumed = await executeRun({ ...options, costCapUsd: 1 });
    expect(resumed).toMatchObject({ done: 8, pending: 0 });
    expect(m.calls).toHaveLength(8);
  });

  it('continues a multi-step trial from its last stored step', async () => {
    let failStep1 = true;
    const m = model({ fail: r => failStep1 && r.messages[0]!.content.endsWith('#1') });
    const { options } = await setup(m, twoStep);
    expect((await executeRun(options)).failed).toBe(8);
    failStep1 = false;
    const n = m.calls.length;
    expect((await executeRun({ ...options, retryErrors: true })).done).toBe(8);
    expect(m.calls.slice(n).every(r => r.messages[0]!.content.endsWith('#1'))).toBe(true);
  });

  it('leaves interrupted trials pending, not failed', async () => {
    const controller = new AbortController();
    const m = model();
    const slow: ChatModel = {
      ...m,
      async generate(r, o) {
        if (m.calls.length >= 2) controller.abort();
        if (o?.signal?.aborted) throw new ProviderCallError({ message: 'aborted', kind: 'aborted', isRetryable: false });
        return m.generate(r);
      },
    };
    const { options } = await setup(slow, test, { concurrency: () => 1, signal: controller.signal });
    const s = await executeRun(options);
    expect(s.stoppedBy).toBe('interrupt');
    expect(s.failed).toBe(0);
    expect(s.done).toBe(2);
    expect(s.pending).toBe(6);
  });
});


describe('executeRun cost cap', () => {
  it('charges a response without usage its estimate, so a cap still holds', async () => {
    const noUsage: ChatModel = { ...model(), async generate(r) { return { text: r.hints?.gold ?? '', warnings: [] }; } };
    const { options } = await setup(noUsage, test, { concurrency: () => 1 });
    const s = await executeRun({ ...options, costCapUsd: 0.005 });
    expect(s.stoppedBy).toBe('cost-cap');
    expect(s.done).toBe(2);
    expect(s.spentUsd).toBeCloseTo(0.004, 10);
  });

  it('with several workers, waits for calls in flight instead of stopping far below the cap', async () => {
    // Estimates ($0.002) equal the real cost, so eight workers could overbook a $0.0101 cap.
    const m = model();
    const { options } = await setup(m, test, { concurrency: () => 8 });
    const s = await executeRun({ ...options, costCapUsd: 0.0101 });
    expect(s.stoppedBy).toBe('cost-cap');
    expect(s.done).toBe(5);
    expect(s.spentUsd).toBeLessThanOrEqual(0.0101);
  });
});


describe('executeRun against a model over the network', () => {
  it('keeps to the pool size in flight, and sends the next ready request before it scores an answer', async () => {
    // Answers take 50 ms, as a model's would: the next trial's request is built meanwhile, so it is
    // ready when the answer comes (an instant answer can beat it, and is then scored first).
    const server = await startOpenAICompatibleServer(req => ({ status: 200, delayMs: 50, body: openAIChatBody({ text: String((req.body as { messages: Array<{ content: string }> }).messages[0]!.content) }) }));
    try {
      const { store, trials, options } = await setup(model());
      const remote = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, apiKey: 'sk-test' });
      const order: string[] = [];
      let inFlight = 0;
      let most = 0;
      const watched: ChatModel = {
        ...remote,
        async generate(request, o) {
          order.push(`sent ${String(request.messages[0]!.content)}`);
          most = Math.max(most, ++inFlight);
          try {
            return await remote.generate(request, o);
          } finally {
            inFlight--;
          }
        },
      };
      const scored: Scorer = { ...equals, score: a => (order.push(`scored ${String(a.item.input.lemma)}`), equals.score(a)) };
      const s = await executeTrials({
        store, runId: 'r', trials, models: new Map([['m', watched]]), cost,
        stepOf: () => itemStep({ items: options.items, tests: options.tests, scorers: new Map([[test.name, [scored]]]), params: {} }),
        identityOf: () => ({ spec: 'openai:m', endpoint: remote.endpoint }), poolOf: () => ({ name: 'openai', size: 1 }),
      });
      expect(s).toMatchObject({ done: 8, failed: 0, pending: 0 });
      expect(server.requests).toHaveLength(8);
      expect(most).toBe(1);
      // Plan order, one call at a time; each answer is scored only once the next request is out.
      const lemmas = trials.map(t => String(options.items.get(t.itemHash)!.input.lemma));
      expect(order).toEqual([`sent ${lemmas[0]}`, ...lemmas.slice(1).flatMap((l, i) => [`sent ${l}`, `scored ${lemmas[i]}`]), `scored ${lemmas.at(-1)}`]);
    } finally {
      await server.close();
    }
  });
});

describe('executeRun with a response past the size limit', () => {
  it('stores the call as cut (flag, reason, the kept start) and fails the trial: nothing half-read is scored', async () => {
    // The answer would be right (the gold form) but arrives inside a body longer than the limit.
    const server = await startOpenAICompatibleServer(() => ({ status: 200, body: openAIChatBody({ text: `${'a'.repeat(5000)}`, usage: { prompt_tokens: 5, completion_tokens: 2 } }) }));
    try {
      const remote = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, apiKey: 'sk-test-secret-key-123456', maxResponseBytes: 1000 });
      const { store, options } = await setup(remote, test, { concurrency: () => 2 });
      const s = await executeRun(options);
      expect(s).toMatchObject({ done: 0, failed: 8 });
      expect(server.requests).toHaveLength(8);
      const calls = await store.listCalls('r');
      expect(calls).toHaveLength(8);
      for (const c of calls) {
        expect(c.status).toBe('error');
        expect(c.result).toBeUndefined();
        expect(c.error).toMatchObject({ kind: 'too-large', bodyTruncated: true });
        expect(c.error!.message).toMatch(/larger than the limit of 1000 bytes .*cut/);
        expect(c.error!.responseBody!.startsWith('{')).toBe(true);
        expect(c.error!.responseBody!.length).toBeLessThanOrEqual(1000);
      }
      expect(await store.listScores('r')).toEqual([]);
      expect([...(await store.listTrialStatuses('r')).values()]).toEqual(Array(8).fill('failed'));
    } finally {
      await server.close();
    }
  });
});


describe('executeRun after a pause past the lease', () => {
  it('confirms its claims before the next call and, finding them taken over, calls nothing more', async () => {
    let clock = Date.now() - 3_600_000;
    const m = model();
    const pausing: ChatModel = {
      ...m,
      async generate(r) {
        const result = await m.generate(r);
        if (m.calls.length === 3) {
          // The process sleeps past its lease; meanwhile another worker takes every trial over.
          clock += 120_000;
          await store.claimTrials('r', { workerId: 'other', pid: 2, host: 'elsewhere' }, options.trials.map(t => t.id), Date.now() + 60_000);
        }
        return result;
      },
    };
    const { store, options } = await setup(pausing, test, { concurrency: () => 1 });
    const s = await executeTrials({
      store, runId: 'r', trials: options.trials, models: new Map([['m', pausing]]), cost,
      stepOf: () => itemStep({ items: options.items, tests: options.tests, scorers: options.scorers, params: {} }),
      identityOf: alias => ({ spec: `openai:${alias}` }), poolOf: () => ({ name: 'openai', size: 1 }),
      claims: { ttlMs: 60_000, now: () => clock },
    });
    expect(s.stoppedBy).toBe('claim-lost');
    expect(m.calls).toHaveLength(3);
    // The third call's record is refused with the rest: only the first two trials are stored as done.
    expect(s.done).toBe(2);
    expect((await store.listCalls('r')).length).toBe(2);
  });
});


describe('executeRun against an endpoint nothing listens at', () => {
  async function deadURL(): Promise<string> {
    const server = await startOpenAICompatibleServer(() => ({ status: 200, body: openAIChatBody({ text: 'x' }) }));
    const url = server.baseURL;
    await server.close();
    return url;
  }

  function remoteRun(baseURL: string, options: ExecuteOptions, events: string[]) {
    const remote = wrapChatModel(createOpenAICompatibleModel({ model: 'm', baseURL, apiKey: 'sk-test' }), retryMiddleware({ maxAttempts: 5 }));
    return executeTrials({
      store: options.store, runId: 'r', trials: options.trials, models: new Map([['m', remote]]), cost,
      stepOf: () => itemStep({ items: options.items, tests: options.tests, scorers: options.scorers, params: {} }),
      identityOf: () => ({ spec: 'openai:m', endpoint: remote.endpoint }), poolOf: () => ({ name: 'openai', size: 3 }),
      onEvent: e => events.push(e.type === 'stop' ? `stop ${e.reason} ${e.endpoint} ${e.error}` : e.type),
    });
  }

  it('stops after a few refused attempts instead of retrying every trial, and leaves every trial pending', async () => {
    const url = await deadURL();
    const { store, options } = await setup(model());
    const events: string[] = [];
    const s = await remoteRun(url, options, events);
    expect(s).toMatchObject({ stoppedBy: 'unreachable', done: 0, failed: 0, pending: 8, unreachable: { endpoint: url, error: 'ECONNREFUSED' } });
    expect(events.filter(e => e.startsWith('stop'))).toEqual([`stop unreachable ${url} ECONNREFUSED`]);
    // three workers: their first attempts show it; no trial goes on to retry four more times
    expect(events.filter(e => e === 'retry').length).toBeLessThanOrEqual(3);
    expect(await store.listCalls('r')).toEqual([]);
    expect((await store.listTrialStatuses('r')).size).toBe(0);
    // nothing is held: the next session (at a live server) claims and runs every trial
    const server = await startOpenAICompatibleServer(req => ({ status: 200, body: openAIChatBody({ text: String((req.body as { messages: Array<{ content: string }> }).messages[0]!.content) }) }));
    try {
      const resumed = await remoteRun(server.baseURL, options, []);
      expect(resumed).toMatchObject({ done: 8, pending: 0 });
      expect(server.requests).toHaveLength(8);
    } finally {
      await server.close();
    }
  });
});


describe('executeRun after a resume moved the endpoint', () => {
  it('replays the steps stored at the former endpoint and calls the new one only for what is left', async () => {
    let failStep1 = true;
    const m = model({ fail: r => failStep1 && r.messages[0]!.content.endsWith('#1') });
    const { store, options } = await setup(m, twoStep);
    const at = (endpoint: string, formerEndpoints?: string[]) => executeTrials({
      store, runId: 'r', trials: options.trials, models: new Map([['m', m]]), cost, retryErrors: true,
      stepOf: () => itemStep({ items: options.items, tests: options.tests, scorers: options.scorers, params: {} }),
      identityOf: () => ({ spec: 'openai:m', endpoint, formerEndpoints }), poolOf: () => ({ name: 'openai', size: 2 }),
    });
    expect((await at('http://a/v1')).failed).toBe(8);
    failStep1 = false;
    const before = m.calls.length;
    expect((await at('http://b/v1', ['http://a/v1'])).done).toBe(8);
    // step 0 was answered at A and is replayed; only step 1 is asked, at B
    expect(m.calls.slice(before).map(r => r.messages[0]!.content.endsWith('#1'))).toEqual(Array(8).fill(true));
    const calls = await store.listCalls('r');
    expect(calls.filter(c => c.status === 'ok' && c.step === 1).map(c => c.endpoint)).toEqual(Array(8).fill('http://b/v1'));
    expect(calls.filter(c => c.step === 0).map(c => c.endpoint)).toEqual(Array(8).fill('http://a/v1'));
  });
});

describe('executeRun on a store that stops committing', () => {
  it('calls no model over the network while a write waits, and calls each step once when the store commits again', async () => {
    const { store, trials, options } = await setup(model(), twoStep);
    // Writes from the third call on wait until released (a PostgreSQL server gone, say).
    const held: Array<() => void> = [];
    let holding = false;
    const hold = <T>(write: () => Promise<T>): Promise<T> => holding ? new Promise<T>((resolve, reject) => held.push(() => void write().then(resolve, reject))) : write();
    const stuck: typeof store = { ...store, saveCall: (c, f) => hold(() => store.saveCall(c, f)), saveTrialResult: (r, f) => hold(() => store.saveTrialResult(r, f)) };
    const asked: string[] = [];
    const remote: ChatModel = {
      ...model(), endpoint: 'http://127.0.0.1:9/v1',
      async generate(request) {
        asked.push(String(request.messages[0]!.content));
        if (asked.length === 2) holding = true;
        await new Promise(resolve => setTimeout(resolve, 40));
        return { text: request.hints?.gold ?? 'x', warnings: [], usage: { inputTokens: 1, outputTokens: 1 } };
      },
    };
    const run = executeTrials({
      store: stuck, runId: 'r', trials, models: new Map([['m', remote]]), cost, writeStallMs: 50,
      stepOf: () => itemStep({ items: options.items, tests: options.tests, scorers: options.scorers, params: {} }),
      identityOf: () => ({ spec: 'openai:m', endpoint: remote.endpoint }), poolOf: () => ({ name: 'openai', size: 2 }),
    });
    // Two calls at a time, 40 ms each: all 16 would be asked within 320 ms. Writes wait from the
    // second answer on (~40 ms), so from ~90 ms no call begins.
    await new Promise(resolve => setTimeout(resolve, 600));
    expect(asked.length).toBeLessThanOrEqual(12);
    holding = false;
    for (const release of held.splice(0)) release();
    expect(await run).toMatchObject({ done: 8, failed: 0, pending: 0 });
    // 8 trials of two steps: each step asked once, over both spells.
    expect(asked).toHaveLength(16);
    const calls = await store.listCalls('r');
    expect(new Set(calls.map(c => `${c.trialId}#${c.step}`)).size).toBe(16);
    expect(calls).toHaveLength(16);
    await store.close();
  });
});
