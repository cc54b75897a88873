import type { JsonObject, Score, ScorerRef, Trial } from '../../core/index.js';
import type { JudgeSetup, JudgingConfig } from './config.js';

/** Name of the stored explanation score, kept apart from the headline `tutor-edit` score. */
export const EXPLANATION_SCORER = 'explanation-dual-judge';
/** Bumped whenever the same stored judgments could give a different explanation score. */
export const EXPLANATION_SCORER_VERSION = '1';
/** The test whose explanations are judged. */
export const JUDGED_TEST = 'tutor_accuracy';

/**
 * Why an explanation has the score it has. Only `judged` carries a value (1 when both judges pass
 * it, else 0); every other status is null: never counted as wrong.
 */
export type ExplanationStatus = 'judged' | 'not-applicable' | 'no-explanation' | 'unscored' | 'pending';

/** What the stored Judgment of one judge says about one explanation. */
export type JudgeOutcome =
  | { kind: 'verdict'; pass: boolean; reason: string }
  /** The judge trial failed after every attempt (a provider error): the explanation stays unscored. */
  | { kind: 'error'; message: string }
  /** No answer fitted `{pass, reason}` after every format retry: unscored. */
  | { kind: 'unparseable'; problem: string }
  /** Not judged yet. */
  | { kind: 'pending' };

/** One judge's part of an explanation score, as stored in its details (a type, not an interface: it is JSON as it stands). */
export type StoredJudgment = {
  judge: string;
  family: string;
  verdict: 'pass' | 'fail' | 'error' | 'unparseable' | 'pending';
  reason: string;
};

export function explanationScorerRef(config: JudgingConfig): ScorerRef {
  return {
    name: EXPLANATION_SCORER, version: EXPLANATION_SCORER_VERSION,
    args: {
      judges: config.judges.map(j => ({ alias: j.alias, spec: j.spec, family: j.family })),
      familyOverrides: config.familyOverrides, rubric: config.rubric,
      formatRetries: config.formatRetries, maxAttempts: config.maxAttempts,
    },
  };
}

function judgment(judge: JudgeSetup, o: JudgeOutcome): StoredJudgment {
  const part = (verdict: StoredJudgment['verdict'], reason: string): StoredJudgment => ({ judge: judge.alias, family: judge.family, verdict, reason });
  switch (o.kind) {
    case 'verdict': return part(o.pass ? 'pass' : 'fail', o.reason);
    case 'error': return part('error', o.message);
    case 'unparseable': return part('unparseable', o.problem);
    case 'pending': return part('pending', 'not judged yet');
  }
}

/** An explanation score, written out whole (one literal: see core/object.ts for why not a spread). */
function score(trial: Trial, ref: ScorerRef, value: number | null, reason: string | undefined, details: JsonObject): Score {
  return reason === undefined
    ? { runId: trial.runId, trialId: trial.id, scorer: ref, value, details }
    : { runId: trial.runId, trialId: trial.id, scorer: ref, value, reason, details };
}

/** A score that is null, with its status and reason. */
export function nullScore(trial: Trial, ref: ScorerRef, status: Exclude<ExplanationStatus, 'judged'>, reason: string, extra: JsonObject = {}): Score {
  return score(trial, ref, null, reason, { status, ...extra });
}

/**
 * The explanation score from both judges' outcomes: 1 when both pass it, 0 when either fails it,
 * null (unscored) when either judge failed or never gave a readable verdict, null (pending) when
 * a judgment is still to be made.
 */
export function dualJudgeScore(trial: Trial, ref: ScorerRef, modelFamily: string, judges: Array<[JudgeSetup, JudgeOutcome]>): Score {
  const parts = judges.map(([j, o]) => judgment(j, o));
  const details: JsonObject = { modelFamily, judgments: parts };
  const pending = parts.filter(p => p.verdict === 'pending');
  if (pending.length) return score(trial, ref, null, `pending: judge ${pending.map(p => p.judge).join(' and ')} not asked yet`, { status: 'pending', ...details });
  const broken = parts.filter(p => p.verdict === 'error' || p.verdict === 'unparseable');
  if (broken.length) return score(trial, ref, null, `unscored: ${broken.map(p => `${p.judge}: ${p.reason}`).join('; ')}`, { status: 'unscored', ...details });
  const failed = parts.filter(p => p.verdict === 'fail');
  if (failed.length === 0) return score(trial, ref, 1, undefined, { status: 'judged', ...details });
  return score(trial, ref, 0, failed.map(p => `${p.judge} fails it: ${p.reason}`).join('; '), { status: 'judged', ...details });
}
