import type { ChatModel, ChatParams, ChatRequest } from '../../core/chat-model.js';
import type { JsonObject } from '../../core/json.js';
import type { Score, ScorerRef } from '../../core/scorer.js';
import type { Store } from '../../core/store.js';
import type { Trial } from '../../core/trial.js';
import { CostCapError } from '../../core/errors.js';
import type { ModelPrice } from '../../core/prices.js';
import type { Budget } from '../../engine/budget.js';
import { createLimiter } from '../../engine/limiter.js';
import { costOf, estimateCost } from '../../providers/pricing.js';
import { loadStoredDialogues, type StoredDialogue } from '../dialogue.js';
import type { Evaluation, Scenario } from '../types.js';
import { JSON_CLOSE, JSON_OPEN, JUDGE_TOOL_NAME, checkAnswer, extractJson, formatJsonSchema } from './format.js';
import { judgeMessages } from './prompt.js';
import { aggregate, valueAt, weightedScore } from './score.js';

/** Scorer name of the panel's judgment of a dialogue. */
export function panelScorerName(evaluation: Pick<Evaluation, 'name'>): string {
  return `judge:${evaluation.name}`;
}

/**
 * Scorer name of one judge's judgment in one repeat. The store keeps one score per (trial, name,
 * version), so the judge and the repeat are part of the name as well as of the recorded args.
 */
export function judgmentScorerName(evaluation: Pick<Evaluation, 'name'>, judge: string, repeat: number): string {
  return `judge:${evaluation.name}/${judge}/${repeat}`;
}

export interface JudgeRunOptions {
  store: Store;
  runId: string;
  scenario: Scenario;
  /** The judge model (and its parameters) for a trial; the runner builds these from the scenario. */
  judgeModel(trial: Trial, alias: string): { model: ChatModel; params: ChatParams };
  concurrency: number;
  signal?: AbortSignal;
  /** Hard cost cap shared with the dialogues; a judgment it stops stays pending for --resume. */
  budget?: Budget;
  /** Price of a judge by alias, to estimate and charge its calls (undefined: unknown, charged 0). */
  priceOf?: (alias: string) => ModelPrice | undefined;
  onJudgment?: (e: { trialId: string; judge: string; repeat: number; value: number | null }) => void;
}

export interface JudgeSummary {
  /** Judgments made in this session. */
  judged: number;
  /** Judgments found in the store and not asked again. */
  reused: number;
  /** Judgments whose answer never fit `format` (stored unscored with the raw text). */
  unscored: number;
  /** Judge calls that failed (provider errors); not stored, asked again on resume. */
  errors: number;
  /** Judgments not made because the run was interrupted or the cost cap was reached. */
  pending: number;
  /** Set when the cost cap stopped judging. */
  stoppedByCostCap?: boolean;
  /** Dialogues with a panel score. */
  aggregated: number;
}

/**
 * Judge every finished (ended or capped) dialogue of a run from its stored transcript: each judge,
 * each repeat, one stored Score; then the panel's Score per dialogue, recomputed from the stored
 * judgments (so re-running it never calls a model).
 */
export async function judgeRun(o: JudgeRunOptions): Promise<JudgeSummary> {
  const evaluation = o.scenario.evaluation;
  const summary: JudgeSummary = { judged: 0, reused: 0, unscored: 0, errors: 0, pending: 0, aggregated: 0 };
  if (!evaluation) return summary;
  const dialogues = [...(await loadStoredDialogues(o.store, o.runId)).values()].filter(d => d.meta.status === 'ended' || d.meta.status === 'capped');
  const scores = new Map<string, Score>();
  for (const s of await o.store.listScores(o.runId)) if (s.scorer.version === evaluation.version) scores.set(`${s.trialId}\u0000${s.scorer.name}`, s);
  const tasks = new Map(o.scenario.tasks.map(t => [t.hash, t]));
  const limit = createLimiter(Math.max(1, o.concurrency));
  const jobs: Array<Promise<void>> = [];
  const rescoredList: Score[] = [];
  for (const d of dialogues) {
    for (const judge of evaluation.judges) {
      for (let repeat = 0; repeat < evaluation.repeats; repeat++) {
        const key = `${d.trial.id}\u0000${judgmentScorerName(evaluation, judge, repeat)}`;
        const stored = scores.get(key);
        if (stored) {
          summary.reused++;
          // The weights may have changed since: the weighted score is recomputed from the stored fields.
          const fresh = rescored(evaluation, stored);
          if (fresh) { scores.set(key, fresh); rescoredList.push(fresh); }
          continue;
        }
        jobs.push(limit(async () => {
          if (o.signal?.aborted) { summary.pending++; return; }
          const { model, params } = o.judgeModel(d.trial, judge);
          let score: Score;
          try {
            score = await judgeOnce({
              evaluation, dialogue: d, vars: tasks.get(d.trial.itemHash)?.vars ?? {}, judge, repeat, model, params,
              ...(o.signal ? { signal: o.signal } : {}), ...(o.budget ? { budget: o.budget } : {}), price: o.priceOf?.(judge),
            });
          } catch (error) {
            if (error instanceof CostCapError) summary.stoppedByCostCap = true;
            if (o.signal?.aborted || error instanceof CostCapError) summary.pending++;
            else summary.errors++;
            return;
          }
          await o.store.saveScores([score]);
          scores.set(key, score);
          summary.judged++;
          if (score.value === null && score.details?.unscored === true) summary.unscored++;
          o.onJudgment?.({ trialId: d.trial.id, judge, repeat, value: score.value });
        }));
      }
    }
  }
  if (rescoredList.length) await o.store.saveScores(rescoredList);
  await Promise.all(jobs);
  const panel: Score[] = [];
  for (const d of dialogues) {
    const own = evaluation.judges
      .flatMap(judge => Array.from({ length: evaluation.repeats }, (_, repeat) => scores.get(`${d.trial.id}\u0000${judgmentScorerName(evaluation, judge, repeat)}`)))
      .filter((s): s is Score => s !== undefined);
    if (own.length === 0) continue;
    panel.push(panelScore(evaluation, d, own));
  }
  await o.store.saveScores(panel);
  summary.aggregated = panel.length;
  return summary;
}

