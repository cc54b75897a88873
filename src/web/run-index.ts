import type { Score, Store, Trial, TrialStatus, Judgment } from '../core/index.js';
import { eachCall } from '../engine/history.js';
import { addCall, inputOf, meanScores, newRow, outputOf, type TrialRow } from './run-index-rows.js';

export { INDEXED_TEXT, type TrialRow } from './run-index-rows.js';

/** What a build reads before the calls: enough to draw a page of rows once its calls are read. */
interface Base {
  trials: Trial[];
  statuses: Map<string, Exclude<TrialStatus, 'pending'>>;
  scores: Score[];
  judgments: Judgment[];
}

/** Calls the build reads between two turns of the event loop. */
const YIELD_EVERY = 2000;

/** Trials whose calls are read at once for a page or for a search over whole texts. */
const CALL_BATCH = 200;

/**
 * The rows of one run's top-level trials, built from the store's paged reads and kept up to date
 * by reading only the calls stored since (calls are append-only, numbered by `seq`). The browser
 * never holds more than a page; the server holds one compact row per trial. While the first build
 * reads every call, a plain page is drawn from its trials' own calls (`page`), so a large run's
 * first page does not wait for the whole index.
 */
export class RunIndex {
  readonly rows = new Map<string, TrialRow>();
  private order: TrialRow[] = [];
  private lastSeq = 0;
  private judged = new Map<string, string>();
  private refreshed = 0;
  private stamp = '';
  private pending: Promise<void> | undefined;
  /** Set while the first build runs, once its trials, statuses and scores are read. */
  private base: Promise<Base> | undefined;
  private built = false;
  /** Goes up with every refresh: what was searched in whole texts before may have changed. */
  version = 0;

  constructor(private readonly store: Store, readonly runId: string) {}

  /**
   * The rows in plan order. They are read again when the run's `stamp` (its status and update
   * time) changed, and while it runs when older than `maxAgeMs`: a finished run is read once.
   */
  async list(stamp: string, running: boolean, maxAgeMs: number): Promise<TrialRow[]> {
    this.startRefresh(stamp, running, maxAgeMs);
    await this.pending;
    return this.order;
  }

  /**
   * Rows `offset` to `offset + limit` of the plan, unfiltered, and how many there are: from the
   * index once built, else (its first build still reading calls) from those trials' calls alone.
   */
  async page(stamp: string, running: boolean, maxAgeMs: number, offset: number, limit: number): Promise<{ total: number; rows: TrialRow[] }> {
    this.startRefresh(stamp, running, maxAgeMs);
    if (this.built || !this.base) {
      await this.pending;
      return { total: this.order.length, rows: this.order.slice(offset, offset + limit) };
    }
    const base = await this.base;
    const top = base.trials.filter(t => t.target === undefined).sort((a, b) => a.index - b.index);
    const rows = new Map(top.slice(offset, offset + limit).map(t => [t.id, newRow(t)]));
    const judged = new Map(base.trials.filter(t => t.target !== undefined && rows.has(t.target)).map(t => [t.id, t.target!]));
    for (const call of await this.store.listCalls(this.runId, { trialIds: [...rows.keys(), ...judged.keys()] })) addCall(rows, judged, call);
    const means = meanScores(base.scores, base.judgments);
    for (const row of rows.values()) {
      row.status = base.statuses.get(row.id) ?? 'pending';
      row.score = means.get(row.id) ?? null;
    }
    return { total: top.length, rows: [...rows.values()] };
  }

  /** The whole input and output of trials, read from the store a batch at a time (for a search past INDEXED_TEXT). */
  async *fullTexts(ids: ReadonlyArray<string>): AsyncGenerator<{ id: string; input: string; output: string }> {
    for (let i = 0; i < ids.length; i += CALL_BATCH) {
      const texts = new Map<string, { id: string; input: string; output: string }>();
      for (const call of await this.store.listCalls(this.runId, { trialIds: ids.slice(i, i + CALL_BATCH) })) {
        const t = texts.get(call.trialId) ?? texts.set(call.trialId, { id: call.trialId, input: '', output: '' }).get(call.trialId)!;
        if (!t.input) t.input = inputOf(call);
        t.output = outputOf(call);
      }
      yield* texts.values();
    }
  }

  private startRefresh(stamp: string, running: boolean, maxAgeMs: number): void {
    if (stamp !== this.stamp || (running && Date.now() - this.refreshed > maxAgeMs)) {
      this.stamp = stamp;
      this.pending ??= this.refresh().finally(() => {
        this.pending = undefined;
        // A first build that failed (a store fault) is tried again by the next request.
        if (!this.built) { this.base = undefined; this.stamp = ''; }
      });
    }
  }

  private async refresh(): Promise<void> {
    const started = Date.now();
    const reading = this.readBase();
    if (!this.built) this.base = reading;
    const { trials, statuses, scores, judgments } = await reading;
    if (trials.length !== this.rows.size + this.judged.size) this.addTrials(trials);
    for (const row of this.order) row.status = statuses.get(row.id) ?? 'pending';
    let read = 0;
    for await (const call of eachCall(this.store, this.runId, this.lastSeq)) {
      addCall(this.rows, this.judged, call);
      this.lastSeq = call.seq ?? this.lastSeq;
      // An embedded store answers at once: without a turn of the event loop now and then, no other
      // request (the first page among them) would be answered, or even sent, until the build ends.
      if (++read % YIELD_EVERY === 0) await new Promise(resolve => setImmediate(resolve));
    }
    const means = meanScores(scores, judgments);
    for (const row of this.order) row.score = means.get(row.id) ?? null;
    this.refreshed = started;
    this.built = true;
    this.base = undefined;
    this.version += 1;
  }

  private async readBase(): Promise<Base> {
    const [trials, statuses, scores, judgments] = await Promise.all([
      this.store.listTrials(this.runId), this.store.listTrialStatuses(this.runId), this.store.listScores(this.runId), this.store.listJudgments(this.runId),
    ]);
    return { trials, statuses, scores, judgments };
  }

  private addTrials(trials: Trial[]): void {
    for (const t of trials) {
      if (t.target !== undefined) { this.judged.set(t.id, t.target); continue; }
      if (!this.rows.has(t.id)) this.rows.set(t.id, newRow(t));
    }
    this.order = [...this.rows.values()].sort((a, b) => a.index - b.index);
  }
}
