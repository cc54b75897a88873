import type { JsonValue, Score, ScorerRef, Trial } from '../core/index.js';
import { cohenKappaOfTable } from '../stats/agreement/index.js';
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

type AgreementTable = JudgeAgreement['table'];
const emptyTable = (): AgreementTable => ({ bothPass: 0, bothFail: 0, onlyFirst: 0, onlySecond: 0 });

/** Count one judged explanation whose two judges both gave a pass/fail verdict into `table`. */
function tallyVerdicts(table: AgreementTable, judges: [string, string], s: Score): void {
  if (s.details?.status !== 'judged') return;
  const js = (s.details.judgments ?? []) as unknown as StoredJudgment[];
  const va = js.find(j => j.judge === judges[0])?.verdict;
  const vb = js.find(j => j.judge === judges[1])?.verdict;
  if ((va !== 'pass' && va !== 'fail') || (vb !== 'pass' && vb !== 'fail')) return;
  if (va === vb) table[va === 'pass' ? 'bothPass' : 'bothFail']++;
  else table[va === 'pass' ? 'onlyFirst' : 'onlySecond']++;
}

function agreementOf(judges: [string, string], table: AgreementTable): JudgeAgreement {
  const n = table.bothPass + table.bothFail + table.onlyFirst + table.onlySecond;
  if (n === 0) return { judges, n: 0, agreement: null, kappa: null, table };
  // Fixed labels, so a panel that only ever passed still gets a (NaN -> null) kappa, not an error.
  const k = cohenKappaOfTable([[table.bothFail, table.onlySecond], [table.onlyFirst, table.bothPass]], { labels: ['fail', 'pass'] }).kappa;
  return { judges, n, agreement: (table.bothPass + table.bothFail) / n, kappa: Number.isFinite(k) ? k : null, table };
}

/** A failed explanation on a public item that may be shown, with what orders it among the others. */
interface Candidate { itemId: string; repeat: number; order: number; answer: string; reason: string; input: JsonValue }

/** What a model's explanation scores add up to so far. */
interface ModelTally {
  counts: Record<ExplanationStatus, number>;
  scores: number;
  passed: number;
  /** Per item: the sum and count of its values, and the (repeat, index) of its first trial, which orders the items. */
  items: Map<string, { sum: number; n: number; repeat: number; index: number }>;
  /** The reason of the model's first not-applicable score. */
  notApplicable: string | undefined;
  table: AgreementTable;
  /** Per public item, its first failed explanation by (repeat, score order). */
  wrong: Map<string, Candidate>;
}

/**
 * The explanation scores of a run, folded in one at a time as the report reads its trials a page
 * at a time: counts, per-item sums, the judges' agreement tables and one possible example per
 * public item are kept, never a score, trial or answer per judged trial.
 */
export interface ExplanationTally {
  /**
   * One explanation score, in the store's score order. `trial` is the trial under test it scores
   * (undefined when the score belongs to none the report reads); `answer` gives that trial's last
   * answer, asked only when the score may become an example.
   */
  add(s: Score, trial: Trial | undefined, answer: () => string | undefined): void;
  /** The explanation section; null when no explanation score was added. */
  report(a: {
    /** What every judge call of the run cost. */
    judgeCostUsd: number;
    models: string[]; resamples: number; seed: number; examplesPer: number;
  }): ExplanationReport | null;
}

