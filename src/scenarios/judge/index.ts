import {
  contentHash, extend, type JsonObject, type Judgment, type Score, type ScorerRef, type StepKind, type Store, type Trial,
  type ChatMessage,
} from '../../core/index.js';
import { loadStoredDialogues, type StoredDialogue } from '../dialogue.js';
import { variantAlias, walkDialogue } from '../dialogue-step.js';
import type { Evaluation, Scenario } from '../types.js';
import { JSON_CLOSE, JSON_OPEN, JUDGE_TOOL_NAME, checkAnswer, extractJson, formatJsonSchema } from './format.js';
import { judgeMessages } from './prompt.js';
import { elmesMean, numericFields, numericValue } from './fields.js';
import { aggregate, valueAt, weightedScore, type Weighted } from './score.js';
import { unscoredReasons, type UnscoredReason } from './unscored.js';

/** Step kind of a scenario judge's trial: one judge, one repeat, one dialogue. */
export const SCENARIO_JUDGE_STEP = 'scenario-judge';

/** Scorer name of the panel's judgment of a dialogue. */
export function panelScorerName(evaluation: Pick<Evaluation, 'name'>): string {
  return `judge:${evaluation.name}`;
}

/**
 * Judge trials: every dialogue x judge x repeat, each judging its dialogue once it is done. Their
 * identity is the evaluation's version (what the judge sees), not its weights: a weight change
 * re-aggregates the stored judgments and asks nothing.
 */
export function planJudgeTrials(scenario: Scenario, dialogues: ReadonlyArray<Trial>): Trial[] {
  const ev = scenario.evaluation;
  if (!ev) return [];
  const variants = new Map(scenario.variants.map(v => [v.label, v]));
  const out: Trial[] = [];
  let index = dialogues.length;
  for (const d of dialogues) {
    const variant = variants.get(d.modelAlias)!;
    for (const judge of ev.judges) {
      const spec = variant.models.get(judge)!.spec.spec;
      for (let repeat = 0; repeat < ev.repeats; repeat++) {
        // Kept for the whole run: extend, not a spread, keeps them on one hidden class (core/object.ts).
        out.push(extend(d, {
          id: contentHash({ target: d.id, judge, spec, repeat, version: ev.version }), index: index++,
          modelAlias: variantAlias(scenario, variant, judge), modelSpec: spec, repeat,
          kind: SCENARIO_JUDGE_STEP, variant: ev.version, target: d.id,
        }));
      }
    }
  }
  return out;
}

/**
 * A scenario judge as a step: it reads the judged dialogue from its stored turns, asks the judge
 * with the evaluation prompt (tool or prompt mode), and asks again with what was wrong while the
 * answer does not fit `format` (up to `format_retries` times); then it is stored unscored with
 * its raw text, never a zero.
 */
export function scenarioJudgeStep(scenario: Scenario): StepKind {
  const ev = scenario.evaluation!;
  const variants = new Map(scenario.variants.map(v => [v.label, v]));
  const tasks = new Map(scenario.tasks.map(t => [t.hash, t]));
  // The engine's alias of a judge (variant-prefixed when several are swept) -> the file's alias.
  const judgeByAlias = new Map(scenario.variants.flatMap(v => ev.judges.map(j => [variantAlias(scenario, v, j), j] as const)));
  const tool = ev.formatMode === 'tool'
    ? { name: JUDGE_TOOL_NAME, description: `Submit the evaluation "${ev.name}" of the dialogue.`, parameters: formatJsonSchema(ev.format) }
    : undefined;
  return {
    specVersion: 'paideia.step.v1',
    name: SCENARIO_JUDGE_STEP,
    version: '1',
    judgesTarget: true,
    next({ trial, results, target }) {
      const dialogue = target!.trial;
      const variant = variants.get(dialogue.modelAlias)!;
      const task = tasks.get(dialogue.itemHash)!;
      const walk = walkDialogue(scenario, dialogue, task, variant, target!.results);
      const transcript = walk.type === 'end' ? walk.transcript : [];
      const judge = judgeOf(trial);
      const base = judgeMessages(ev, task.vars, transcript);
      let problems: string[] = [];
      // Each answer that did not fit, and what was wrong with it, goes back to the judge: every
      // attempt is a request of its own (asked the same, a retry would be the cache's answer).
      const retries: ChatMessage[] = [];
      for (const [attempt, result] of results.entries()) {
        const call = result.toolCalls?.find(c => c.name === JUDGE_TOOL_NAME) ?? result.toolCalls?.[0];
        const raw = call ? call.arguments : result.text;
        // A tool-mode judge that answers in text with valid JSON is taken at its word; format still decides.
        const parsed = call ? parseToolArguments(call.arguments) : extractJson(result.text);
        const checked = parsed.ok ? checkAnswer(parsed.value, ev.format) : { ok: false as const, problems: [parsed.problem] };
        if (checked.ok) {
          return { type: 'done', judgments: [judgmentOf(ev, trial, judge, checked.value, raw, { attempts: attempt + 1, dialogueStatus: walk.meta.status })] };
        }
        problems = checked.problems;
        retries.push({ role: 'assistant', content: raw }, {
          role: 'user',
          content: `Your previous answer did not fit the required format: ${problems.join('; ')}. Answer again${tool ? ` by calling ${JUDGE_TOOL_NAME}` : ` with one JSON object between ${JSON_OPEN} and ${JSON_CLOSE}`}.`,
        });
        if (attempt === ev.formatRetries) {
          return {
            type: 'done',
            judgments: [{
              ...judgmentOf(ev, trial, judge, {}, raw, { unscored: true, problems, attempts: attempt + 1, dialogueStatus: walk.meta.status }),
              value: null, reason: `the judge's answer did not fit format after ${attempt + 1} attempt(s): ${problems.join('; ')}`,
            }],
          };
        }
      }
      return {
        // Each dialogue and repeat is judged on its own, even when two transcripts read alike.
        type: 'call', model: trial.modelAlias, distinct: { target: dialogue.id, repeat: trial.repeat },
        request: {
          messages: [...base, ...retries], params: variant.models.get(judge)!.params,
          ...(tool ? { tools: [tool], toolChoice: tool.name } : {}),
          context: { trialId: dialogue.id, itemId: dialogue.itemId, repeat: trial.repeat, turn: results.length, role: 'judge' },
        },
      };
    },
  };

  function judgeOf(trial: Trial): string {
    return judgeByAlias.get(trial.modelAlias)!;
  }
}

