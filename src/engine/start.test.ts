import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunEvent, RunKind } from '../core/index.js';
import { openStore } from '../store/index.js';
import { loadRunConfig } from './run-config.js';
import { startRunWith } from './start.js';

/** A kind that plans three trials and reports them one by one, stopping early when told to. */
const counting: RunKind<{ kind: 'count'; n: number }> = {
  specVersion: 'paideia.run-kind.v1',
  name: 'count',
  configSchema: z.strictObject({ kind: z.literal('count'), n: z.number().int().min(1) }),
  async start(c, ctx) {
    ctx.onEvent({ type: 'planned', runId: 'run-count', kind: 'count', trials: c.n });
    ctx.onEvent({ type: 'start', total: c.n, done: 0, failed: 0, pending: c.n, spentUsd: 0 });
    let done = 0;
    for (let i = 0; i < c.n; i++) {
      await new Promise(resolve => setTimeout(resolve, 5));
      if (ctx.stopSignal?.aborted) {
        ctx.onEvent({ type: 'stop', reason: 'interrupt' });
        break;
      }
      done++;
      ctx.onEvent({ type: 'warning', message: `trial ${i}` });
    }
    return { runId: 'run-count', status: done === c.n ? 'completed' : 'stopped', done, failed: 0, pending: c.n - done, spentUsd: 0 };
  },
  resumeConfig: c => ({ ...c, n: c.n + 100 }),
};

describe('startRunWith', () => {
  it('streams every event to each reader and to listeners, gives the run id first and the outcome last', async () => {
    const store = await openStore('sqlite::memory:');
    const handle = startRunWith([counting], { kind: 'count', n: 3 }, { store });
    const heard: string[] = [];
    handle.on(e => heard.push(e.type));
    const read: RunEvent[] = [];
    for await (const e of handle.events()) read.push(e);
    expect(await handle.runId).toBe('run-count');
    expect(read.map(e => e.type)).toEqual(['planned', 'start', 'warning', 'warning', 'warning']);
    expect(heard).toEqual(['planned', 'start', 'warning', 'warning', 'warning']);
    expect(await handle.done).toMatchObject({ runId: 'run-count', status: 'completed', done: 3 });
    // A reader that comes late still gets the opening events, then the end.
    const late: string[] = [];
    for await (const e of handle.events()) late.push(e.type);
    expect(late).toEqual(['planned', 'start']);
  });

  it('stores the config that continues the run when it is planned, unless told not to (a worker joining it)', async () => {
    const store = await openStore('sqlite::memory:');
    await startRunWith([counting], { kind: 'count', n: 2 }, { store }).done;
    expect(await loadRunConfig(store, 'run-count')).toEqual({ kind: 'count', n: 102 });
    await startRunWith([counting], { kind: 'count', n: 1 }, { store, keepConfig: false }).done;
    expect(await loadRunConfig(store, 'run-count')).toEqual({ kind: 'count', n: 102 });
    await startRunWith([counting], { kind: 'count', n: 1 }, { store }).done;
    expect(await loadRunConfig(store, 'run-count')).toEqual({ kind: 'count', n: 101 });
  });

  it('stop() lets the kind finish what it has and end stopped', async () => {
    const store = await openStore('sqlite::memory:');
    const handle = startRunWith([counting], { kind: 'count', n: 50 }, { store });
    await handle.runId;
    handle.stop();
    const outcome = await handle.done;
    expect(outcome.status).toBe('stopped');
    expect(outcome.done).toBeLessThan(50);
  });

  it('leaves no listener on the caller\'s signal once a run has settled (a worker starts a run per batch on one signal)', async () => {
    const store = await openStore('sqlite::memory:');
    const signal = new AbortController().signal;
    for (let i = 0; i < 12; i++) await startRunWith([counting], { kind: 'count', n: 1 }, { store, signal }).done;
    await startRunWith([counting], { kind: 'nope' }, { store, signal }).done.catch(() => undefined);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    // While a run goes, aborting the caller's signal still aborts it.
    const outer = new AbortController();
    const handle = startRunWith([counting], { kind: 'count', n: 1 }, { store, signal: outer.signal });
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(1);
    await handle.done;
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);
  });

  it('refuses an unknown kind or a config its schema rejects, naming every field', async () => {
    const store = await openStore('sqlite::memory:');
    await expect(startRunWith([counting], { kind: 'nope' }, { store }).done).rejects.toThrow(/unknown run kind "nope"; expected one of count/);
    await expect(startRunWith([counting], { kind: 'count', n: 0, extra: 1 }, { store }).done).rejects.toThrow(/field "n".*\n.*(extra|Unrecognized)/s);
    await expect(startRunWith([counting], { kind: 'count', n: 0 }, { store }).runId).rejects.toThrow(/field "n"/);
  });
});
