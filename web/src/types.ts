/**
 * The API's answers as the pages read them. The runs, run, delete and charts answers are the
 * server's own types (src/web/api-types.ts, which its routes are checked against); the others are
 * declared here, as src/web/api-*.ts makes them.
 */
export type {
  AlignmentRow, BaselineRow, ChartsAnswer as RunCharts, DeckPoint, DeleteAnswer, Estimate, LearningKey, PairedDifference, Progress,
  ResultRow, RunDetail, RunInUseAnswer, RunListEntry, RunState, Tau, TrialCountsAnswer,
} from '../../src/web/api-types.js';
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
  /** The trial's model or one of its judges has no price: its cost is higher by an unknown amount. */
  costIncomplete: boolean;
}
export interface DeckJudgment { judge: string; dimension: string; repeat: number; value: number | null; fields: Record<string, unknown>; reason: string | null }
export interface LearnerAnswer { phase: string; prompt: string; answer: string | null; reason: string | null; correct: boolean }
export interface DeckLearner { trialId: string; learner: string; puzzleContext: boolean; frames: string; scores: Record<'pretest' | 'posttest' | 'near' | 'far', number | null>; answers: LearnerAnswer[] }
/** The deck a learning trial made or studied (src/web/trial-detail-deck.ts). */
export interface DeckView {
  trialId: string; unit: string; generator: { alias: string; spec: string }; status: 'ok' | 'rejected'; rejected: { reason: string; message: string } | null;
  slides: Array<{ index: number; text: string; png: string | null }>; judgments: DeckJudgment[]; learners: DeckLearner[];
}