function judgmentOf(ev: Evaluation, trial: Trial, judge: string, fields: JsonObject, raw: string, extra: JsonObject): Judgment {
  const weighed = extra.unscored === true ? { value: null, details: {} } : weighedFields(ev, fields);
  return {
    specVersion: 'paideia.judgment.v1', runId: trial.runId, trialId: trial.id, targetTrialId: trial.target!,
    rater: { alias: judge, spec: trial.modelSpec }, promptVariant: ev.version, repeat: trial.repeat, fields,
    scales: Object.fromEntries(ev.scored.filter(f => f.scale).map(f => [f.path.join('.'), f.scale!])),
    value: weighed.value, ...(weighed.value === null && extra.unscored !== true ? { reason: NO_SCORE } : {}),
    callSeq: null, producer: { name: SCENARIO_JUDGE_STEP, version: ev.version, args: { evaluation: ev.name, judge, repeat: trial.repeat } },
    raw, details: { ...extra, ...weighed.details },
  };
}

const NO_SCORE = 'no score: the format has no numeric field';

/**
 * A judgment's score: the weighted score on [0, 1] when some field has a scale; else ELMES's, the
 * mean of the numeric fields on their own values (details.score says which).
 */
function weighedFields(ev: Evaluation, fields: JsonObject): { value: number | null; details: JsonObject } {
  const values = new Map(ev.scored.map(f => [f.path.join('.'), valueAt(fields, f.path) as number | boolean]));
  const weighted = weightedScore(values, ev.scored);
  if (weighted) return { value: weighted.score, details: { normalised: weighted.normalised, dimensions: weighted.dimensions } };
  if (ev.scored.length > 0) return { value: null, details: {} };
  const numeric = numericFields(ev.format);
  const raw = new Map(numeric.flatMap(f => {
    const v = numericValue(valueAt(fields, f.path));
    return v === undefined ? [] : [[f.path.join('.'), v] as const];
  }));
  const mean = elmesMean(raw, numeric);
  return mean === undefined ? { value: null, details: {} } : { value: mean, details: { score: 'elmes-mean' } };
}

/**
 * A stored judgment with its weighted score recomputed under the current weights, or undefined
 * when nothing changed (or it is unscored).
 */
export function reweighed(ev: Evaluation, j: Judgment): Judgment | undefined {
  if (j.details?.unscored === true) return undefined;
  const { value, details } = weighedFields(ev, j.fields);
  const rest: JsonObject = { ...j.details };
  delete rest.normalised;
  delete rest.dimensions;
  delete rest.score;
  const next: Judgment = { ...j, value, details: extend(rest, details) };
  delete next.reason;
  if (value === null) next.reason = NO_SCORE;
  const same = j.value === next.value && j.reason === next.reason && JSON.stringify(j.details) === JSON.stringify(next.details);
  return same ? undefined : next;
}

function parseToolArguments(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `the function arguments are not valid JSON (${(error as Error).message})` };
  }
}

