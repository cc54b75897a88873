import { commandHint, commandPrefix } from '../core/command-hint.js';
import type { RunRecord, Store } from '../core/index.js';
import { defaultTtlMs, holdersLive } from '../engine/claims.js';
import { priceFor } from '../providers/pricing.js';
import { countTrials, type TrialCounts } from './trial-counts.js';
import { textTable } from './text-table.js';

/** One line of `paideia runs`. */
export interface RunSummary {
  id: string;
  /** suite, scenario, validity, learning. */
  kind: string;
  /** As stored: a run whose process was killed stays `running` (see `interrupted`). */
  status: RunRecord['status'];
  /** Stored as running, but no live process holds claims on it (killed, or its machine went down): resume it. */
  interrupted: boolean;
  /** The command that continues an interrupted run, else null. */
  resume: string | null;
  models: string[];
  /** Every trial of the run, of every step kind (judges and learners included), as countTrials counts them. */
  trials: number;
  /** Trials whose newest record of a step is an error (provider failures, never scored as wrong). */
  failures: number;
  /** The same counts in full: done, pending and per step kind. */
  counts: TrialCounts;
  /** Spend of every stored call, judges included, leaving out models whose price is unknown (see costIncomplete). */
  costUsd: number;
  /** Some model has no price in the run's table: the true cost is higher than `costUsd` by an unknown amount. */
  costIncomplete: boolean;
  createdAt: string;
  note: string | null;
}

/** What `paideia runs` lists, newest first, from the store alone. */
export async function summarizeRuns(store: Store): Promise<RunSummary[]> {
  const runs = await store.listRuns();
  const out: RunSummary[] = [];
  for (const run of runs) {
    // Trial statuses and the spend are stored per trial and per call: no run's calls are loaded.
    const [counts, costUsd, stale] = await Promise.all([countTrials(store, run.id), store.spentUsd(run.id), runInterrupted(store, run)]);
    out.push({
      id: run.id, kind: run.kind, status: run.status, interrupted: stale, resume: stale ? commandHint(['run', '--resume', run.id], store.url) : null, models: run.config.models.map(m => m.alias), trials: counts.total,
      failures: counts.failed, counts,
      costUsd,
      costIncomplete: unpricedModels(run).length > 0,
      createdAt: run.createdAt, note: run.note ?? null,
    });
  }
  return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/**
 * A run stored as running that no live process works on: its claims are held by none (a kill -9
 * on this host shows at once), or, with no claims, it has not changed within a lease (one that did
 * may still be planning: its trials are claimed once they are stored). `paideia runs` and the web
 * app (its run list and run page) show such a run by this one rule.
 */
export async function runInterrupted(store: Store, run: RunRecord): Promise<boolean> {
  if (run.status !== 'running') return false;
  // Claims say at once: held by no live process (a kill -9 on this host), the run is interrupted.
  const holders = await store.listClaimHolders(run.id);
  if (holders.length > 0) return !holdersLive(holders);
  // None held: a run that changed within a lease may still be planning.
  return Date.now() - Date.parse(run.updatedAt) >= defaultTtlMs();
}

/** Aliases of the run's models with no price in its table: their calls cost an unknown amount (the web app says "+ unknown" for them). */
export function unpricedModels(run: RunRecord): string[] {
  return run.config.models.filter(m => m.provider !== 'baseline' && !priceFor(run.prices, m, { endpoint: run.config.endpoints?.[m.alias] })).map(m => m.alias);
}

const usd = (s: RunSummary) => `$${s.costUsd.toFixed(4)}${s.costIncomplete ? ' + unknown' : ''}`;

/** The `paideia runs` table, then how to resume each interrupted run. */
export function renderRunsTable(runs: RunSummary[]): string {
  if (!runs.length) return `no runs in this store yet; start one with: ${[...commandPrefix(), 'demo'].join(' ')}\n`;
  const table = textTable(['run', 'kind', 'status', 'models', 'trials', 'failures', 'cost', 'date'],
    runs.map(r => [r.id, r.kind, r.interrupted ? 'stopped (interrupted)' : r.status, r.models.join(', '), String(r.trials), String(r.failures), usd(r), r.createdAt.slice(0, 16).replace('T', ' ')]));
  const notes = runs.filter(r => r.resume).map(r => `run ${r.id} was interrupted (no process is working on it); resume it with: ${r.resume}\n`);
  return table + notes.join('');
}
