import type { CallRecord, ChatResult, RunRecord, RunStatus, Trial, TrialStatus, TrialStatusCount } from '../../core/index.js';

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

/**
 * One copy of each string that repeats across a large read (a run's few models, tests and
 * prompt versions), instead of one per row: a report of 200,000 trials holds them all at once.
 */
export function interner(): (s: string) => string {
  const seen = new Map<string, string>();
  return s => {
    const kept = seen.get(s);
    if (kept !== undefined) return kept;
    if (seen.size < 10_000) seen.set(s, s);
    return s;
  };
}

/** A row of the status count (kind, status, n, first): the same in SQLite and PostgreSQL. */
export function statusCount(r: Row): TrialStatusCount {
  return { kind: (r.kind as string | null) ?? null, status: r.status as TrialStatus, trials: Number(r.n), firstIndex: Number(r.first) };
}

export function toTrial(r: Row, same: (s: string) => string = s => s): Trial {
  return {
    id: r.id as string, runId: same(r.run_id as string), index: r.idx as number, itemId: r.item_id as string,
    itemHash: r.item_hash as string, test: same(r.test as string), modelAlias: same(r.model_alias as string),
    modelSpec: same(r.model_spec as string), promptVersion: same(r.prompt_version as string),
    repeat: r.repeat as number, seed: r.seed as number,
    ...(r.kind != null ? { kind: same(r.kind as string) } : {}),
    ...(r.variant != null ? { variant: same(r.variant as string) } : {}),
    ...(r.target != null ? { target: r.target as string } : {}),
  };
}

export function toCall(r: Row, same: (s: string) => string = s => s): CallRecord {
  return {
    seq: r.seq as number,
    runId: same(r.run_id as string), trialId: r.trial_id as string, step: r.step as number,
    requestHash: r.request_hash as string, request: parse(r.request), status: r.status as 'ok' | 'error',
    ...(r.result != null ? { result: parse<ChatResult>(r.result) } : {}),
    ...(r.error != null ? { error: parse(r.error) } : {}),
    attempts: r.attempts as number, latencyMs: r.latency_ms as number, costUsd: r.cost_usd as number,
    cached: r.cached === 1, createdAt: r.created_at as string,
    ...(r.model != null ? { model: same(r.model as string) } : {}),
    ...(r.endpoint != null ? { endpoint: same(r.endpoint as string) } : {}),
  };
}