interface JudgeOnceInput {
  evaluation: Evaluation;
  dialogue: StoredDialogue;
  vars: Record<string, string>;
  judge: string;
  repeat: number;
  model: ChatModel;
  params: ChatParams;
  signal?: AbortSignal;
  budget?: Budget;
  price?: ModelPrice | undefined;
}

/**
 * One judgment. An answer that does not fit `format` is asked again (with what was wrong) up to
 * `format_retries` times, then stored unscored with its raw text: never a zero. Provider errors
 * are thrown: nothing is stored, and a resume asks again.
 */
export async function judgeOnce(i: JudgeOnceInput): Promise<Score> {
  const { evaluation: ev, dialogue } = i;
  const scorer: ScorerRef = { name: judgmentScorerName(ev, i.judge, i.repeat), version: ev.version, args: { judge: i.judge, repeat: i.repeat } };
  const base = judgeMessages(ev, i.vars, dialogue.messages);
  const tool = ev.formatMode === 'tool'
    ? { name: JUDGE_TOOL_NAME, description: `Submit the evaluation "${ev.name}" of the dialogue.`, parameters: formatJsonSchema(ev.format) }
    : undefined;
  let raw = '';
  let problems: string[] = [];
  let costUsd = 0;
  const attempts = ev.formatRetries + 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const retryNote = attempt === 0 ? [] : [{
      role: 'user' as const,
      content: `Your previous answer did not fit the required format: ${problems.join('; ')}. Answer again${tool ? ` by calling ${JUDGE_TOOL_NAME}` : ` with one JSON object between ${JSON_OPEN} and ${JSON_CLOSE}`}.`,
    }];
    const request: ChatRequest = {
      messages: [...base, ...retryNote],
      params: i.params,
      ...(tool ? { tools: [tool], toolChoice: tool.name } : {}),
      context: { trialId: dialogue.trial.id, itemId: dialogue.trial.itemId, repeat: i.repeat, turn: attempt, role: 'judge' },
    };
    const estimate = i.price ? estimateCost(i.price, request) : 0;
    if (i.budget && !(await i.budget.reserve(estimate))) throw new CostCapError(i.budget.capUsd ?? 0, i.budget.spentUsd);
    let result;
    try {
      result = await i.model.generate(request, i.signal ? { signal: i.signal } : {});
    } catch (error) {
      i.budget?.settle(estimate, 0);
      throw error;
    }
    // Charged like a dialogue turn: its usage, else its estimate; kept on the score so a resumed run counts it.
    const cost = i.price ? (result.usage ? costOf(i.price, result.usage) : estimate) : 0;
    i.budget?.settle(estimate, cost);
    costUsd += cost;
    const call = result.toolCalls?.find(c => c.name === JUDGE_TOOL_NAME) ?? result.toolCalls?.[0];
    raw = call ? call.arguments : result.text;
    // A tool-mode judge that answers in text with valid JSON is taken at its word; format still decides.
    const parsed = call ? parseToolArguments(call.arguments) : extractJson(result.text);
    if (!parsed.ok) { problems = [parsed.problem]; continue; }
    const checked = checkAnswer(parsed.value, ev.format);
    if (!checked.ok) { problems = checked.problems; continue; }
    const values = new Map(ev.scored.map(f => [f.path.join('.'), valueAt(checked.value, f.path) as number | boolean]));
    const weighted = weightedScore(values, ev.scored);
    return {
      runId: dialogue.trial.runId, trialId: dialogue.trial.id, scorer,
      value: weighted ? weighted.score : null,
      ...(weighted ? {} : { reason: 'no weighted score: no format field has a scale' }),
      details: {
        judge: i.judge, repeat: i.repeat, fields: checked.value, raw, attempts: attempt + 1, dialogueStatus: dialogue.meta.status, costUsd,
        ...(weighted ? { normalised: weighted.normalised, dimensions: weighted.dimensions } : {}),
      },
    };
  }
  return {
    runId: dialogue.trial.runId, trialId: dialogue.trial.id, scorer, value: null,
    reason: `the judge's answer did not fit format after ${attempts} attempt(s): ${problems.join('; ')}`,
    details: { judge: i.judge, repeat: i.repeat, unscored: true, raw, problems, attempts, dialogueStatus: dialogue.meta.status, costUsd },
  };
}

