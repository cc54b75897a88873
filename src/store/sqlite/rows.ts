import type { CallRecord, ChatResult, RunRecord, RunStatus, Trial } from '../../core/index.js';

type Row = Record<string, unknown>;
const parse = <T>(v: unknown): T => JSON.parse(v as string) as T;

export function toRun(r: Row): RunRecord {
  return {
    id: r.id as string, kind: (r.kind as string | null) ?? 'suite', createdAt: r.created_at as string, updatedAt: r.updated_at as string,
    status: r.status as RunStatus, config: parse(r.config), prices: parse(r.prices),
    paideiaVersion: r.paideia_version as string, ...(r.note != null ? { note: r.note as string } : {}),
  };
}

/** A trial's columns in the order of the trials table's insert (positional binding is the cheap one). */
export function trialRow(t: Trial): unknown[] {
  return [
    t.runId, t.id, t.index, t.itemId, t.itemHash, t.test, t.modelAlias, t.modelSpec, t.promptVersion, t.repeat, t.seed,
    t.kind ?? null, t.variant ?? null, t.target ?? null,
  ];
}

export function toTrial(r: Row): Trial {
  return {
    id: r.id as string, runId: r.run_id as string, index: r.idx as number, itemId: r.item_id as string,
    itemHash: r.item_hash as string, test: r.test as string, modelAlias: r.model_alias as string,
    modelSpec: r.model_spec as string, promptVersion: r.prompt_version as string,
    repeat: r.repeat as number, seed: r.seed as number,
    ...(r.kind != null ? { kind: r.kind as string } : {}),
    ...(r.variant != null ? { variant: r.variant as string } : {}),
    ...(r.target != null ? { target: r.target as string } : {}),
  };
}

export function toCall(r: Row): CallRecord {
  return {
    seq: r.seq as number,
    runId: r.run_id as string, trialId: r.trial_id as string, step: r.step as number,
    requestHash: r.request_hash as string, request: parse(r.request), status: r.status as 'ok' | 'error',
    ...(r.result != null ? { result: parse<ChatResult>(r.result) } : {}),
    ...(r.error != null ? { error: parse(r.error) } : {}),
    attempts: r.attempts as number, latencyMs: r.latency_ms as number, costUsd: r.cost_usd as number,
    cached: r.cached === 1, createdAt: r.created_at as string,
    ...(r.model != null ? { model: r.model as string } : {}),
  };
}
