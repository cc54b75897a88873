import type { CallRecord, ChatResult, StepHistory, Store } from '../core/index.js';
import type { TrialSource } from './trial-source.js';

const PAGE = 5000;

/**
 * The newest call record of each step, per trial. Calls are append-only, so a retried step's
 * earlier errors stay on record without deciding what the step returned.
 */
export function latestCalls(calls: Iterable<CallRecord>): Map<string, CallRecord[]> {
  const out = new Map<string, CallRecord[]>();
  for (const c of calls) addLatest(out, c);
  return out;
}

function addLatest(out: Map<string, CallRecord[]>, c: CallRecord): void {
  const steps = out.get(c.trialId) ?? out.set(c.trialId, []).get(c.trialId)!;
  steps[c.step] = c;
}

/**
 * Every call of a run (after `afterSeq`: only those stored since), a page at a time, so a large
 * run is never held in memory at once.
 */
export async function* eachCall(store: Store, runId: string, afterSeq = 0): AsyncGenerator<CallRecord> {
  let after = afterSeq;
  for (;;) {
    const page = await store.listCalls(runId, { afterSeq: after, limit: PAGE });
    yield* page;
    if (page.length < PAGE) return;
    after = page.at(-1)!.seq!;
  }
}

/** The newest call per step of the given trials only (the ones a session may still run). */
export async function latestCallsOf(store: Store, runId: string, trialIds: ReadonlySet<string>): Promise<Map<string, CallRecord[]>> {
  const out = new Map<string, CallRecord[]>();
  if (trialIds.size === 0) return out;
  for await (const c of eachCall(store, runId)) if (trialIds.has(c.trialId)) addLatest(out, c);
  return out;
}

/** The answers of a trial's consecutive successful steps. */
export function resultsOf(steps: ReadonlyArray<CallRecord | undefined>): ChatResult[] {
  const results: ChatResult[] = [];
  for (const c of steps) {
    if (!c || c.status !== 'ok' || !c.result) break;
    results.push(c.result);
  }
  return results;
}

/**
 * Histories of judged trials, read from the store when first asked and kept while judges of the
 * same target run (a panel and its repeats read one dialogue many times).
 */
export function targetHistories(store: Store, runId: string, all: TrialSource): { get(id: string): Promise<StepHistory | undefined> } {
  const cache = new Map<string, Promise<StepHistory | undefined>>();
  return {
    get(id) {
      let found = cache.get(id);
      if (!found) {
        found = (async () => {
          const k = all.positionOf(id);
          if (k === undefined) return undefined;
          const trial = all.at(k);
          const steps = latestCalls(await store.listCalls(runId, { trialIds: [id] })).get(id) ?? [];
          return { trial, results: resultsOf(steps) };
        })();
        if (cache.size > 1000) cache.delete(cache.keys().next().value!);
        cache.set(id, found);
      }
      return found;
    },
  };
}