/**
 * A stored judgment with its weighted score recomputed under the current weights, or undefined
 * when nothing changed (or it is unscored). Judgments are versioned by what the judge saw, not by
 * the weights, so a weight change keeps them and only this recomputation follows.
 */
export function rescored(ev: Evaluation, s: Score): Score | undefined {
  const fields = s.details?.fields;
  if (s.details?.unscored === true || fields === undefined || fields === null || typeof fields !== 'object' || Array.isArray(fields)) return undefined;
  const { value, details } = weighedFields(ev, fields as JsonObject);
  const rest: JsonObject = { ...s.details };
  delete rest.normalised;
  delete rest.dimensions;
  const next: Score = { ...s, value, details: { ...rest, ...details } };
  delete next.reason;
  if (value === null) next.reason = 'no weighted score: no format field has a scale';
  const same = s.value === next.value && s.reason === next.reason && JSON.stringify(s.details) === JSON.stringify(next.details);
  return same ? undefined : next;
}

function weighedFields(ev: Evaluation, fields: JsonObject): { value: number | null; details: JsonObject } {
  const values = new Map(ev.scored.map(f => [f.path.join('.'), valueAt(fields, f.path) as number | boolean]));
  const weighted = weightedScore(values, ev.scored);
  return weighted
    ? { value: weighted.score, details: { normalised: weighted.normalised, dimensions: weighted.dimensions } }
    : { value: null, details: {} };
}

function parseToolArguments(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `the function arguments are not valid JSON (${(error as Error).message})` };
  }
}

/**
 * The panel's score of one dialogue: per scored field, each judge's repeats combined, then the
 * judges combined, both with the evaluation's aggregation; the weighted score of the result.
 * Unscored judgments are left out and counted.
 */
export function panelScore(ev: Evaluation, d: StoredDialogue, judgments: ReadonlyArray<Score>): Score {
  const scorer: ScorerRef = { name: panelScorerName(ev), version: ev.version, args: { judges: ev.judges, aggregation: ev.aggregation, repeats: ev.repeats } };
  const valid = judgments.filter(s => s.details?.unscored !== true && s.details?.fields !== undefined);
  const base = { runId: d.trial.runId, trialId: d.trial.id, scorer };
  const common = { n: valid.length, unscored: judgments.length - valid.length, dialogueStatus: d.meta.status };
  if (valid.length === 0) {
    return { ...base, value: null, reason: 'no judge answer fit the format', details: common };
  }
  const fieldValues = new Map<string, number>();
  const perJudge: JsonObject = {};
  for (const f of ev.scored) {
    const key = f.path.join('.');
    const judgeValues: number[] = [];
    for (const judge of ev.judges) {
      const own = valid.filter(s => s.details?.judge === judge).map(s => numeric(valueAt(s.details!.fields as JsonObject, f.path)));
      if (own.length === 0) continue;
      const v = aggregate(own, ev.aggregation);
      judgeValues.push(v);
      const entry = (perJudge[judge] ??= { fields: {} }) as { fields: JsonObject };
      entry.fields[key] = v;
    }
    fieldValues.set(key, aggregate(judgeValues, ev.aggregation));
  }
  for (const judge of Object.keys(perJudge)) {
    const entry = perJudge[judge] as { fields: Record<string, number>; score?: number };
    const w = weightedScore(new Map(Object.entries(entry.fields)), ev.scored);
    if (w) entry.score = w.score;
  }
  const weighted = weightedScore(fieldValues, ev.scored);
  return {
    ...base,
    value: weighted ? weighted.score : null,
    ...(weighted ? {} : { reason: 'no weighted score: no format field has a scale' }),
    details: {
      ...common, fields: Object.fromEntries(fieldValues), judges: perJudge,
      ...(weighted ? { normalised: weighted.normalised, dimensions: weighted.dimensions } : {}),
    },
  };
}

function numeric(v: unknown): number {
  return typeof v === 'boolean' ? (v ? 1 : 0) : (v as number);
}
