import type { Store } from '../core/index.js';
import { eachCall } from '../engine/history.js';
import { applyResults, readPage, readResults } from './run-index-page.js';
import { addCall, inputOf, newRow, outputOf, type TrialRow } from './run-index-rows.js';

export { INDEXED_TEXT, type TrialRow } from './run-index-rows.js';

/** Top-level trials the build reads (with their judges, statuses and scores) between two turns of the event loop. */
const TRIALS_PER_TURN = 2000;

/** Calls the build reads between two turns of the event loop. */
const YIELD_EVERY = 2000;

/** Trials whose calls are read at once for a page or for a search over whole texts. */
const CALL_BATCH = 200;

/**
 * The rows of one run's top-level trials, built from the store's paged reads and kept up to date
 * by reading only the calls stored since (calls are append-only, numbered by `seq`). The browser
 * never holds more than a page; the server holds one compact row per trial. While the first build
 * runs, a plain page is read from the store for its own trials alone (`page`), so a large run's
 * first page waits neither for the index nor for any read of the whole run.
 */
export class RunIndex {
  readonly rows = new Map<string, TrialRow>();
  private order: TrialRow[] = [];
  private lastSeq = 0;
  private judged = new Map<string, string>();
  private refreshed = 0;
  private stamp = '';
  private pending: Promise<void> | undefined;
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
   * index once built, else (its first build still running) read for those trials alone.
   */
  async page(stamp: string, running: boolean, maxAgeMs: number, offset: number, limit: number): Promise<{ total: number; rows: TrialRow[] }> {
    this.startRefresh(stamp, running, maxAgeMs);
    if (!this.built) return readPage(this.store, this.runId, offset, limit);
    await this.pending;
    return { total: this.order.length, rows: this.order.slice(offset, offset + limit) };
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
        if (!this.built) this.stamp = '';
      });
    }
  }

  private async refresh(): Promise<void> {
    const started = Date.now();
    // An embedded store answers every read at once: without a turn of the event loop now and then,
    // no other request (a first page asked with this build among them) would be answered, or even
    // sent, until the build ends. The first turn lets a page asked with it read its rows first.
    await turn();
    for (let offset = 0, total = 1; offset < total; offset += TRIALS_PER_TURN) {
      const page = await this.store.listTopTrials(this.runId, { offset, limit: TRIALS_PER_TURN });
      total = page.total;
      for (const t of page.trials) if (!this.rows.has(t.id)) this.rows.set(t.id, newRow(t));
      const results = await readResults(this.store, this.runId, page.trials.map(t => t.id));
      for (const [judge, target] of results.judged) this.judged.set(judge, target);
      applyResults(page.trials.map(t => this.rows.get(t.id)!), results);
      await turn();
    }
    // Rows are only ever added: as many as in the plan order means none came since it was sorted.
    if (this.order.length !== this.rows.size) this.order = [...this.rows.values()].sort((a, b) => a.index - b.index);
    let read = 0;
    for await (const call of eachCall(this.store, this.runId, this.lastSeq)) {
      addCall(this.rows, this.judged, call);
      this.lastSeq = call.seq ?? this.lastSeq;
      if (++read % YIELD_EVERY === 0) await turn();
    }
    this.refreshed = started;
    this.built = true;
    this.version += 1;
  }
}

const turn = () => new Promise(resolve => setImmediate(resolve));
