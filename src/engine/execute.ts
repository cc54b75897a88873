import {
  ProviderCallError, contentHash, type CallRecord, type ChatModel, type ChatRequest, type ChatResult, type Item,
  type Scorer, type Store, type TestDefinition, type TokenUsage, type Trial,
} from '../core/index.js';
import { createBudget } from './budget.js';
import { scoreTrial } from './score.js';
import { trialStates, type TrialState } from './trial-state.js';

/** How the engine prices calls; the CLI builds it from the run's stored price table. */
export interface CostModel {
  /** Actual cost of a finished call that reported its token usage. */
  costOf(modelAlias: string, usage: TokenUsage): number;
  /** Upper estimate of a call before it is made, for the cost cap. */
  estimate(modelAlias: string, request: ChatRequest): number;
}

export type RunEvent =
  | { type: 'start'; total: number; done: number; failed: number; pending: number; spentUsd: number }
  | { type: 'trial'; trial: Trial; status: 'done' | 'failed'; costUsd: number; spentUsd: number }
  | { type: 'retry'; trial: Trial; attempt: number; delayMs: number; error: string }
  | { type: 'stop'; reason: 'cost-cap' | 'interrupt' };

export interface ExecuteOptions {
  store: Store;
  runId: string;
  trials: Trial[];
  /** Items by version hash. */
  items: ReadonlyMap<string, Item>;
  tests: ReadonlyMap<string, TestDefinition>;
  /** Models by alias, already wrapped with retry and rate-limit middleware. */
  models: ReadonlyMap<string, ChatModel>;
  /** Scorers of each test, by test name. */
  scorers: ReadonlyMap<string, Scorer[]>;
  cost: CostModel;
  /** Hard cap on the run's total spend in USD, resumed sessions included. */
  costCapUsd?: number;
  /** Concurrent calls per provider name (`openai`, `baseline`, ...). */
  concurrency: (provider: string) => number;
  /** Answer from earlier identical requests (default true). */
  useCache?: boolean;
  /** Run failed trials again (default false: a resume skips them). */
  retryErrors?: boolean;
  /** Aborts calls in flight (they stay pending, for --resume). */
  signal?: AbortSignal;
  /** Starts no new call, but lets calls in flight finish and be stored (a first Ctrl-C). */
  stopSignal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

/** Trials a worker may run ahead of their stored rows. */
const WRITES_BEHIND = 64;

export interface RunSummary {
  total: number;
  done: number;
  failed: number;
  pending: number;
  spentUsd: number;
  stoppedBy?: 'cost-cap' | 'interrupt';
}

/**
 * Run the pending trials of a run. Each call is stored the moment it returns; each trial is scored
 * as soon as its last step is stored. Trials run by a pool of workers per provider, in plan order.
 */
export async function executeRun(o: ExecuteOptions): Promise<RunSummary> {
  const calls = await o.store.listCalls(o.runId);
  const states = trialStates(o.trials, calls, o.items, o.tests);
  const budget = createBudget(o.costCapUsd, calls.reduce((sum, c) => sum + c.costUsd, 0));
  let stoppedBy: RunSummary['stoppedBy'];
  const count = { done: 0, failed: 0 };
  const queues = new Map<string, Trial[]>();
  for (const t of o.trials) {
    const s = states.get(t.id)!;
    if (s.status === 'done') count.done++;
    else if (s.status === 'failed' && !o.retryErrors) count.failed++;
    else {
      const provider = t.modelSpec.slice(0, t.modelSpec.indexOf(':'));
      (queues.get(provider) ?? queues.set(provider, []).get(provider)!).push(t);
    }
  }
  const pendingAtStart = o.trials.length - count.done - count.failed;
  o.onEvent?.({ type: 'start', total: o.trials.length, ...count, pending: pendingAtStart, spentUsd: budget.spentUsd });
  const memo = new Map<string, ChatResult>();
  const stop = (reason: 'cost-cap' | 'interrupt') => {
    if (stoppedBy) return;
    stoppedBy = reason;
    budget.cancel();
    o.onEvent?.({ type: 'stop', reason });
  };
  for (const signal of [o.signal, o.stopSignal]) {
    signal?.addEventListener('abort', () => stop('interrupt'), { once: true });
    if (signal?.aborted) stop('interrupt');
  }

  async function runTrial(trial: Trial, state: TrialState): Promise<{ outcome: 'done' | 'failed' | 'pending'; costUsd: number; committed: Promise<unknown> }> {
    const item = o.items.get(trial.itemHash)!;
    const test = o.tests.get(trial.test)!;
    const model = o.models.get(trial.modelAlias)!;
    // A retried failed trial restarts at its failed step; finished steps are kept.
    const results = [...state.results];
    const writes: Array<Promise<void>> = [];
    let trialCost = 0;
    for (let step = results.length; ; step++) {
      const rendered = test.render(item, results);
      if (!rendered) break;
      if (stoppedBy) return { outcome: 'pending', costUsd: trialCost, committed: Promise.all(writes) };
      const request: ChatRequest = {
        ...rendered,
        params: { ...rendered.params, seed: trial.seed },
        context: { ...rendered.context, trialId: trial.id, itemId: trial.itemId, repeat: trial.repeat, turn: step },
      };
      const requestHash = contentHash({
        model: trial.modelSpec, endpoint: model.endpoint, messages: request.messages, params: request.params, tools: request.tools,
        toolChoice: request.toolChoice, hints: request.hints,
      });
      let result = o.useCache === false ? undefined : memo.get(requestHash) ?? (await o.store.findCachedResult(requestHash));
      const cached = result !== undefined;
      let attempts = 0;
      let costUsd = 0;
      const started = performance.now();
      if (!result) {
        const estimate = o.cost.estimate(trial.modelAlias, request);
        if (!(await budget.reserve(estimate))) {
          stop('cost-cap');
          return { outcome: 'pending', costUsd: trialCost, committed: Promise.all(writes) };
        }
        attempts = 1;
        try {
          result = await model.generate(request, {
            ...(o.signal ? { signal: o.signal } : {}),
            onRetry: ({ attempt, delayMs, error }) => {
              attempts = attempt + 1;
              o.onEvent?.({ type: 'retry', trial, attempt, delayMs, error: (error as Error).message });
            },
          });
        } catch (error) {
          budget.settle(estimate, 0);
          // An interrupted call is not a failure: the trial stays pending for --resume.
          if (o.signal?.aborted) return { outcome: 'pending', costUsd: trialCost, committed: Promise.all(writes) };
          const e = error instanceof ProviderCallError ? error : undefined;
          writes.push(o.store.saveCall(record(trial, step, requestHash, request, {
            status: 'error', attempts, latencyMs: performance.now() - started, costUsd: 0, cached: false,
            error: {
              name: (error as Error).name ?? 'Error', message: (error as Error).message ?? String(error),
              ...(e ? { kind: e.kind } : {}), ...(e?.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
            },
          })));
          return { outcome: 'failed', costUsd: trialCost, committed: Promise.all(writes) };
        }
        // A response without token counts is charged its pre-call estimate, never $0.
        costUsd = result.usage ? o.cost.costOf(trial.modelAlias, result.usage) : o.cost.estimate(trial.modelAlias, request);
        budget.settle(estimate, costUsd);
        trialCost += costUsd;
      }
      memo.set(requestHash, result);
      // Queued at once; the store commits it within this turn of the event loop. The trial waits
      // for all its writes at the end, so one commit can carry many trials' rows.
      writes.push(o.store.saveCall(record(trial, step, requestHash, request, {
        status: 'ok', result, attempts, latencyMs: cached ? 0 : performance.now() - started, costUsd, cached,
      })));
      results.push(result);
    }
    writes.push(o.store.saveScores(await scoreTrial(trial, item, results, o.scorers.get(trial.test) ?? [])));
    return { outcome: 'done', costUsd: trialCost, committed: Promise.all(writes) };
  }

  await Promise.all(
    [...queues].map(async ([provider, queue]) => {
      let next = 0;
      // A worker goes on to its next trials while earlier ones' rows commit (a few at most), so one
      // commit carries many trials; a trial counts as finished only once its rows are stored.
      const worker = async () => {
        const behind: Array<Promise<unknown>> = [];
        while (!stoppedBy && next < queue.length) {
          const trial = queue[next++]!;
          const { outcome, costUsd, committed } = await runTrial(trial, states.get(trial.id)!);
          behind.push(committed.then(() => {
            if (outcome === 'pending') return;
            count[outcome]++;
            o.onEvent?.({ type: 'trial', trial, status: outcome, costUsd, spentUsd: budget.spentUsd });
          }));
          if (behind.length > WRITES_BEHIND) await behind.shift();
        }
        await Promise.all(behind);
      };
      const workers = Math.max(1, Math.min(o.concurrency(provider), queue.length));
      await Promise.all(Array.from({ length: workers }, worker));
    }),
  );
  const summary: RunSummary = {
    total: o.trials.length, done: count.done, failed: count.failed,
    pending: o.trials.length - count.done - count.failed, spentUsd: budget.spentUsd,
  };
  if (stoppedBy) summary.stoppedBy = stoppedBy;
  return summary;
}

function record(
  trial: Trial, step: number, requestHash: string, request: ChatRequest,
  rest: Pick<CallRecord, 'status' | 'attempts' | 'latencyMs' | 'costUsd' | 'cached'> & Partial<Pick<CallRecord, 'result' | 'error'>>,
): CallRecord {
  return { runId: trial.runId, trialId: trial.id, step, requestHash, request, createdAt: new Date().toISOString(), ...rest };
}
