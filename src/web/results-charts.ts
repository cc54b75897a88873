import { ConfigError, type RunRecord, type Store } from '../core/index.js';
import { deckPoints } from '../report/learning/html.js';
import { buildReportData } from '../report/index.js';
import { learningReport, type Figure } from '../learning/report/index.js';
import { scenarioReport } from '../scenarios/index.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { analyze, parseCsv, tableFromRun, type AlignmentRow, type BaselineRow } from '../validity/index.js';

import type { Estimate, PairedDifference } from './api-types.js';

export type { Estimate, PairedDifference };

/**
 * The kind-specific figures of a run, taken from the report the CLI makes of it (`paideia
 * report`): the browser draws them and shows the same numbers as tables, computing nothing.
 */
export interface RunCharts {
  radar: { axes: string[]; models: Array<{ model: string; isBaseline: boolean; dimensions: Record<string, Estimate> }> } | null;
  comparisons: PairedDifference[];
  tau: { alignment: AlignmentRow[]; baselines: BaselineRow[]; notes: string[] } | null;
  learning: {
    generators: Array<{ name: string; baseline: boolean } & Record<'pre' | 'post' | 'gain' | 'near' | 'far' | 'd1' | 'd2', Figure>>;
    decks: Record<'d1' | 'd2', Array<{ x: number; y: number; label: string }>>;
  } | null;
}

const NONE: RunCharts = { radar: null, comparisons: [], tau: null, learning: null };

/** Each kind's figures, by the kind's name as stored with the run (as the CLI's report does). */
const CHARTS: Readonly<Record<string, (store: Store, run: RunRecord) => Promise<RunCharts>>> = {
  async suite(store, run) {
    const data = await buildReportData(store, run.id, { tests: BUILT_IN_TESTS });
    return {
      ...NONE,
      tau: await judgesAlignment(store, run.id),
      comparisons: data.comparisons.map(c => ({
        scope: c.language ? `${c.test} · ${c.language}` : c.test, a: c.a, b: c.b, n: c.n,
        difference: c.difference, low: c.low, high: c.high, overlap: c.warning !== null, note: c.warning,
      })),
    };
  },
  async scenario(store, run) {
    const r = await scenarioReport(store, run.id);
    return {
      ...NONE,
      radar: r.radar.axes.length ? { axes: r.radar.axes, models: r.models.map(m => ({ model: m.model, isBaseline: m.isBaseline, dimensions: m.dimensions })) } : null,
      tau: await judgesAlignment(store, run.id),
      comparisons: r.comparisons.map(c => ({ scope: 'score', a: c.a, b: c.b, n: c.n, difference: c.difference, low: c.low, high: c.high, overlap: c.overlap || c.low === null, note: c.note })),
    };
  },
  async validity(store, run) {
    return { ...NONE, tau: await storedAlignment(store, run.id) };
  },
  async learning(store, run) {
    const { report, data } = await learningReport(store, run.id);
    return {
      ...NONE,
      learning: {
        generators: Object.entries(report.generators).map(([name, g]) => ({ name, baseline: g.baseline, pre: g.pre, post: g.post, gain: g.gain, near: g.near, far: g.far, d1: g.d1, d2: g.d2 })),
        decks: { d1: deckPoints(data, 'd1'), d2: deckPoints(data, 'd2') },
      },
    };
  },
};

/** An uploaded CSV file: its name (for messages) and its text. */
export interface AttachedFile { name: string; text: string }

/**
 * The alignment of a run's judgments, as `paideia validity analyze --run ID [--experts F]
 * [--outcomes F] [--observations F]` computes it; the files are read from the request, not kept.
 * A bad file throws the analysis' ConfigError (file, line, field).
 */
export async function alignment(store: Store, runId: string, files: Partial<Record<'experts' | 'outcomes' | 'observations', AttachedFile>>): Promise<NonNullable<RunCharts['tau']>> {
  const parsed = Object.fromEntries(Object.entries(files).filter(([, f]) => f).map(([k, f]) => [k, parseCsv(new TextEncoder().encode(f.text), f.name)]));
  // Only the alignment is drawn: the variance shares are resampled the fewest times, as the CLI's report does.
  const v = analyze(await tableFromRun(store, runId, parsed), { shareResamples: 100 });
  return { alignment: v.alignment, baselines: v.baselines, notes: v.notes };
}

/** The alignment of the stored ratings with what the store holds (imported expert scores); a run that cannot be analysed says why in `notes`. */
async function storedAlignment(store: Store, runId: string): Promise<NonNullable<RunCharts['tau']>> {
  try {
    return await alignment(store, runId, {});
  } catch (error) {
    if (error instanceof ConfigError) return { alignment: [], baselines: [], notes: error.issues.map(i => i.message) };
    throw error;
  }
}

/** A judged run's judges against experts, as its report adds them (the "Judge validity" section); null for a run with no judges. */
async function judgesAlignment(store: Store, runId: string): Promise<RunCharts['tau']> {
  return (await store.listJudgments(runId)).length ? storedAlignment(store, runId) : null;
}

export async function runCharts(store: Store, run: RunRecord): Promise<RunCharts> {
  const charts = CHARTS[run.kind];
  return charts ? charts(store, run) : NONE;
}
