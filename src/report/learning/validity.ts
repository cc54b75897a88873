import { ConfigError, type Store } from '../../core/index.js';
import { D3_KEYS } from '../../learning/report/build.js';
import { collectStudy, type StudyData } from '../../learning/report/collect.js';
import { deckRatings, type DeckRatings } from '../../learning/report/deck-ratings.js';
import { buildTableWithRatings, runAnalysisTables, type AnalysisTable, type Baseline, type RatingRow, type RunAnalysisFiles } from '../../validity/index.js';

/** What the learning run's analysis table is built from: its decks and, when given, the user's files. */
export interface LearningTable {
  table: AnalysisTable;
  decks: DeckRatings;
  /** Where the outcome came from: the run's learner gains, or the user's outcomes file. */
  outcome: 'gain' | { file: string };
}

/**
 * A learning run as a validity study: observation = a deck as generated (`<unit>/<generator>`, its
 * own unit), items d1 and d2 on 1-5, rater = judge, prompt = the judge prompt's version,
 * outcome = the deck's learner gain (an `--outcomes` file wins), the deck's D3 metrics as
 * observation-level baselines. The same checks as every `--run` path (buildTableWithRatings).
 */
export function learningTable(data: StudyData, files: RunAnalysisFiles): LearningTable {
  const decks = deckRatings(data);
  const runId = data.runId;
  if (decks.ratings.length === 0) {
    throw new ConfigError([{ field: '--run', message: `learning run ${runId} holds no D1/D2 judgments to analyse; run the study with at least one --judge NAME=SPEC (paideia learning run --help)` }]);
  }
  const ratings: RatingRow[] = decks.ratings.map(r => ({ ...r }));
  const gains = new Map(decks.decks.flatMap(d => (d.gain === null ? [] : [[d.id, d.gain] as const])));
  const baselines: Baseline[] = D3_KEYS.flatMap(k => {
    const values = new Map(decks.decks.flatMap(d => (d.d3[k] === null ? [] : [[d.id, d.d3[k]!] as const])));
    // A measurement every deck shares (no tables anywhere) has no tau: it would only fill the table with dashes.
    return new Set(values.values()).size > 1 ? [{ name: `d3.${k}`, level: 'observation' as const, values }] : [];
  });
  const ids = decks.decks.map(d => d.id);
  const table = buildTableWithRatings(ratings, decks.scales, runAnalysisTables(files), {
    ratingsSource: `learning run ${runId}`, observations: new Set(ids), outcomes: gains, baselines,
    missingScaleHint: item => `item "${item}" is not rated in learning run ${runId} (its items: d1, d2); rename it, or give its scale with --scales FILE`,
    observationsHint: "a learning run's observations are its decks as generated, named <unit>/<generator>",
    units: { ids: new Set(ids), hint: `its units are its decks, named <unit>/<generator>: ${ids.slice(0, 4).join(', ')}${ids.length > 4 ? ', ...' : ''}` },
  });
  return { table, decks, outcome: files.outcomes ? { file: typeof files.outcomes === 'string' ? files.outcomes : files.outcomes.file } : 'gain' };
}

/** `validity analyze --run <learning run>`: the table of a stored learning run. */
export async function learningTableFromStore(store: Store, runId: string, files: RunAnalysisFiles): Promise<AnalysisTable> {
  return learningTable(await collectStudy(store, runId), files).table;
}

/** `validity template --run <learning run>`: one blank expert row per deck and item its judges rated, with the deck's text. */
export async function learningTemplateCells(store: Store, runId: string): Promise<Array<{ observation: string; item: string; text: string }>> {
  const { decks, ratings } = deckRatings(await collectStudy(store, runId));
  const rated = new Set(ratings.map(r => `${r.observation}\u0000${r.item}`));
  return decks.flatMap(d => ['d1', 'd2'].filter(item => rated.has(`${d.id}\u0000${item}`)).map(item => ({ observation: d.id, item, text: d.text })));
}
