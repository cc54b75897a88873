import {
  ClaimLostError, extend, type CallRecord, type ChatModel, type ChatResult, type Score, type StepInput, type StepKind,
  type StepOutcome, type Store, type Trial, type TrialResult,
} from '../core/index.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createSemaphore, type Semaphore } from '../providers/index.js';
import { createBudget } from './budget.js';
import { createCallPath, requestHash, type CallOutcome, type CostModel } from './call.js';
import { claimRunTrials, type ClaimOptions } from './claims.js';
import type { RunEvent, RunSummary } from './events.js';
import { targetHistories } from './history.js';
import { loopTurns } from './loop-turns.js';
import { createReachability } from './reachability.js';
import { trialChunks, type TrialInputs } from './trial-chunks.js';
import { asTrialSource, type TrialSource } from './trial-source.js';
import { writesBehind } from './writes-behind.js';
import { writeStalls } from './write-stalls.js';

export interface ExecuteOptions {
  store: Store;
  runId: string;
  /**
   * Every trial of the run, in plan order: a list, or a source that makes each trial when it is
   * taken (a large suite run, which then holds no object per trial).
   */
  trials: TrialSource | ReadonlyArray<Trial>;
  /** The step kind that runs a trial (the run kind knows it from `trial.kind`). */
  stepOf(trial: Trial): StepKind;
  /** What the steps read from the store for the trials about to run (a suite run's items). */
  inputs?: TrialInputs;
  /** Models by alias, already wrapped with retry and rate-limit middleware (none when offline). */
  models: ReadonlyMap<string, ChatModel>;
  /**
   * Who a model alias is: its canonical spec and endpoint, as the run stored them (the cache key
   * names them), and the endpoints it was called at before a resume moved it: their stored calls
   * are replayed, not asked again.
   */
  identityOf(alias: string): { spec: string; endpoint?: string | undefined; formerEndpoints?: ReadonlyArray<string> | undefined };
  cost: CostModel;
  /** Hard cap on the run's total spend in USD, resumed sessions included. */
  costCapUsd?: number;
  /**
   * Upper bound on generated tokens sent with every request that sets none, so the cost cap can
   * reserve each call's worst case (the run stores it; runs stored without one send none).
   */
  maxTokens?: number;
  /** The worker pool a trial runs in (by provider, say) and its size. */
  poolOf(trial: Trial): { name: string; size: number };
  /** Answer from earlier identical requests (default true). */
  useCache?: boolean;
  /** Run failed trials again from their failed step (default false: they stay failed). */
  retryErrors?: boolean;
  /**
   * Re-derive every trial's outcome from its stored calls and call nothing (rescore): a step that
   * asks for a call not in the store leaves its trial as it was and is counted as needing a call.
   */
  offline?: boolean;
  /** Aborts calls in flight (they stay pending, for a resume). */
  signal?: AbortSignal;
  /** Starts no new call, but lets calls in flight finish and be stored (a first Ctrl-C). */
  stopSignal?: AbortSignal;
  claims?: ClaimOptions;
  /** How long a write may wait to commit before calls over the network wait for it (default WRITE_STALL_MS). */
  writeStallMs?: number;
  onEvent?: (event: RunEvent) => void;
}

/**
 * Trials a worker may run ahead of their stored rows. This bounds a group commit only when trials
 * finish faster than they commit (a cached or local model), whose commits otherwise come with the
 * loop's turns (loop-turns.ts); larger commits pay: the cache's index, keyed by request hashes,
 * is written about a page per trial and commit.
 */
const WRITES_BEHIND = 512;

/**
 * Trials under way per call slot of a pool whose models answer over the network: one calling, one
 * with its request built, waiting. In-process models answer at once: a trial per slot.
 */
const WORKERS_PER_REMOTE_SLOT = 2;

/**
 * A write uncommitted this long means the store is in trouble (a commit takes milliseconds; the
 * commit thread's largest batches well under this): calls over the network wait for it to commit
 * or fail, instead of buying answers that cannot be stored. PostgreSQL stopped under two workers:
 * 108 answers were bought in the 5 s after it went away, lost when it stayed away, asked again.
 */
const WRITE_STALL_MS = 500;

type Outcome = 'done' | 'failed' | 'pending' | 'needs-call';

/**
 * The one engine loop. Trials are claimed for this process, then run by a pool of workers per
 * pool in plan order: each step is asked what it wants given the trial's history; a stored call
 * with the same request is replayed, any other request goes through the call path. Trials that
 * judge another trial run once their target is done. A trial's outcome is stored with it.
 */
