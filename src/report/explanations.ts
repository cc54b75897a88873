import type { JsonValue, Score, ScorerRef, Trial } from '../core/index.js';
import { cohenKappa } from '../stats/agreement/index.js';
import { EXPLANATION_SCORER, type ExplanationStatus, type StoredJudgment } from '../suites/judging/score.js';
import { clipJson, clipText, MAX_REPORT_TEXT } from './clip.js';
import { meanInterval } from '../stats/inference/mean-interval.js';
import type { PromptMessage } from './prompt-text.js';
import type { ItemTable } from './run-items.js';

/** A model's explanation score on the judged test: the share of explanations both judges pass. */
export interface ExplanationCell {
  model: string;
  test: string;
  /** Items with at least one judged explanation. The interval is over items. */
  n: number;
  mean: number | null;
  low: number | null;
  high: number | null;
  /** Trials by status: judged (with a value), not applicable (same family as a judge), no explanation, unscored (a judge failed), pending. */
  counts: Record<ExplanationStatus, number>;
  /** Judged explanations both judges passed. */
  passed: number;
  /** Why the model has no explanation score, when it has none. */
  note: string | null;
}

/** How often the two judges agree, over explanations both judged. */
export interface JudgeAgreement {
  judges: [string, string];
  /** Explanations with a verdict from both judges. */
  n: number;
  /** Share of those with the same verdict. */
  agreement: number | null;
  /** Cohen's kappa of the pass/fail verdicts; null when undefined (n = 0, or one label only). */
  kappa: number | null;
  /** Counts: both pass, both fail, only the first passes, only the second passes. */
  table: { bothPass: number; bothFail: number; onlyFirst: number; onlySecond: number };
}

/** A failed explanation on a public item, with the judges' reasons; texts cut to MAX_REPORT_TEXT characters. */
export interface ExplanationExample {
  model: string;
  itemId: string;
  input: JsonValue;
  /** The prompt the model saw (set by buildReportData, which knows the tests); null when it cannot be rendered. */
  prompt?: PromptMessage[] | null;
  answer: string;
  /** Length of the whole answer. */
  answerLength: number;
  /** Some text of this example was cut. */
  truncated: boolean;
  reason: string;
}

export interface ExplanationReport {
  test: string;
  scorer: ScorerRef;
  judges: Array<{ alias: string; spec: string; family: string }>;
  cells: ExplanationCell[];
  agreement: JudgeAgreement;
  /** Agreement within each model's explanations. */
  agreementByModel: Array<{ model: string } & JudgeAgreement>;
  examples: ExplanationExample[];
  /** Cost of every judge call of the run. */
  costUsd: number;
}

const emptyCounts = (): Record<ExplanationStatus, number> => ({ judged: 0, 'not-applicable': 0, 'no-explanation': 0, unscored: 0, pending: 0 });

function agreementOf(judges: [string, string], scores: Score[]): JudgeAgreement {
  const a: string[] = [];
  const b: string[] = [];
  for (const s of scores) {
    if (s.details?.status !== 'judged') continue;
    const js = (s.details.judgments ?? []) as unknown as StoredJudgment[];
    const va = js.find(j => j.judge === judges[0])?.verdict;
    const vb = js.find(j => j.judge === judges[1])?.verdict;
    if ((va === 'pass' || va === 'fail') && (vb === 'pass' || vb === 'fail')) { a.push(va); b.push(vb); }
  }
  const table = { bothPass: 0, bothFail: 0, onlyFirst: 0, onlySecond: 0 };
  a.forEach((va, i) => {
    const vb = b[i];
    if (va === vb) table[va === 'pass' ? 'bothPass' : 'bothFail']++;
    else table[va === 'pass' ? 'onlyFirst' : 'onlySecond']++;
  });
  if (a.length === 0) return { judges, n: 0, agreement: null, kappa: null, table };
  // Fixed labels, so a panel that only ever passed still gets a (NaN -> null) kappa, not an error.
  const k = cohenKappa(a, b, { labels: ['fail', 'pass'] }).kappa;
  return { judges, n: a.length, agreement: (table.bothPass + table.bothFail) / a.length, kappa: Number.isFinite(k) ? k : null, table };
}