export interface JudgeSummary {
  /** Judgments stored for the current evaluation. */
  judgments: number;
  /** Judgments whose answer never fit `format` (stored unscored with the raw text). */
  unscored: number;
  /** Why they are unscored, most frequent first. */
  unscoredReasons: UnscoredReason[];
  /** Dialogues with a panel score (a value: at least one of their judgments fit the format). */
  aggregated: number;
}

/**
 * The panel's score of every judged dialogue, from the stored judgments (reweighed under the
 * current weights first). Calls nothing: `paideia rescore` and a re-run recompute it the same.
 */
export async function aggregatePanels(store: Store, runId: string, scenario: Scenario): Promise<JudgeSummary> {
  const ev = scenario.evaluation;
  const summary: JudgeSummary = { judgments: 0, unscored: 0, unscoredReasons: [], aggregated: 0 };
  if (!ev) return summary;
  const current = (await store.listJudgments(runId)).filter(j => j.promptVariant === ev.version && j.producer.name === SCENARIO_JUDGE_STEP);
  const changed: Judgment[] = [];
  const byTarget = new Map<string, Judgment[]>();
  for (const j of current) {
    const fresh = reweighed(ev, j);
    if (fresh) changed.push(fresh);
    const own = fresh ?? j;
    (byTarget.get(own.targetTrialId) ?? byTarget.set(own.targetTrialId, []).get(own.targetTrialId)!).push(own);
    summary.judgments++;
    if (own.details?.unscored === true) summary.unscored++;
  }
  if (changed.length) await store.saveJudgments(changed);
  summary.unscoredReasons = unscoredReasons(current);
  const dialogues = await loadStoredDialogues(store, runId);
  const panel: Score[] = [];
  for (const [trialId, own] of byTarget) {
    const d = dialogues.get(trialId);
    if (d) panel.push(panelScore(ev, d, own));
  }
  await store.saveScores(panel);
  // A panel none of whose judgments fit the format has no score: it is not counted as one.
  summary.aggregated = panel.filter(s => s.value !== null).length;
  return summary;
}

/**
 * The panel's score of one dialogue: per scored field, each judge's repeats combined, then the
 * judges combined, both with the evaluation's aggregation; the weighted score of the result.
 * Unscored judgments are left out and counted.
 */
export function panelScore(ev: Evaluation, d: StoredDialogue, judgments: ReadonlyArray<Judgment>): Score {
  const scorer: ScorerRef = { name: panelScorerName(ev), version: ev.version, args: { judges: ev.judges, aggregation: ev.aggregation, repeats: ev.repeats } };
  const valid = judgments.filter(j => j.details?.unscored !== true);
  const base = { runId: d.trial.runId, trialId: d.trial.id, scorer };
  const common = { n: valid.length, unscored: judgments.length - valid.length, dialogueStatus: d.meta.status };
  if (valid.length === 0) return extend(base, { value: null, reason: 'no judge answer fit the format', details: common });
  const fieldValues = new Map<string, number>();
  const perJudge: JsonObject = {};
  // Every numeric field, scaled or not: each is reported as its own mean (ELMES's columns).
  for (const f of numericFields(ev.format)) {
    const key = f.path.join('.');
    const judgeValues: number[] = [];
    for (const judge of ev.judges) {
      const own = valid.filter(j => j.rater.alias === judge).flatMap(j => {
        const v = numericValue(valueAt(j.fields, f.path));
        return v === undefined ? [] : [v];
      });
      if (own.length === 0) continue;
      const v = aggregate(own, ev.aggregation);
      judgeValues.push(v);
      const entry = (perJudge[judge] ??= { fields: {} }) as { fields: JsonObject };
      entry.fields[key] = v;
    }
    if (judgeValues.length) fieldValues.set(key, aggregate(judgeValues, ev.aggregation));
  }
  for (const judge of Object.keys(perJudge)) {
    const entry = perJudge[judge] as { fields: Record<string, number>; score?: number };
    const score = scoreOf(ev, new Map(Object.entries(entry.fields)));
    if (score) entry.score = score.value;
  }
  const score = scoreOf(ev, fieldValues);
  return extend(base, {
    value: score ? score.value : null,
    ...(score ? {} : { reason: NO_SCORE }),
    details: extend(common, {
      fields: Object.fromEntries(fieldValues), judges: perJudge,
      ...(score?.weighted ? { normalised: score.weighted.normalised, dimensions: score.weighted.dimensions } : score ? { score: 'elmes-mean' } : {}),
    }),
  });
}

/** The weighted score of combined field values, or ELMES's mean of them when nothing has a scale. */
function scoreOf(ev: Evaluation, values: ReadonlyMap<string, number>): { value: number; weighted?: Weighted } | undefined {
  const weighted = weightedScore(values, ev.scored);
  if (weighted) return { value: weighted.score, weighted };
  if (ev.scored.length > 0) return undefined;
  const mean = elmesMean(values, numericFields(ev.format));
  return mean === undefined ? undefined : { value: mean };
}
