import { alignment, type AlignmentRow } from './analyses/alignment.js';
import { baselines, type BaselineRow } from './analyses/baselines.js';
import { decomposition, type ErrorDecomposition } from './analyses/decomposition.js';
import { dependence, type Dependence } from './analyses/dependence.js';
import { dStudyGrid, type DStudyReport } from './analyses/d-study.js';
import { ensembles, type Ensembles } from './analyses/ensembles.js';
import { robustness, type RobustnessRow } from './analyses/robustness.js';
import { prepare } from './prepare.js';
import type { AnalysisTable } from './table.js';

export interface AnalyzeOptions {
  /** Bootstrap and permutation resamples (default 2000). */
  resamples?: number;
  /** Seed of every resampling (default 20260301); each analysis derives its own from it. */
  seed?: number;
  /** Resamples of observations for the variance-share intervals (default 1000; each refits REML). */
  shareResamples?: number;
}

/** The report of `paideia validity analyze` (public JSON keys: design.md, "Judge validity"). */
export interface ValidityReport {
  kind: 'paideia.validity';
  version: 1;
  seed: number;
  resamples: number;
  counts: { observations: number; units: number; items: string[]; raters: string[]; prompts: string[]; experts: number; ratings: number; unscored: number; outcomes: number };
  alignment: AlignmentRow[];
  baselines: BaselineRow[];
  dependence: Dependence;
  ensembles: Ensembles;
  robustness: RobustnessRow[];
  decomposition: ErrorDecomposition;
  dStudy: DStudyReport | null;
  /** Plain statements about what could not be computed and why. */
  notes: string[];
}

export function analyze(table: AnalysisTable, options: AnalyzeOptions = {}): ValidityReport {
  const o = { resamples: options.resamples ?? 2000, seed: options.seed ?? 20260301 };
  const p = prepare(table);
  const notes: string[] = [];
  const outcomes = [...p.outcome].filter(v => !Number.isNaN(v)).length;
  if (outcomes === 0) notes.push('No outcomes were given (--outcomes): tau with the outcome, slopes and the quartile test are not computed.');
  for (const item of p.items) if (!p.expertMean.has(item)) notes.push(`Item "${item}" has no expert ratings: no alignment with experts and no error decomposition on it.`);
  const unscored = table.ratings.filter(r => r.score === null).length;
  if (unscored) notes.push(`${unscored} rating(s) are unscored and left out (never counted as a low score); see unscored per row.`);
  const decomp = decomposition(p, { seed: o.seed, resamples: options.shareResamples ?? 1000 });
  if (decomp.design.reason) notes.push(`Error decomposition not computed: ${decomp.design.reason}.`);
  else if (!decomp.design.fullyCrossed) {
    notes.push(`The ratings are not fully crossed: ${decomp.design.missingCells} of ${decomp.design.cellsExpected} observation x item x rater x prompt cells are missing, so ${decomp.design.droppedObservations.length} observation(s) were left out of the decomposition (listed under decomposition.design).`);
  }
  if (!decomp.experts) notes.push('Fewer than two experts: no decomposition with experts in place of rater x prompt.');
  else if (decomp.experts.design.reason) notes.push(`Expert decomposition not computed: ${decomp.experts.design.reason}.`);
  return {
    kind: 'paideia.validity', version: 1, seed: o.seed, resamples: o.resamples,
    counts: {
      observations: p.observations.length, units: p.units.length, items: p.items, raters: p.raters, prompts: p.prompts,
      experts: p.experts.length, ratings: table.ratings.length, unscored, outcomes,
    },
    alignment: alignment(p, o),
    baselines: baselines(p, o),
    dependence: dependence(p, o),
    ensembles: ensembles(p, o),
    robustness: robustness(p, o),
    decomposition: decomp,
    dStudy: decomp.ratings ? dStudyGrid(decomp.ratings) : null,
    notes,
  };
}
