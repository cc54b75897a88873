import type { CallRecord, ChatResult, Item, TestDefinition, Trial, TrialStatus } from '../core/index.js';

/** What the store says about one trial: its finished steps and whether it is done or failed. */
export interface TrialState {
  status: TrialStatus;
  /** Results of the consecutive successful steps, newest record per step. */
  results: ChatResult[];
  /** The error of the newest failed step, when the trial failed. */
  error?: CallRecord['error'];
  costUsd: number;
}

/**
 * The newest call record of each step, per trial. Calls are append-only, so a retried step's
 * earlier errors stay on record without deciding what the step returned.
 */
export function latestCalls(calls: ReadonlyArray<CallRecord>): Map<string, CallRecord[]> {
  const out = new Map<string, CallRecord[]>();
  for (const c of calls) {
    const steps = out.get(c.trialId) ?? [];
    steps[c.step] = c;
    out.set(c.trialId, steps);
  }
  return out;
}

/**
 * Rebuild each trial's state from the append-only call log: the newest record per step counts,
 * so a retried trial's earlier errors stay on record without deciding its status.
 */
export function trialStates(
  trials: Trial[],
  calls: CallRecord[],
  items: ReadonlyMap<string, Item>,
  tests: ReadonlyMap<string, TestDefinition>,
): Map<string, TrialState> {
  const latest = latestCalls(calls);
  const cost = new Map<string, number>();
  for (const c of calls) cost.set(c.trialId, (cost.get(c.trialId) ?? 0) + c.costUsd);
  const out = new Map<string, TrialState>();
  for (const t of trials) {
    const steps = latest.get(t.id) ?? [];
    const results: ChatResult[] = [];
    let error: CallRecord['error'];
    for (const c of steps) {
      if (!c) break;
      if (c.status === 'error') {
        error = c.error;
        break;
      }
      results.push(c.result!);
    }
    let status: TrialStatus = 'pending';
    if (error) status = 'failed';
    else if (results.length > 0) {
      const test = tests.get(t.test);
      const item = items.get(t.itemHash);
      if (test && item && test.render(item, results) === null) status = 'done';
    }
    out.set(t.id, { status, results, ...(error ? { error } : {}), costUsd: cost.get(t.id) ?? 0 });
  }
  return out;
}
