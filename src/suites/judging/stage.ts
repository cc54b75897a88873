import {
  ProviderCallError, type CallRecord, type ChatModel, type ChatResult, type Item, type PriceTable, type Score,
  type Store, type TestDefinition, type Trial,
} from '../../core/index.js';
import { createLimiter } from '../../engine/limiter.js';
import { trialStates } from '../../engine/trial-state.js';
import { costOf, estimateCost, priceFor } from '../../providers/pricing.js';
import { parseTutorAnswer, type ParsedTutorAnswer } from '../../scoring/tutor-edit/index.js';
import type { JudgeSetup, JudgingConfig } from './config.js';
import { familyOf } from '../../providers/family.js';
import { addJudgeCall, indexJudgeCalls, judgeTrialId, resolveJudgment, type JudgeCallIndex, type JudgeOutcome } from './resolve.js';
import { JUDGED_TEST, dualJudgeScore, explanationScorerRef, nullScore, type ExplanationStatus } from './score.js';

export interface JudgeExplanationsOptions {
  store: Store;
  runId: string;
  config: JudgingConfig;
  tests: ReadonlyMap<string, TestDefinition>;
  /**
   * Judge models by alias, already wrapped with `config.maxAttempts` retries. Without them nothing
   * is called: scores are recomputed from the stored judge calls (what `paideia rescore` does).
   */
  models?: ReadonlyMap<string, ChatModel>;
  /** Prices for judge calls (the run's stored table). */
  prices?: PriceTable;
  /** Hard cap on the run's whole spend (model and judge calls), as `--cost-cap`. */
  costCapUsd?: number;
  /** Concurrent judge calls per provider. Default 4. */
  concurrency?: number;
  /** Answer from earlier identical judge requests (default true). */
  useCache?: boolean;
  /** Ask again judgments whose call failed (default false: a re-run leaves them unscored). */
  retryErrors?: boolean;
  signal?: AbortSignal;
}

export interface JudgingSummary {
  /** Finished tutor_accuracy trials. */
  trials: number;
  counts: Record<ExplanationStatus, number>;
  passed: number;
  /** Judge calls made in this session (cache hits included). */
  calls: number;
  spentUsd: number;
  stoppedBy?: 'cost-cap' | 'interrupt';
}

interface Target {
  trial: Trial;
  item: Item;
  answer: ParsedTutorAnswer;
  modelFamily: string;
}

/**
 * The judging stage, run after the tutor_accuracy trials: each finished trial whose answer parsed
 * and holds an explanation is judged by both judges (unless its model shares a judge's family),
 * every judge call is stored as it returns, and one `explanation-dual-judge` score per trial is
 * saved. Judgments already stored are read, never asked again.
 */
export async function judgeExplanations(o: JudgeExplanationsOptions): Promise<JudgingSummary> {
  const [trials, versioned, calls] = await Promise.all([o.store.listTrials(o.runId), o.store.listRunItems(o.runId), o.store.listCalls(o.runId)]);
  const items = new Map(versioned.map(v => [v.hash, v.item]));
  const states = trialStates(trials, calls, items, o.tests);
  const index = indexJudgeCalls(calls);
  const ref = explanationScorerRef(o.config);
  const summary: JudgingSummary = {
    trials: 0, passed: 0, calls: 0, spentUsd: 0,
    counts: { judged: 0, 'not-applicable': 0, 'no-explanation': 0, unscored: 0, pending: 0 },
  };
  const early: Score[] = [];
  const targets: Target[] = [];
  for (const trial of trials) {
    if (trial.test !== JUDGED_TEST || states.get(trial.id)?.status !== 'done') continue;
    summary.trials++;
    const item = items.get(trial.itemHash)!;
    const read = parseTutorAnswer(states.get(trial.id)!.results.at(-1)?.text ?? '');
    const modelFamily = familyOf({ alias: trial.modelAlias, spec: trial.modelSpec }, o.config.familyOverrides);
    if (!read.ok) { early.push(nullScore(trial, ref, 'no-explanation', `no explanation to judge: ${read.reason}`, { modelFamily })); continue; }
    if (!read.answer.explanation?.trim()) { early.push(nullScore(trial, ref, 'no-explanation', 'no explanation to judge: the answer has an empty explanation', { modelFamily })); continue; }
    const same = o.config.judges.filter(j => j.family === modelFamily);
    if (same.length) {
      early.push(nullScore(trial, ref, 'not-applicable', `not applicable: the model is of the family "${modelFamily}", as judge ${same.map(j => j.alias).join(' and ')}`, { modelFamily }));
      continue;
    }
    targets.push({ trial, item, answer: read.answer, modelFamily });
  }

  if (o.models) await callJudges(o, targets, index, calls, summary);

  const scores = [...early];
  for (const t of targets) {
    const outcomes = o.config.judges.map(j => [j, resolveJudgment({ ...t, judge: j, config: o.config, index })] as [JudgeSetup, JudgeOutcome]);
    scores.push(dualJudgeScore(t.trial, ref, t.modelFamily, outcomes));
  }
  for (const s of scores) {
    const status = (s.details?.status ?? 'unscored') as ExplanationStatus;
    summary.counts[status]++;
    if (s.value === 1) summary.passed++;
  }
  await o.store.saveScores(scores);
  return summary;
}

