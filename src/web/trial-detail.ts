import type { CallRecord, Env, JsonValue, Store } from '../core/index.js';
import { redactorFor } from '../providers/shared/redact.js';
import { deckView } from './trial-detail-deck.js';

/** Replaces every credential the server knows of in a text. */
export type Redact = (text: string) => string;

const SECRET_NAME = /key|token|secret|password/i;

/**
 * The redactor for the server's own credentials: the value of every environment variable whose
 * name says it is one (OPENAI_API_KEY, ...), in any spelling a stored response may echo it in.
 */
export function environmentRedactor(env: Env): Redact {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value && SECRET_NAME.test(name)) headers[`x-${name}-token`] = value;
  return redactorFor(headers);
}

/** A trial with everything stored about it: its calls, its scores, its judges with their calls, and its deck. */
export async function trialDetail(store: Store, runId: string, trialId: string, redact: Redact): Promise<JsonValue | undefined> {
  // Read for this trial alone: a trial of a large run opens as fast as one of a small run.
  const [[trial], judges] = await Promise.all([store.listTrials(runId, { trialIds: [trialId] }), store.listJudgeTrials(runId, [trialId])]);
  if (!trial) return undefined;
  const ids = [trialId, ...judges.map(j => j.id)];
  const [calls, scores, judgments, deck] = await Promise.all([
    store.listCalls(runId, { trialIds: ids }), store.listScores(runId, { trialIds: [trialId] }), store.listJudgments(runId, { targetTrialIds: [trialId] }),
    deckView(store, runId, trialId),
  ]);
  const clean = (value: unknown): JsonValue => JSON.parse(redact(JSON.stringify(value ?? null))) as JsonValue;
  return clean({
    trial,
    calls: calls.filter(c => c.trialId === trialId).map(callView),
    scores: scores.filter(s => s.trialId === trialId),
    judges: judges.map(j => ({
      trial: j,
      judgments: judgments.filter(x => x.trialId === j.id),
      calls: calls.filter(c => c.trialId === j.id).map(callView),
    })),
    // A learning run's deck this trial made or studied: slides beside judgments and answers.
    deck: deck ?? null,
  });
}

function callView(c: CallRecord) {
  return {
    seq: c.seq ?? null, step: c.step, status: c.status, model: c.model ?? null, attempts: c.attempts, latencyMs: c.latencyMs,
    costUsd: c.costUsd, cached: c.cached, createdAt: c.createdAt, usage: c.result?.usage ?? null,
    text: c.result?.text ?? null, error: c.error ?? null, request: c.request, response: c.result?.raw ?? null,
    toolCalls: c.result?.toolCalls ?? [],
  };
}