export async function executeTrials(o: ExecuteOptions): Promise<RunSummary> {
  const source = asTrialSource(o.trials);
  const statuses = o.offline ? new Map<string, 'done' | 'failed'>() : await o.store.listTrialStatuses(o.runId);
  const count = { done: 0, failed: 0, needsCall: 0, blocked: 0 };
  // Trials are kept by plan position (4 bytes each) until a chunk of them is taken: each is made then.
  let open = new Uint32Array(source.size);
  let opened = 0;
  let retried = 0;
  for (let k = 0; k < source.size; k++) {
    const s = statuses.size ? statuses.get(source.idAt(k)) : undefined;
    if (s === 'done') count.done++;
    else if (s === 'failed' && !o.retryErrors) count.failed++;
    else {
      if (s === 'failed') retried++;
      open[opened++] = k;
    }
  }
  open = open.subarray(0, opened);
  const claims = o.offline ? undefined : await claimRunTrials(o.store, o.runId, { length: open.length, at: i => source.idAt(open[i]!) }, {
    ...o.claims, onLost: () => stop('claim-lost'),
  });
  const fence = claims ? { workerId: claims.worker.workerId } : undefined;
  const mine = claims ? open.filter((_, i) => claims.holds(i)) : open;
  const budget = createBudget({
    store: o.store, runId: o.runId, workerId: claims?.worker.workerId ?? 'offline', capUsd: o.costCapUsd,
    spentUsd: await o.store.spentUsd(o.runId),
  });
  let stoppedBy: RunSummary['stoppedBy'];
  // A write that failed for another reason than a lost claim (a full disk): start nothing more,
  // let the other workers wind down, then throw it.
  let writeFailure: { error: unknown } | undefined;
  const halted = () => stoppedBy === 'claim-lost' || writeFailure !== undefined;
  let unreachable: RunSummary['unreachable'];
  const stop = (reason: NonNullable<RunSummary['stoppedBy']>) => {
    if (stoppedBy) return;
    stoppedBy = reason;
    budget.cancel();
    o.onEvent?.({ type: 'stop', reason, ...(reason === 'unreachable' && unreachable ? unreachable : {}) });
  };
  // A dead endpoint stops the run at once: its calls in backoff are aborted and stay pending.
  const reachability = createReachability({
    ...(o.signal ? { signal: o.signal } : {}),
    onDead: (endpoint, error) => {
      unreachable ??= { endpoint, error };
      stop('unreachable');
    },
  });
  const listeners: Array<() => void> = [];
  for (const signal of [o.signal, o.stopSignal]) {
    if (!signal) continue;
    const onAbort = () => stop('interrupt');
    signal.addEventListener('abort', onAbort, { once: true });
    listeners.push(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) stop('interrupt');
  }
  o.onEvent?.({ type: 'start', total: source.size, done: count.done, failed: count.failed, pending: mine.length, spentUsd: budget.spentUsd, retried });

  const callModel = createCallPath({
    store: o.store, budget, cost: o.cost, useCache: o.useCache ?? true,
    ...(o.signal ? { signal: o.signal } : {}), ...(o.stopSignal ? { stopSignal: o.stopSignal } : {}), ...(fence ? { fence } : {}),
    onRetry: e => o.onEvent?.({ type: 'retry', ...e }), reachability,
  });
  // A run with no stored call yet (a fresh one) has no history to read.
  const hasCalls = (await o.store.listCalls(o.runId, { limit: 1 })).length > 0;
  // A run with a model called over the network (a trial's model alias need not name one: a
  // dialogue calls its roles' models). Only its calls wait for a store that does not commit.
  const remote = [...o.models.values()].some(m => m.endpoint !== undefined);
  const stalls = remote ? writeStalls(o.writeStallMs ?? WRITE_STALL_MS) : undefined;
  const keep = (writes: Array<Promise<unknown>>, write: Promise<unknown>) => {
    writes.push(write);
    stalls?.track(write);
  };
  const targets = targetHistories(o.store, o.runId, source);

  async function runTrial(trial: Trial, previous: ReadonlyArray<CallRecord>, slots: Semaphore): Promise<{ outcome: Outcome; costUsd: number; committed: Promise<unknown>; scores?: Score[] }> {
    const step = o.stepOf(trial);
    const writes: Array<Promise<unknown>> = [];
    const results: ChatResult[] = [];
    const target = step.judgesTarget && trial.target ? await targets.get(trial.target) : undefined;
    const input: StepInput = { trial, results };
    if (target) input.target = target;
    let costUsd = 0;
    // A trial that writes only its result (its steps replayed, as in a resume) needs no Promise.all.
    const finish = (outcome: Outcome, scores?: Score[]) => {
      const r: { outcome: Outcome; costUsd: number; committed: Promise<unknown>; scores?: Score[] } = {
        outcome, costUsd, committed: writes.length === 1 ? writes[0]! : Promise.all(writes),
      };
      if (scores) r.scores = scores;
      return r;
    };
    for (let index = 0; ; index++) {
      const decision = await step.next(input);
      if (decision.type === 'done') {
        keep(writes, saveOutcome(trial, 'done', decision));
        return finish('done', decision.scores);
      }
      const prior = previous[index];
      // Stopped, and nothing stored to replay: this step would need a new call, so the trial stays
      // pending (no request to hash; after a Ctrl-C the rest of a large queue is passed over fast).
      if (!prior && !o.offline && (stoppedBy || writeFailure)) return finish('pending');
      const { spec, endpoint, formerEndpoints } = o.identityOf(decision.model);
      const request = o.maxTokens !== undefined && decision.request.params.maxTokens === undefined
        ? { ...decision.request, params: extend(decision.request.params, { maxTokens: o.maxTokens }) }
        : decision.request;
      const hash = requestHash(spec, endpoint, request, decision.distinct);
      if (prior && (prior.requestHash === hash || formerEndpoints?.some(e => requestHash(spec, e, request, decision.distinct) === prior.requestHash))) {
        if (prior.status === 'ok' && prior.result) {
          results.push(prior.result);
          continue;
        }
        if (!o.retryErrors || o.offline) {
          keep(writes, saveOutcome(trial, 'failed', failure(step, input, prior, index)));
          return finish('failed');
        }
      }
      if (o.offline) return finish('needs-call');
      if (stoppedBy || writeFailure) return finish('pending');
      const model = o.models.get(decision.model);
      if (!model) throw new Error(`step ${step.name} asked for model "${decision.model}", which the run does not have`);
      // Back from a pause longer than half the lease: the trials may be another worker's by now.
      if (claims?.stale && !(await claims.confirm())) return finish('pending');
      // The store has not committed for a while: an answer bought now might not be stored.
      const stalled = endpoint !== undefined ? stalls?.wait() : undefined;
      if (stalled) {
        await stalled;
        // A turn, so that a write that failed has stopped the run before this looks.
        await nextTurn();
        if (stoppedBy || writeFailure) return finish('pending');
      }
      // The trial holds one of its pool's slots only while its call is in flight, and its request
      // is built before it waits for one: a freed slot goes at once to a request that is ready.
      // The slot is freed once the call's record is queued for the store, so the next call's
      // reservation (which reads the store) counts this call's real cost under a cap.
      await slots.acquire();
      let called: CallOutcome;
      let handedOn = false;
      try {
        // The run may have stopped while this trial waited.
        if (stoppedBy || writeFailure) return finish('pending');
        called = await callModel({ trial, step: index, alias: decision.model, spec, endpoint, model, request, hash });
      } finally {
        handedOn = slots.queued() > 0;
        slots.release();
      }
      // An answer over the network: the request that took the slot goes out before this answer
      // is scored and stored, so the server is not left waiting on that work. Two turns: undici
      // writes a request on a reused keep-alive socket only in the check phase after it was
      // dispatched (its idle-socket check), behind this trial's own turn queued a moment before;
      // after one turn this answer's work ran first and the request waited for it. Two turns,
      // alternating against one: scenario turns at 64 ~1,181 -> ~1,197/s (medians of 12),
      // HTTP at 256 4,045-4,077 -> 4,217-4,221 req/s.
      if (handedOn && endpoint !== undefined) {
        await nextTurn();
        await nextTurn();
      }
      if (called.type === 'stopped') {
        stop(called.reason);
        return finish('pending');
      }
      keep(writes, called.stored);
      costUsd += called.record.costUsd;
      // A provider that billed past what was reserved may have taken the spend over the cap: start nothing more.
      if (o.costCapUsd !== undefined && budget.spentUsd > o.costCapUsd) stop('cost-cap');
      if (called.type === 'error') {
        keep(writes, saveOutcome(trial, 'failed', failure(step, input, called.record, index)));
        return finish('failed');
      }
      results.push(called.result);
    }
  }

  function saveOutcome(trial: Trial, status: 'done' | 'failed', outcome: Omit<StepOutcome, 'type'>): Promise<void> {
    // Set one by one, not spread: a spread builds a throwaway object per optional part, per trial.
    const result: TrialResult = { runId: o.runId, trialId: trial.id, status };
    if (outcome.scores) result.scores = outcome.scores;
    if (outcome.judgments) result.judgments = outcome.judgments;
    if (outcome.artifacts) result.artifacts = outcome.artifacts;
    return o.store.saveTrialResult(result, fence);
  }

  function failure(step: StepKind, input: StepInput, record: CallRecord, index: number): Omit<StepOutcome, 'type'> {
    return step.failed?.(input, { message: record.error?.message ?? 'call failed', step: index, model: record.model ?? input.trial.modelAlias }) ?? {};
  }

  const turns = loopTurns();
  // Which wave each trial runs in (judges second), and its pool: the trial is made for this and let go again.
  const judging = new Uint8Array(source.size);
  const poolNames: string[] = [];
  const poolSizes = new Map<string, number>();
  const poolOf = new Uint16Array(source.size);
  for (const k of mine) {
    const trial = source.at(k);
    if (o.stepOf(trial).judgesTarget) judging[k] = 1;
    const p = o.poolOf(trial);
    if (!poolSizes.has(p.name)) {
      poolSizes.set(p.name, p.size);
      poolNames.push(p.name);
    }
    poolOf[k] = poolNames.indexOf(p.name);
  }
  const judges = mine.filter(k => judging[k] === 1);
  const waves = [judges.length ? mine.filter(k => judging[k] === 0) : mine, judges];
  // Which trials are done, for the judges' wave: a run without judges keeps no id of its trials.
  const judged = judges.length > 0;
  const done = new Set<string>();
  if (judged) for (let k = 0; k < source.size; k++) if (statuses.get(source.idAt(k)) === 'done') done.add(source.idAt(k));
  try {
    for (const [wave, trials] of waves.entries()) {
      // Judges run only over targets that are done (a failed dialogue is not judged).
      const ready = wave === 0 ? trials : trials.filter(k => { const target = source.at(k).target; return target !== undefined && done.has(target); });
      count.blocked += trials.length - ready.length;
      if (halted() || ready.length === 0) continue;
      await runPools(ready);
    }
  } finally {
    listeners.forEach(off => off());
    // Whatever ended the session, its claims go (a resume in this process must not find them
    // held), though on a full disk even that may fail: they then expire.
    await claims?.release().catch(() => undefined);
  }
  if (writeFailure) throw writeFailure.error;

  async function runPools(trials: Uint32Array): Promise<void> {
    const pools = poolNames.map((name, p) => ({ size: poolSizes.get(name)!, queue: poolNames.length === 1 ? trials : trials.filter(k => poolOf[k] === p) }));
    await Promise.all(pools.filter(p => p.queue.length > 0).map(async ({ size, queue }) => {
      let next = 0;
      // At most `size` calls in flight; with remote models twice as many trials under way, so that
      // each answer's slot finds a trial waiting with its request built.
      const slots = createSemaphore(Math.max(1, size));
      const chunks = trialChunks({ store: o.store, runId: o.runId, source, queue, histories: hasCalls, inputs: o.inputs });
      // A worker goes on to its next trials while earlier ones' rows commit, so one commit carries
      // many trials; a trial counts as finished only once its rows are stored.
      const worker = async () => {
        const behind = writesBehind(WRITES_BEHIND);
        // After a stop, trials still finish if they need no new call (a judge with nothing to judge);
        // a worker that lost its claim writes nothing more.
        while (!halted() && next < queue.length) {
          const turn = turns.due();
          if (turn) await turn;
          if (halted() || next >= queue.length) break;
          const k = next++;
          const { trial, history } = await chunks.take(k);
          const r = await runTrial(trial, history, slots);
          chunks.finished(k);
          behind.add(r.committed.then(() => {
            if (r.outcome === 'pending') return;
            if (r.outcome === 'needs-call') { count.needsCall++; return; }
            count[r.outcome]++;
            if (r.outcome === 'done' && judged) done.add(trial.id);
            if (!o.onEvent) return;
            const event: Extract<RunEvent, { type: 'trial' }> = { type: 'trial', trial, status: r.outcome, costUsd: r.costUsd, spentUsd: budget.spentUsd };
            if (r.scores) event.scores = r.scores;
            o.onEvent(event);
          }, (error: unknown) => {
            if (error instanceof ClaimLostError) stop('claim-lost');
            else if (!writeFailure) {
              writeFailure = { error };
              budget.cancel();
            }
          }));
          const room = behind.room();
          if (room) await room;
        }
        await behind.drained();
      };
      const workers = Math.min(Math.max(1, size) * (remote ? WORKERS_PER_REMOTE_SLOT : 1), queue.length);
      await Promise.all(Array.from({ length: Math.max(1, workers) }, worker));
    }));
  }

  const summary: RunSummary = {
    total: source.size, done: count.done, failed: count.failed, needsCall: count.needsCall, blocked: count.blocked,
    pending: source.size - count.done - count.failed - count.blocked - count.needsCall, spentUsd: budget.spentUsd, overshootUsd: budget.overshootUsd,
  };
  if (stoppedBy) summary.stoppedBy = stoppedBy;
  if (stoppedBy === 'cost-cap' && budget.refusedUsd > 0) summary.refusedUsd = budget.refusedUsd;
  if (stoppedBy === 'unreachable' && unreachable) summary.unreachable = unreachable;
  return summary;
}
