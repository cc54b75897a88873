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
}