/** Make every missing judge call, storing each the moment it returns. */
async function callJudges(o: JudgeExplanationsOptions, targets: Target[], index: JudgeCallIndex, calls: CallRecord[], summary: JudgingSummary): Promise<void> {
  let spent = calls.reduce((a, c) => a + c.costUsd, 0);
  let inFlight = 0;
  const stop = (why: 'cost-cap' | 'interrupt') => { summary.stoppedBy ??= why; };
  if (o.signal?.aborted) stop('interrupt');
  const shared = new Map<string, Promise<ChatResult | undefined>>();
  // One pool per provider, as the engine's: two judges behind one endpoint share its limit.
  const providerOf = (spec: string) => spec.slice(0, spec.indexOf(':'));
  const limiters = new Map(o.config.judges.map(j => [providerOf(j.spec), createLimiter(Math.max(1, o.concurrency ?? 4))]));
  const jobs = targets.flatMap(t => o.config.judges.map(judge => limiters.get(providerOf(judge.spec))!(async () => {
    const model = o.models!.get(judge.alias);
    if (!model) throw new Error(`no model built for judge "${judge.alias}"`);
    const price = o.prices ? priceFor(o.prices, judge.spec) : undefined;
    // Steps called in this session: a failed step is retried at most once per session.
    const called = new Set<number>();
    for (;;) {
      if (summary.stoppedBy || o.signal?.aborted) return stop('interrupt');
      const retryErrorsAt = o.retryErrors ? new Set([...Array(o.config.formatRetries + 1).keys()].filter(s => !called.has(s))) : undefined;
      const next = resolveJudgment({ ...t, judge, config: o.config, index, ...(retryErrorsAt ? { retryErrorsAt } : {}) });
      if (next.kind !== 'call') return;
      called.add(next.step);
      const base = { runId: o.runId, trialId: judgeTrialId(t.trial.id, judge.alias), step: next.step, requestHash: next.requestHash, request: next.request };
      // Identical requests (the same explanation in two repeats) share one call, deterministically:
      // the first registers before any await, the others wait for it and store a cached record.
      let result: ChatResult | undefined;
      let settle: ((r: ChatResult | undefined) => void) | undefined;
      if (o.useCache !== false) {
        const pending = shared.get(next.requestHash);
        if (pending) result = await pending;
        else {
          shared.set(next.requestHash, new Promise(resolve => (settle = resolve)));
          result = await o.store.findCachedResult(next.requestHash);
        }
      }
      const share = (r: ChatResult | undefined) => { settle?.(r); settle = undefined; };
      let record: CallRecord;
      if (result) {
        share(result);
        record = { ...base, status: 'ok', result, attempts: 0, latencyMs: 0, costUsd: 0, cached: true, createdAt: new Date().toISOString() };
      } else {
        const estimate = price ? estimateCost(price, next.request) : 0;
        if (o.costCapUsd !== undefined && estimate > 0 && spent + inFlight + estimate > o.costCapUsd) {
          share(undefined);
          return stop('cost-cap');
        }
        inFlight += estimate;
        const started = performance.now();
        let attempts = 1;
        try {
          result = await model.generate(next.request, {
            ...(o.signal ? { signal: o.signal } : {}),
            onRetry: ({ attempt }) => { attempts = attempt + 1; },
          });
          const costUsd = price ? (result.usage ? costOf(price, result.usage) : estimate) : 0;
          record = { ...base, status: 'ok', result, attempts, latencyMs: performance.now() - started, costUsd, cached: false, createdAt: new Date().toISOString() };
          spent += costUsd;
          summary.spentUsd += costUsd;
        } catch (error) {
          // An interrupted call is not a failed judgment: nothing is stored and a re-run asks again.
          if (o.signal?.aborted) return stop('interrupt');
          const e = error instanceof ProviderCallError ? error : undefined;
          record = {
            ...base, status: 'error', attempts, latencyMs: performance.now() - started, costUsd: 0, cached: false, createdAt: new Date().toISOString(),
            error: {
              name: (error as Error).name ?? 'Error', message: (error as Error).message ?? String(error),
              ...(e ? { kind: e.kind } : {}), ...(e?.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
            },
          };
        } finally {
          inFlight -= estimate;
          // A failed call is not shared: each judgment waiting on it makes (and records) its own.
          share(result);
        }
      }
      await o.store.saveCall(record);
      addJudgeCall(index, record);
      summary.calls++;
    }
  })));
  await Promise.all(jobs);
}
