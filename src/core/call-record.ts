import type { ChatRequest, ChatResult } from './chat-model.js';

/** A provider error as stored: enough to report it and to decide whether to retry it. */
export interface StoredError {
  name: string;
  kind?: string;
  message: string;
  statusCode?: number;
  /** True when the response body passed the size limit and was cut: nothing of it was parsed or scored. */
  bodyTruncated?: boolean;
  /** The kept start of a cut body (credentials redacted), for diagnosis. */
  responseBody?: string;
}

/**
 * One model call of a trial, stored the moment it finished. A trial has one call per step
 * (round-trip translation has two). Calls are append-only: a retried trial adds new records and
 * the newest per (trial, step) is the one that counts.
 */
export interface CallRecord {
  /** Store sequence number, set when read back (judgments point at it). */
  seq?: number;
  runId: string;
  trialId: string;
  /** 0-based step within the trial. */
  step: number;
  /** Hash of (model spec, messages, params, tools): the cache key. */
  requestHash: string;
  request: ChatRequest;
  status: 'ok' | 'error';
  result?: ChatResult;
  error?: StoredError;
  /** Attempts made, retries included. */
  attempts: number;
  latencyMs: number;
  costUsd: number;
  /** Answered from an earlier identical request instead of the provider. */
  cached: boolean;
  /** Alias of the model asked, when it is not the trial's own (a judge's call). */
  model?: string;
  /** Base URL the call was sent to (none for in-process models): a resumed run may move to another. */
  endpoint?: string;
  /** ISO time the record was written. */
  createdAt: string;
}