export function explanationTally(items: ItemTable): ExplanationTally {
  let scorer: ScorerRef | undefined;
  let pair: [string, string] = ['', ''];
  let test: string | undefined;
  let order = 0;
  const overall = emptyTable();
  const byModel = new Map<string, ModelTally>();
  const publicItem = (hash: string) => { const i = items.indexOf(hash); return i === undefined ? undefined : items.publicItem(i); };

  return {
    add(s, t, answer) {
      if (s.scorer.name !== EXPLANATION_SCORER) return;
      if (!scorer) {
        scorer = s.scorer;
        const judges = (scorer.args.judges ?? []) as Array<{ alias: string }>;
        pair = [judges[0]?.alias ?? '', judges[1]?.alias ?? ''];
      }
      const at = order++;
      tallyVerdicts(overall, pair, s);
      if (!t) return;
      test ??= t.test || undefined;
      let m = byModel.get(t.modelAlias);
      if (!m) byModel.set(t.modelAlias, (m = { counts: emptyCounts(), scores: 0, passed: 0, items: new Map(), notApplicable: undefined, table: emptyTable(), wrong: new Map() }));
      m.scores++;
      m.counts[(s.details?.status ?? 'unscored') as ExplanationStatus]++;
      if (s.details?.status === 'not-applicable' && m.notApplicable === undefined) m.notApplicable = s.reason ?? 'not applicable';
      tallyVerdicts(m.table, pair, s);
      if (s.value === null) return;
      if (s.value === 1) m.passed++;
      const item = m.items.get(t.itemHash);
      if (!item) m.items.set(t.itemHash, { sum: s.value, n: 1, repeat: t.repeat, index: t.index });
      else {
        item.sum += s.value;
        item.n++;
        if (t.repeat < item.repeat || (t.repeat === item.repeat && t.index < item.index)) Object.assign(item, { repeat: t.repeat, index: t.index });
      }
      if (s.value !== 0) return;
      // Published examples come from public items only; private items never leave the store.
      const whole = publicItem(t.itemHash);
      const known = m.wrong.get(t.itemHash);
      if (!whole || (known && known.repeat <= t.repeat)) return;
      m.wrong.set(t.itemHash, { itemId: t.itemId, repeat: t.repeat, order: at, answer: answer() ?? '', reason: s.reason ?? '', input: whole.input as JsonValue });
    },

    report(a) {
      if (!scorer) return null;
      const judges = ((scorer.args.judges ?? []) as Array<{ alias: string; spec: string; family: string }>).map(j => ({ alias: j.alias, spec: j.spec, family: j.family }));
      const cells: ExplanationCell[] = [];
      const examples: ExplanationExample[] = [];
      const agreementByModel: ExplanationReport['agreementByModel'] = [];
      for (const model of a.models) {
        const m = byModel.get(model);
        if (!m) continue;
        // Items in the order of their first trial by (repeat, plan index), as the interval's resamples draw them.
        const values = [...m.items.values()].sort((x, y) => x.repeat - y.repeat || x.index - y.index).map(v => v.sum / v.n);
        const { n, ...ci } = meanInterval(values, { resamples: a.resamples, seed: a.seed });
        const note = values.length ? null : m.notApplicable ?? (m.counts['no-explanation'] === m.scores ? 'no explanations given' : 'no explanation could be scored');
        cells.push({ model, test: test ?? 'tutor_accuracy', n, ...ci, counts: m.counts, passed: m.passed, note });
        agreementByModel.push({ model, ...agreementOf(pair, m.table) });
        const shown = [...m.wrong.values()]
          .sort((x, y) => (x.itemId < y.itemId ? -1 : x.itemId > y.itemId ? 1 : x.repeat - y.repeat || x.order - y.order))
          .slice(0, a.examplesPer);
        for (const c of shown) {
          const input = clipJson(c.input, MAX_REPORT_TEXT);
          const answer = clipText(c.answer, MAX_REPORT_TEXT);
          const reason = clipText(c.reason, MAX_REPORT_TEXT);
          examples.push({
            model, itemId: c.itemId, input: input.value, answer: answer.text, answerLength: answer.length,
            truncated: input.truncated || answer.truncated || reason.truncated, reason: reason.text,
          });
        }
      }
      return { test: test ?? 'tutor_accuracy', scorer, judges, cells, examples, costUsd: a.judgeCostUsd, agreement: agreementOf(pair, overall), agreementByModel };
    },
  };
}
