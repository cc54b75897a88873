import type { StudyData } from '../../learning/report/collect.js';
import { analyze, MIN_PAIRS, type PearsonSummary, type PermutationBaseline, type TauSummary } from '../../validity/index.js';
import { deckRatings } from '../../learning/report/deck-ratings.js';
import { learningTable } from './validity.js';

/** How the learning report states its outcome (docs/validity.md, "Learning runs"). */
export const GAIN_DEFINITION = "a deck's learner gain: posttest share right - pretest share right per learner trial, averaged over the deck's learner trials (every learner and repeat of the deck as generated, first puzzle-context and frames setting)";

/** One judge x D-item against the decks' gains: the `validity analyze --run` figures, on the report. */
export interface JudgeGainRow {
  judge: string;
  prompt: string;
  item: string;
  /** Decks with both a scored rating and a gain. */
  n: number;
  ratings: number;
  unscored: number;
  tauOutcome: TauSummary | null;
  pearsonOutcome: PearsonSummary | null;
  /** Tau against taus from shuffled ratings, with the two-sided permutation p-value. */
  permutationOutcome: PermutationBaseline | null;
  /** With expert scores attached (`--experts`); null without. */
  tauExperts: TauSummary | null;
}

/** The learning report's `judgeValidity` section. */
export interface LearningJudgeValidity {
  outcome: string;
  /** Decks needed with both a rating and a gain before tau is reported. */
  minimumDecks: number;
  decks: number;
  decksWithGain: number;
  experts: string | null;
  /** Of the bootstrap and permutations; null when nothing was resampled (no judgment to align). */
  resamples: number | null;
  seed: number | null;
  alignment: JudgeGainRow[];
  /** D3 metrics (deck measurements, no judge) on the same axis. */
  d3: Array<{ metric: string; tauOutcome: TauSummary | null; pearsonOutcome: PearsonSummary | null }>;
  notes: string[];
}

/**
 * The judges' alignment with learner gain, from the same analysis as `paideia validity analyze
 * --run` (the variance shares, which the alignment does not depend on, resampled the fewest times).
 */
export function judgeGainAlignment(data: StudyData, o: { experts?: string } = {}): LearningJudgeValidity {
  const base = { outcome: GAIN_DEFINITION, minimumDecks: MIN_PAIRS, experts: o.experts ?? null };
  if (data.judgments.length === 0) {
    const why = data.design.judges.length
      ? 'The run\'s judges have stored no judgment yet (resume the run), so there is no rating to align with learner gain.'
      : 'The run has no D1/D2 judges, so there is no rating to align with learner gain; run the study with --judge NAME=SPEC.';
    const decks = deckRatings(data).decks;
    return { ...base, decks: decks.length, decksWithGain: decks.filter(d => d.gain !== null).length, resamples: null, seed: null, alignment: [], d3: [], notes: [why] };
  }
  const { table, decks } = learningTable(data, o.experts !== undefined ? { experts: o.experts } : {});
  const r = analyze(table, { shareResamples: 100 });
  const withGain = decks.decks.filter(d => d.gain !== null).length;
  const notes: string[] = [];
  if (withGain === 0) notes.push('No learner gains: no learner trial of a deck as generated finished its pretest and posttest, so tau with gain is not computed.');
  else if (withGain < MIN_PAIRS) notes.push(`Too few decks: tau with gain needs at least ${MIN_PAIRS} decks with both a rating and a gain; this run has ${withGain}. Add units or generators.`);
  if (o.experts === undefined) notes.push('No expert scores are attached, so tau with experts is absent; add --experts FILE (observation = <unit>/<generator>, item d1 or d2) to compare.');
  notes.push(...r.notes.filter(n => /unscored/.test(n)));
  // Every deck gained the same: no judge (nor D3 metric) can be ordered against gain, and the
  // judges are not why (their ratings may vary): said once, about the learners.
  const gains = new Set(decks.decks.flatMap(d => (d.gain !== null ? [d.gain] : [])));
  if (withGain >= MIN_PAIRS && gains.size === 1) {
    notes.push(`Every deck's gain is the same (${[...gains][0]}), so no two decks are ordered by gain and tau-b with gain is not defined for any judge or D3 metric: the learners' tests did not tell the decks apart (more learners, test items or units may).`);
  }
  // Enough decks overall, but a judge that left most of them unscored still has too few pairs of its own.
  if (withGain >= MIN_PAIRS && gains.size > 1) {
    // No tau: too few pairs (null), or pairs that are all tied (NaN, shown as "–").
    for (const a of r.alignment.filter(x => x.tauOutcome === null || !Number.isFinite(x.tauOutcome.tau))) {
      notes.push(a.nUnits < MIN_PAIRS
        ? `${a.rater} (${a.prompt}) on ${a.item}: only ${a.nUnits} deck(s) with both a scored rating and a gain (tau needs ${MIN_PAIRS}), so its tau with gain is not computed; see its unscored judgments in the run.`
        // Enough decks, and still no tau: one side does not vary, so no pair of decks is ordered.
        : `${a.rater} (${a.prompt}) on ${a.item}: over its ${a.nUnits} decks the ratings or the gains are all the same, so no two decks are ordered and tau-b is not defined; a judge that gives every deck one score cannot track learning.`);
    }
  }
  const robust = new Map(r.robustness.map(x => [`${x.rater}|${x.prompt}|${x.item}`, x]));
  return {
    ...base, decks: decks.decks.length, decksWithGain: withGain, resamples: r.resamples, seed: r.seed,
    alignment: r.alignment.map(a => ({
      judge: a.rater, prompt: a.prompt, item: a.item, n: a.nUnits, ratings: a.ratings, unscored: a.unscored,
      tauOutcome: a.tauOutcome, pearsonOutcome: a.pearsonOutcome,
      permutationOutcome: robust.get(`${a.rater}|${a.prompt}|${a.item}`)?.permutationOutcome ?? null, tauExperts: a.tauExperts,
    })),
    // Every item carries the same baselines; D3 is per deck, so one item's rows say it all.
    d3: r.baselines.filter(b => b.kind === 'observation-column' && b.item === r.counts.items[0]).map(b => ({ metric: b.name, tauOutcome: b.tauOutcome, pearsonOutcome: b.pearsonOutcome })),
    notes,
  };
}
