import type { CallRecord, Trial } from '../core/index.js';

/** Characters of a trial's input and output kept in the index for the table and for search (per text). */
export const INDEXED_TEXT = 2000;

/** One row of a run's trial table: what the list shows and what its filters read. */
export interface TrialRow {
  id: string;
  index: number;
  itemId: string;
  test: string;
  model: string;
  repeat: number;
  kind: string;
  status: 'pending' | 'done' | 'failed';
  /** Mean of the trial's scores and of the judgments of it (null: none, or all unscored). */
  score: number | null;
  costUsd: number;
  latencyMs: number;
  calls: number;
  /** Last user message of its first call and answer of its last call, cut to INDEXED_TEXT. */
  input: string;
  output: string;
  /** The stored text is longer than what the row keeps: a search reads it whole from the store. */
  inputCut: boolean;
  outputCut: boolean;
}

export function newRow(t: Trial): TrialRow {
  return {
    id: t.id, index: t.index, itemId: t.itemId, test: t.test, model: t.modelAlias, repeat: t.repeat, kind: t.kind ?? 'item',
    status: 'pending', score: null, costUsd: 0, latencyMs: 0, calls: 0, input: '', output: '', inputCut: false, outputCut: false,
  };
}

/** What a trial asked (the last user message of its first call) and answered (its last call, or that call's error). */
export const inputOf = (call: CallRecord): string => call.request.messages.filter(m => m.role === 'user').at(-1)?.content ?? '';
export const outputOf = (call: CallRecord): string => (call.status === 'ok' ? call.result?.text ?? '' : `error: ${call.error?.message ?? ''}`);

/**
 * Count a call towards its row: a judge's calls count towards the cost of the trial it judges
 * (`judged` maps judge trial to target); only the trial's own calls give its texts.
 */
export function addCall(rows: ReadonlyMap<string, TrialRow>, judged: ReadonlyMap<string, string>, call: CallRecord): void {
  const row = rows.get(call.trialId) ?? rows.get(judged.get(call.trialId) ?? '');
  if (!row) return;
  row.costUsd += call.costUsd;
  row.latencyMs += call.latencyMs;
  row.calls += 1;
  if (row.id !== call.trialId) return;
  if (!row.input && !row.inputCut) {
    const input = inputOf(call);
    row.input = input.slice(0, INDEXED_TEXT);
    row.inputCut = input.length > INDEXED_TEXT;
  }
  const output = outputOf(call);
  row.output = output.slice(0, INDEXED_TEXT);
  row.outputCut = output.length > INDEXED_TEXT;
}

/** Mean of each trial's finite scores and judgment values. */
export function meanScores(scores: ReadonlyArray<{ trialId: string; value: number | null }>, judgments: ReadonlyArray<{ targetTrialId: string; value: number | null }>): Map<string, number> {
  const sums = new Map<string, [number, number]>();
  const add = (id: string, v: number | null) => {
    if (v === null || !Number.isFinite(v)) return;
    const s = sums.get(id) ?? sums.set(id, [0, 0]).get(id)!;
    s[0] += v; s[1] += 1;
  };
  for (const s of scores) add(s.trialId, s.value);
  for (const j of judgments) add(j.targetTrialId, j.value);
  return new Map([...sums].map(([id, [sum, n]]) => [id, sum / n]));
}
