import { contentHash, extend, type ChatMessage, type Item, type Judgment, type StepKind, type Trial } from '../../core/index.js';
import { parseTutorAnswer } from '../../scoring/tutor-edit/index.js';
import type { JudgingConfig } from './config.js';
import { familyOf } from '../../providers/family.js';
import { formatRetryMessage, parseVerdict, rubricMessages } from './rubric.js';
import { JUDGED_TEST } from './score.js';
import { asTrialSource, type TrialSource } from '../../engine/trial-source.js';

/** Step kind of an explanation judge's trial. */
export const EXPLANATION_JUDGE_STEP = 'explanation-judge';
/** Bumped whenever the same stored judge calls could give another judgment. */
const PRODUCER = { name: 'explanation-verdict', version: '1' } as const;

/**
 * One judge trial per tutor_accuracy trial and judge, planned with the run: it runs once its
 * target is done.
 */
export function planJudgeTrials(tested: TrialSource | ReadonlyArray<Trial>, config: JudgingConfig): Trial[] {
  const trials = asTrialSource(tested);
  const out: Trial[] = [];
  let index = trials.size;
  for (let k = 0; k < trials.size; k++) {
    const t = trials.at(k);
    if (t.test !== JUDGED_TEST || t.target !== undefined) continue;
    // The tested model's family is part of the judgment: an override of the family table makes
    // an explanation that was "not applicable" a new judgment.
    const family = familyOf({ alias: t.modelAlias, spec: t.modelSpec }, config.familyOverrides);
    for (const judge of config.judges) {
      // Kept for the whole run: extend, not a spread, keeps them on one hidden class (core/object.ts).
      out.push(extend(t, {
        id: contentHash({ target: t.id, judge: judge.spec, alias: judge.alias, rubric: config.rubric, family }), index: index++,
        modelAlias: judge.alias, modelSpec: judge.spec, kind: EXPLANATION_JUDGE_STEP, variant: config.rubric, target: t.id,
      }));
    }
  }
  return out;
}

/**
 * An explanation judge as a step: it reads the tutor's stored answer (the target), asks the judge
 * with the rubric, and asks again with what was wrong while the answer does not fit
 * `{pass, reason}` (up to `formatRetries` times). Its Judgment is 1 (pass), 0 (fail) or unscored.
 */
export function explanationJudgeStep(o: { items: { get(hash: string): Item | undefined }; config: JudgingConfig }): StepKind {
  const judgmentOf = (trial: Trial, value: number | null, reason: string, fields: Record<string, string | boolean>, raw?: string): Judgment => ({
    specVersion: 'paideia.judgment.v1', runId: trial.runId, trialId: trial.id, targetTrialId: trial.target!,
    rater: { alias: trial.modelAlias, spec: trial.modelSpec }, promptVariant: o.config.rubric, repeat: 0, fields, value, reason,
    callSeq: null, producer: extend(PRODUCER, { args: { formatRetries: o.config.formatRetries } }), ...(raw !== undefined ? { raw } : {}),
  });
  return {
    specVersion: 'paideia.step.v1',
    name: EXPLANATION_JUDGE_STEP,
    version: PRODUCER.version,
    judgesTarget: true,
    failed({ trial }, error) {
      return { judgments: [judgmentOf(trial, null, `judge call failed after every attempt: ${error.message}`, { status: 'error' })] };
    },
    next({ trial, results, target }) {
      const item = o.items.get(trial.itemHash)!;
      const judgment = (value: number | null, reason: string, fields: Record<string, string | boolean>, raw?: string) => judgmentOf(trial, value, reason, fields, raw);
      const read = parseTutorAnswer(target?.results.at(-1)?.text ?? '');
      if (!read.ok) return { type: 'done', judgments: [judgment(null, `no explanation to judge: ${read.reason}`, { status: 'no-explanation' })] };
      if (!read.answer.explanation?.trim()) return { type: 'done', judgments: [judgment(null, 'no explanation to judge: the answer has an empty explanation', { status: 'no-explanation' })] };
      // A judge of the tested model's own family is never asked (self-preference): "not applicable".
      const family = familyOf({ alias: target!.trial.modelAlias, spec: target!.trial.modelSpec }, o.config.familyOverrides);
      const same = o.config.judges.filter(j => j.family === family);
      if (same.length) {
        return { type: 'done', judgments: [judgment(null, `not applicable: the model is of the family "${family}", as judge ${same.map(j => j.alias).join(' and ')}`, { status: 'not-applicable' })] };
      }
      let messages: ChatMessage[] = rubricMessages(item, read.answer);
      for (const [step, result] of results.entries()) {
        const verdict = parseVerdict(result.text);
        if (verdict.ok) return { type: 'done', judgments: [judgment(verdict.verdict.pass ? 1 : 0, verdict.verdict.reason, { status: 'judged', pass: verdict.verdict.pass }, result.text)] };
        if (step === o.config.formatRetries) {
          return { type: 'done', judgments: [judgment(null, `no answer fitted {pass, reason} after ${step + 1} tries: ${verdict.problem}`, { status: 'unparseable' }, result.text)] };
        }
        messages = [...messages, { role: 'assistant', content: result.text }, formatRetryMessage(verdict.problem)];
      }
      return {
        type: 'call', model: trial.modelAlias,
        request: {
          messages, params: o.config.params,
          context: { trialId: trial.target!, itemId: trial.itemId, repeat: trial.repeat, turn: results.length, role: `judge:${trial.modelAlias}` },
        },
      };
    },
  };
}
