import type { Judgment, Score, Store, Trial } from '../../core/index.js';
import type { JudgeSetup, JudgingConfig } from './config.js';
import { familyOf } from '../../providers/family.js';
import { EXPLANATION_JUDGE_STEP, planJudgeTrials } from './judge-step.js';
import { JUDGED_TEST, dualJudgeScore, explanationScorerRef, nullScore, type ExplanationStatus, type JudgeOutcome } from './score.js';

export interface JudgingSummary {
  /** Finished tutor_accuracy trials. */
  trials: number;
  counts: Record<ExplanationStatus, number>;
  passed: number;
}

/**
 * One `explanation-dual-judge` score per finished tutor_accuracy trial, from the stored
 * Judgments of its two judges (re-derived by rescore from the stored judge calls). It calls
 * nothing: a judgment not made yet leaves the score pending.
 */
export async function scoreExplanations(store: Store, runId: string, config: JudgingConfig): Promise<JudgingSummary> {
  const [trials, statuses, judgments] = await Promise.all([store.listTrials(runId), store.listTrialStatuses(runId), store.listJudgments(runId)]);
  const byJudgeTrial = new Map<string, Judgment>();
  for (const j of judgments) if (j.promptVariant === config.rubric) byJudgeTrial.set(j.trialId, j);
  const judgeTrials = new Map<string, Trial[]>();
  // Only the judge trials of this judging set-up (another set-up's judgments stay stored, unread).
  const current = new Set(planJudgeTrials(trials.filter(t => t.target === undefined), config).map(t => t.id));
  for (const t of trials) if (t.kind === EXPLANATION_JUDGE_STEP && t.target && current.has(t.id)) (judgeTrials.get(t.target) ?? judgeTrials.set(t.target, []).get(t.target)!).push(t);
  const ref = explanationScorerRef(config);
  const summary: JudgingSummary = { trials: 0, passed: 0, counts: { judged: 0, 'not-applicable': 0, 'no-explanation': 0, unscored: 0, pending: 0 } };
  const scores: Score[] = [];
  for (const trial of trials) {
    if (trial.test !== JUDGED_TEST || trial.target !== undefined || statuses.get(trial.id) !== 'done') continue;
    summary.trials++;
    const modelFamily = familyOf({ alias: trial.modelAlias, spec: trial.modelSpec }, config.familyOverrides);
    const own = (judgeTrials.get(trial.id) ?? []).map(t => byJudgeTrial.get(t.id)).filter((j): j is Judgment => j !== undefined);
    const early = own.find(j => j.fields.status === 'no-explanation') ?? own.find(j => j.fields.status === 'not-applicable');
    if (early) {
      scores.push(nullScore(trial, ref, early.fields.status as 'no-explanation' | 'not-applicable', early.reason ?? String(early.fields.status), { modelFamily }));
    } else {
      scores.push(dualJudgeScore(trial, ref, modelFamily, config.judges.map(j => [j, outcomeOf(j, own.find(x => x.rater.alias === j.alias))] as [JudgeSetup, JudgeOutcome])));
    }
  }
  for (const s of scores) {
    summary.counts[(s.details?.status ?? 'unscored') as ExplanationStatus]++;
    if (s.value === 1) summary.passed++;
  }
  await store.saveScores(scores);
  return summary;
}

function outcomeOf(judge: JudgeSetup, j: Judgment | undefined): JudgeOutcome {
  if (!j) return { kind: 'pending' };
  if (j.value !== null) return { kind: 'verdict', pass: j.value === 1, reason: j.reason ?? '' };
  if (j.fields.status === 'error') return { kind: 'error', message: j.reason ?? `judge ${judge.alias} failed` };
  return { kind: 'unparseable', problem: j.reason ?? 'unreadable answer' };
}
