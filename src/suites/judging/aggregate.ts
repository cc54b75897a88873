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

/** The counts of a judging summary as the CLI says them after a run and a rescore. */
export function judgingCounts(s: JudgingSummary): string {
  const c = s.counts;
  return `${c.judged} judged (${s.passed} passed), ${c['not-applicable']} not applicable, ${c['no-explanation']} without explanation, ${c.unscored} unscored, ${c.pending} pending`;
}

/** Trials under test scored at a time: what is held of the run's judge trials, judgments and scores at once. */
const PAGE = 5000;

/**
 * One `explanation-dual-judge` score per finished tutor_accuracy trial, from the stored
 * Judgments of its two judges (re-derived by rescore from the stored judge calls). It calls
 * nothing: a judgment not made yet leaves the score pending. The run's trials under test are read
 * a page at a time in plan order, each page with its judge trials, statuses and judgments, and its
 * scores are stored before the next page is read.
 */
export async function scoreExplanations(store: Store, runId: string, config: JudgingConfig, pageSize = PAGE): Promise<JudgingSummary> {
  const ref = explanationScorerRef(config);
  const summary: JudgingSummary = { trials: 0, passed: 0, counts: { judged: 0, 'not-applicable': 0, 'no-explanation': 0, unscored: 0, pending: 0 } };
  for (let offset = 0; ; offset += pageSize) {
    const { trials: page } = await store.listTopTrials(runId, { offset, limit: pageSize });
    const tested = page.filter(t => t.test === JUDGED_TEST);
    if (tested.length) await saveScores(tested);
    if (page.length < pageSize) return summary;
  }

  async function saveScores(tested: Trial[]): Promise<void> {
    const ids = tested.map(t => t.id);
    const [statuses, stored, judgments] = await Promise.all([
      store.listTrialStatuses(runId, { trialIds: ids }), store.listJudgeTrials(runId, ids), store.listJudgments(runId, { targetTrialIds: ids }),
    ]);
    const byJudgeTrial = new Map<string, Judgment>();
    for (const j of judgments) if (j.promptVariant === config.rubric) byJudgeTrial.set(j.trialId, j);
    // Only the judge trials of this judging set-up (another set-up's judgments stay stored, unread).
    const current = new Set(planJudgeTrials(tested, config).map(t => t.id));
    const judgeTrials = new Map<string, Trial[]>();
    for (const t of stored) if (t.kind === EXPLANATION_JUDGE_STEP && t.target && current.has(t.id)) (judgeTrials.get(t.target) ?? judgeTrials.set(t.target, []).get(t.target)!).push(t);
    const scores: Score[] = [];
    for (const trial of tested) {
      if (statuses.get(trial.id) !== 'done') continue;
      summary.trials++;
      const modelFamily = familyOf({ alias: trial.modelAlias, spec: trial.modelSpec }, config.familyOverrides);
      const own = (judgeTrials.get(trial.id) ?? []).map(t => byJudgeTrial.get(t.id)).filter((j): j is Judgment => j !== undefined);
      const early = own.find(j => j.fields.status === 'no-explanation') ?? own.find(j => j.fields.status === 'not-applicable');
      const score = early
        ? nullScore(trial, ref, early.fields.status as 'no-explanation' | 'not-applicable', early.reason ?? String(early.fields.status), { modelFamily })
        : dualJudgeScore(trial, ref, modelFamily, config.judges.map(j => [j, outcomeOf(j, own.find(x => x.rater.alias === j.alias))] as [JudgeSetup, JudgeOutcome]));
      summary.counts[(score.details?.status ?? 'unscored') as ExplanationStatus]++;
      if (score.value === 1) summary.passed++;
      scores.push(score);
    }
    await store.saveScores(scores);
  }
}

function outcomeOf(judge: JudgeSetup, j: Judgment | undefined): JudgeOutcome {
  if (!j) return { kind: 'pending' };
  if (j.value !== null) return { kind: 'verdict', pass: j.value === 1, reason: j.reason ?? '' };
  if (j.fields.status === 'error') return { kind: 'error', message: j.reason ?? `judge ${judge.alias} failed` };
  return { kind: 'unparseable', problem: j.reason ?? 'unreadable answer' };
}
