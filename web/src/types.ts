/** The API's answers as the pages read them (src/web/api-*.ts makes them). */
export interface RunListEntry {
  id: string; kind: string; status: string; models: string[]; trials: number; failures: number;
  costUsd: number; costIncomplete: boolean; createdAt: string; updatedAt: string; note: string | null;
  live: Progress | null;
}
export interface Progress { total: number; done: number; failed: number; spentUsd: number; stopping: boolean }
export interface ResultRow { model: string; measure: string; mean: number | null; low: number | null; high: number | null; n: number; unscored: number }
export interface RunDetail {
  id: string; kind: string; status: string; note: string | null; createdAt: string; updatedAt: string;
  models: Array<{ alias: string; spec: string }>; repeats: number; spentUsd: number;
  counts: { total: number; done: number; failed: number; pending: number };
  results: ResultRow[];
  live: { progress: Progress; warnings: string[]; finished: boolean; error: string | null } | null;
  resumable: boolean;
  judged: boolean;
}
export interface TrialRow {
  id: string; index: number; itemId: string; test: string; model: string; repeat: number; kind: string;
  status: 'pending' | 'done' | 'failed'; score: number | null; costUsd: number; latencyMs: number; calls: number; input: string; output: string;
}
export interface TrialPage { total: number; offset: number; limit: number; rows: TrialRow[] }
export interface Message { role: string; content: string }
export interface CallView {
  seq: number | null; step: number; status: 'ok' | 'error'; model: string | null; attempts: number; latencyMs: number; costUsd: number;
  cached: boolean; createdAt: string; usage: { inputTokens: number; outputTokens: number } | null; text: string | null;
  error: { name: string; message: string; statusCode?: number } | null;
  request: { messages: Message[]; params: unknown }; response: unknown; toolCalls: Array<{ name: string; arguments: string }>;
}
export interface Judgment { rater: { alias: string; spec: string }; promptVariant: string; repeat: number; fields: Record<string, unknown>; value: number | null; reason?: string; raw?: string }
export interface TrialDetail {
  trial: { id: string; runId: string; itemId: string; test: string; modelAlias: string; modelSpec: string; repeat: number; kind?: string; variant?: string };
  calls: CallView[];
  scores: Array<{ scorer: { name: string; version: string }; value: number | null; reason?: string }>;
  judges: Array<{ trial: { id: string; modelAlias: string }; judgments: Judgment[]; calls: CallView[] }>;
  deck: DeckView | null;
}
export interface Estimate { mean: number | null; n: number; low: number | null; high: number | null }
export interface PairedDifference { scope: string; a: string; b: string; n: number; difference: number | null; low: number | null; high: number | null; overlap: boolean; note: string | null }
export interface Tau { tau: number; low90: number; high90: number; low95: number; high95: number; pValue: number | null }
export interface AlignmentRow { rater: string; prompt: string; item: string; n: number; nUnits: number; ratings: number; unscored: number; tauExperts: Tau | null; tauOutcome: Tau | null }
export interface BaselineRow { name: string; kind: 'experts' | 'observation-column' | 'unit-column'; item: string; tauExperts: Tau | null; tauOutcome: Tau | null }
export type LearningKey = 'pre' | 'post' | 'gain' | 'near' | 'far' | 'd1' | 'd2';
export interface DeckPoint { x: number; y: number; label: string }
/** src/web/results-charts.ts: the figures of the run's report, by kind. */
export interface RunCharts {
  radar: { axes: string[]; models: Array<{ model: string; isBaseline: boolean; dimensions: Record<string, Estimate> }> } | null;
  comparisons: PairedDifference[];
  tau: { alignment: AlignmentRow[]; baselines: BaselineRow[]; notes: string[] } | null;
  learning: { generators: Array<{ name: string; baseline: boolean } & Record<LearningKey, Estimate>>; decks: Record<'d1' | 'd2', DeckPoint[]> } | null;
}
export interface DeckJudgment { judge: string; dimension: string; repeat: number; value: number | null; fields: Record<string, unknown>; reason: string | null }
export interface LearnerAnswer { phase: string; prompt: string; answer: string | null; reason: string | null; correct: boolean }
export interface DeckLearner { trialId: string; learner: string; puzzleContext: boolean; frames: string; scores: Record<'pretest' | 'posttest' | 'near' | 'far', number | null>; answers: LearnerAnswer[] }
/** The deck a learning trial made or studied (src/web/trial-detail-deck.ts). */
export interface DeckView {
  trialId: string; unit: string; generator: { alias: string; spec: string }; status: 'ok' | 'rejected'; rejected: { reason: string; message: string } | null;
  slides: Array<{ index: number; text: string; png: string | null }>; judgments: DeckJudgment[]; learners: DeckLearner[];
}
