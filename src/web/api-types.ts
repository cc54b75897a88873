/**
 * What the API answers, as one logic-free file both sides compile: the routes check their answers
 * against these types (`satisfies`), and the pages (web/src/types.ts) import them, so
 * `tsc -p web/tsconfig.json` checks the pages against the server's shapes. No imports: the web
 * build has no Node types, and this file must stay readable to it.
 */

/** A run's trials as `countTrials` counts them: every trial of every step kind. */
export interface TrialCountsAnswer {
  total: number; done: number; failed: number; pending: number;
  /** The same per step kind (`item`, `judge`, `learning-deck`, ...), in plan order. */
  byKind: Array<{ kind: string; total: number; done: number; failed: number; pending: number }>;
}

/** Progress of a run this server started. */
export interface Progress { total: number; done: number; failed: number; spentUsd: number; stopping: boolean }

/** One entry of `GET /api/runs`. */
export interface RunListEntry {
  id: string; kind: string; status: string; models: string[];
  /** Each model's alias and the spec it stands for (a scenario run's `--model` overrides included): search and labels use both. */
  modelSpecs: Array<{ alias: string; spec: string }>;
  /** `counts.total` and `counts.failed`, as `paideia runs` shows them. */
  trials: number; failures: number;
  counts: TrialCountsAnswer;
  costUsd: number; costIncomplete: boolean; createdAt: string; updatedAt: string; note: string | null;
  /** Stored as running, but no live process holds claims on it (killed, or its machine went down), as `paideia runs` tells it. */
  interrupted: boolean;
  /** The command that continues an interrupted run, else null. */
  resume: string | null;
  live: Progress | null;
}

export interface ResultRow { model: string; measure: string; mean: number | null; low: number | null; high: number | null; n: number; unscored: number }

/** `GET /api/runs/<id>/state`: what changes when a run is resumed or ends elsewhere. */
export interface RunState {
  status: string;
  updatedAt: string;
  /** Stored as running, with no live process working on it (runInterrupted). */
  interrupted: boolean;
  /** A session of this server runs it now. */
  live: boolean;
}

/** `GET /api/runs/<id>`. */
export interface RunDetail {
  id: string; kind: string; status: string; note: string | null; createdAt: string; updatedAt: string;
  models: Array<{ alias: string; spec: string }>; repeats: number; spentUsd: number;
  /** Some model of the run has no price: the true cost is `spentUsd` plus an unknown amount (as the runs list says). */
  costIncomplete: boolean;
  counts: TrialCountsAnswer;
  results: ResultRow[];
  /** Per model, the sum and count of the stored scores of its own trials: the live page's running mean starts from them. */
  scoresSoFar: Array<{ model: string; sum: number; n: number }>;
  live: { progress: Progress; warnings: string[]; finished: boolean; error: string | null } | null;
  /** As in the run list: stored as running, but no live process works on it. */
  interrupted: boolean;
  resumable: boolean;
  /** A scenario run with judgments: its dialogues can be scored blind by experts (share links). */
  judged: boolean;
}

/** `DELETE /api/runs/<id>`: what went with the run. */
export interface DeleteAnswer { deleted: { runId: string; trials: number; calls: number; scores: number; judgments: number; artifacts: number; blobs: number } }

/** The 409 of `DELETE /api/runs/<id>` while workers hold live claims: who holds what, until when; `?force=1` deletes it anyway. */
export interface RunInUseAnswer {
  error: string;
  inUse: { holders: Array<{ workerId: string; pid: number; host: string; trials: number; expiresAt: string }> };
}

export interface Estimate { mean: number | null; n: number; low: number | null; high: number | null }

/** A paired difference a − b with its 95% interval, and the report's words for it (the overlap warning). */
export interface PairedDifference {
  /** What was compared: a test (suite runs; `test · language` per language) or `score` (scenario runs). */
  scope: string;
  a: string; b: string; n: number;
  difference: number | null; low: number | null; high: number | null;
  overlap: boolean;
  /** The overlap warning, or null (suites) / who scores higher (scenarios) when apart. */
  note: string | null;
}

export interface Tau { tau: number; low90: number; high90: number; low95: number; high95: number; pValue: number | null }
export interface AlignmentRow { rater: string; prompt: string; item: string; n: number; nUnits: number; ratings: number; unscored: number; tauExperts: Tau | null; tauOutcome: Tau | null }
export interface BaselineRow { name: string; kind: 'experts' | 'observation-column' | 'unit-column'; item: string; tauExperts: Tau | null; tauOutcome: Tau | null }
export type LearningKey = 'pre' | 'post' | 'gain' | 'near' | 'far' | 'd1' | 'd2';
export interface DeckPoint { x: number; y: number; label: string }
export interface TauAnswer { alignment: AlignmentRow[]; baselines: BaselineRow[]; notes: string[] }

/** `GET /api/runs/<id>/charts`: the report's figures for the run's kind, null or empty where it has none. */
export interface ChartsAnswer {
  radar: { axes: string[]; models: Array<{ model: string; isBaseline: boolean; dimensions: Record<string, Estimate> }> } | null;
  comparisons: PairedDifference[];
  /** Also the answer of `POST /api/runs/<id>/charts/alignment`. */
  tau: TauAnswer | null;
  learning: { generators: Array<{ name: string; baseline: boolean } & Record<LearningKey, Estimate>>; decks: Record<'d1' | 'd2', DeckPoint[]> } | null;
}
