import type { CallOutline, Score, StoredError, VersionedItem } from '../core/index.js';

type Row = Record<string, unknown>;
const parse = <T>(v: unknown): T => JSON.parse(v as string) as T;

/** Rows of a run's streamed reads (TrialPage, item pages) as records, the same in every store. */
export function pageRows(runId: string) {
  // A run has a few scorers: each ref is one object however many pages read it, not one per score.
  const refs = new Map<string, Score['scorer']>();
  const refOf = (r: Row) => {
    const key = `${r.scorer_name}\u0000${r.scorer_version}\u0000${r.scorer_args}`;
    let ref = refs.get(key);
    if (!ref) {
      ref = { name: r.scorer_name as string, version: r.scorer_version as string, args: parse(r.scorer_args) };
      if (refs.size < 1000) refs.set(key, ref);
    }
    return ref;
  };
  return {
    call: (r: Row): CallOutline => ({
      seq: Number(r.seq), trialId: r.trial_id as string, step: r.step as number, status: r.status as 'ok' | 'error',
      ...(r.text != null ? { text: String(r.text) } : {}), ...(r.error != null ? { error: parse<StoredError>(r.error) } : {}),
      costUsd: r.cost_usd as number,
    }),
    score: (r: Row): Score => ({
      runId, trialId: r.trial_id as string, scorer: refOf(r), value: r.value as number | null,
      ...(r.reason != null ? { reason: r.reason as string } : {}),
      ...(r.details != null ? { details: parse(r.details) } : {}),
    }),
    item: (r: Row): VersionedItem => ({
      item: parse(r.body), hash: r.hash as string,
      ...(r.file ? { file: r.file as string } : {}), ...(r.line ? { line: r.line as number } : {}),
    }),
  };
}

/** pageRows of the run read last, kept while the pages of one run are read (its scorer refs stay shared). */
export function pageRowsOfRun(): (runId: string) => ReturnType<typeof pageRows> {
  let last: { runId: string; rows: ReturnType<typeof pageRows> } | undefined;
  return runId => (last?.runId === runId ? last : (last = { runId, rows: pageRows(runId) })).rows;
}
