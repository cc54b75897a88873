import type { CallRecord, Store, Trial } from '../core/index.js';
import { eachCall } from '../engine/history.js';

/** Characters of a trial's input and output kept for search and for the table (per text). */
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
}

/**
 * The rows of one run's top-level trials, built from the store's paged reads and kept up to date
 * by reading only the calls stored since (calls are append-only, numbered by `seq`). The browser
 * never holds more than a page; the server holds one compact row per trial.
 */
export class RunIndex {
  readonly rows = new Map<string, TrialRow>();
  private order: TrialRow[] = [];
  private lastSeq = 0;
  private judged = new Map<string, string>();
  private refreshed = 0;
  private stamp = '';
  private pending: Promise<void> | undefined;

  constructor(private readonly store: Store, readonly runId: string) {}

  /**
   * The rows in plan order. They are read again when the run's `stamp` (its status and update
   * time) changed, and while it runs when older than `maxAgeMs`: a finished run is read once.
   */
  async list(stamp: string, running: boolean, maxAgeMs: number): Promise<TrialRow[]> {
    if (stamp !== this.stamp || (running && Date.now() - this.refreshed > maxAgeMs)) {
      this.stamp = stamp;
      this.pending ??= this.refresh().finally(() => { this.pending = undefined; });
      await this.pending;
    }
    return this.order;
  }

  private async refresh(): Promise<void> {
    const started = Date.now();
    const [trials, statuses] = await Promise.all([this.store.listTrials(this.runId), this.store.listTrialStatuses(this.runId)]);
    if (trials.length !== this.rows.size + this.judged.size) this.addTrials(trials);
    for (const row of this.order) row.status = statuses.get(row.id) ?? 'pending';
    for await (const call of eachCall(this.store, this.runId, this.lastSeq)) {
      this.addCall(call);
      this.lastSeq = call.seq ?? this.lastSeq;
    }
    await this.addScores();
    this.refreshed = started;
  }

  private addTrials(trials: Trial[]): void {
    for (const t of trials) {
      if (t.target !== undefined) { this.judged.set(t.id, t.target); continue; }
      if (this.rows.has(t.id)) continue;
      this.rows.set(t.id, {
        id: t.id, index: t.index, itemId: t.itemId, test: t.test, model: t.modelAlias, repeat: t.repeat, kind: t.kind ?? 'item',
        status: 'pending', score: null, costUsd: 0, latencyMs: 0, calls: 0, input: '', output: '',
      });
    }
    this.order = [...this.rows.values()].sort((a, b) => a.index - b.index);
  }

  private addCall(call: CallRecord): void {
    // A judge's calls count towards the cost of the trial it judges.
    const row = this.rows.get(call.trialId) ?? this.rows.get(this.judged.get(call.trialId) ?? '');
    if (!row) return;
    row.costUsd += call.costUsd;
    row.latencyMs += call.latencyMs;
    row.calls += 1;
    if (row.id !== call.trialId) return;
    if (!row.input) row.input = lastUserText(call).slice(0, INDEXED_TEXT);
    const text = call.status === 'ok' ? call.result?.text ?? '' : `error: ${call.error?.message ?? ''}`;
    row.output = text.slice(0, INDEXED_TEXT);
  }

  private async addScores(): Promise<void> {
    const [scores, judgments] = await Promise.all([this.store.listScores(this.runId), this.store.listJudgments(this.runId)]);
    const values = new Map<string, number[]>();
    const add = (id: string, v: number | null) => {
      if (v === null || !Number.isFinite(v)) return;
      (values.get(id) ?? values.set(id, []).get(id)!).push(v);
    };
    for (const s of scores) add(s.trialId, s.value);
    for (const j of judgments) add(j.targetTrialId, j.value);
    for (const row of this.order) {
      const v = values.get(row.id);
      row.score = v?.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
    }
  }
}

function lastUserText(call: CallRecord): string {
  const users = call.request.messages.filter(m => m.role === 'user');
  return users.at(-1)?.content ?? '';
}