/**
 * The explanation score of each model, apart from the headline score, with the judges' agreement,
 * computed from the stored `explanation-dual-judge` scores. Null when no explanation was judged.
 */
export function explanationReport(a: {
  /** The run's explanation scores, in score order, with the trials they score and those trials' last answers. */
  scores: Score[]; trials: ReadonlyMap<string, Trial>; answers: ReadonlyMap<string, string>;
  items: ItemTable;
  /** What every judge call of the run cost. */
  judgeCostUsd: number;
  models: string[]; resamples: number; seed: number; examplesPer: number;
}): ExplanationReport | null {
  const mine = a.scores.filter(s => s.scorer.name === EXPLANATION_SCORER);
  if (mine.length === 0) return null;
  const scorer = mine[0]!.scorer;
  const judges = ((scorer.args.judges ?? []) as Array<{ alias: string; spec: string; family: string }>).map(j => ({ alias: j.alias, spec: j.spec, family: j.family }));
  const pair: [string, string] = [judges[0]?.alias ?? '', judges[1]?.alias ?? ''];
  const trialOf = a.trials;
  const answers = a.answers;
  const publicItem = (hash: string) => { const i = a.items.indexOf(hash); return i === undefined ? undefined : a.items.publicItem(i); };
  const byModel = new Map<string, Array<{ s: Score; t: Trial }>>();
  for (const s of mine) {
    const t = trialOf.get(s.trialId);
    if (t) (byModel.get(t.modelAlias) ?? byModel.set(t.modelAlias, []).get(t.modelAlias)!).push({ s, t });
  }
  const test = mine.map(s => trialOf.get(s.trialId)?.test).find(Boolean) ?? 'tutor_accuracy';
  const cells: ExplanationCell[] = [];
  const examples: ExplanationExample[] = [];
  for (const model of a.models) {
    const rows = byModel.get(model);
    if (!rows) continue;
    const counts = emptyCounts();
    const perItem = new Map<string, number[]>();
    let passed = 0;
    for (const { s, t } of [...rows].sort((x, y) => x.t.repeat - y.t.repeat || x.t.index - y.t.index)) {
      counts[(s.details?.status ?? 'unscored') as ExplanationStatus]++;
      if (s.value === null) continue;
      if (s.value === 1) passed++;
      (perItem.get(t.itemHash) ?? perItem.set(t.itemHash, []).get(t.itemHash)!).push(s.value);
    }
    const values = [...perItem.values()].map(v => v.reduce((x, y) => x + y, 0) / v.length);
    const { n, ...ci } = meanInterval(values, { resamples: a.resamples, seed: a.seed });
    const na = rows.find(r => r.s.details?.status === 'not-applicable');
    const note = values.length ? null : na ? na.s.reason ?? 'not applicable' : counts['no-explanation'] === rows.length ? 'no explanations given' : 'no explanation could be scored';
    cells.push({ model, test, n, ...ci, counts, passed, note });
    // Published examples come from public items only; private items never leave the store.
    const wrong = rows.filter(r => r.s.value === 0 && publicItem(r.t.itemHash) !== undefined)
      .sort((x, y) => (x.t.itemId < y.t.itemId ? -1 : x.t.itemId > y.t.itemId ? 1 : x.t.repeat - y.t.repeat))
      .filter((r, i, all) => all.findIndex(o => o.t.itemHash === r.t.itemHash) === i)
      .slice(0, a.examplesPer);
    for (const { s, t } of wrong) {
      const input = clipJson(publicItem(t.itemHash)!.input as JsonValue, MAX_REPORT_TEXT);
      const answer = clipText(answers.get(t.id) ?? '', MAX_REPORT_TEXT);
      const reason = clipText(s.reason ?? '', MAX_REPORT_TEXT);
      examples.push({
        model, itemId: t.itemId, input: input.value, answer: answer.text, answerLength: answer.length,
        truncated: input.truncated || answer.truncated || reason.truncated, reason: reason.text,
      });
    }
  }
  return {
    test, scorer, judges, cells, examples, costUsd: a.judgeCostUsd,
    agreement: agreementOf(pair, mine),
    agreementByModel: cells.map(c => ({ model: c.model, ...agreementOf(pair, (byModel.get(c.model) ?? []).map(r => r.s)) })),
  };
}
