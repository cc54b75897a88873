import { join } from 'node:path';
import type { Command } from 'commander';
import { stripControl } from '../../core/index.js';
import { packageRoot } from '../../core/package-root.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { runWorker } from '../../worker.js';
import { raisedCapArgs } from '../stop-hints.js';
import { EXIT_CODES } from '../exit-codes.js';
import { commandHint } from '../hint.js';
import { numberFlag, positiveInt } from '../options.js';

interface WorkerFlags { store: string; run?: string; concurrency?: string; batch?: string; follow?: boolean }

/** Work on the store's planned runs until no trial is left that this process could take. */
export async function workerCommand(f: WorkerFlags): Promise<number> {
  const concurrency = numberFlag('--concurrency', f.concurrency, positiveInt, 'a whole number >= 1');
  const batch = numberFlag('--batch', f.batch, positiveInt, 'a whole number >= 1');
  const store = await openStore(f.store);
  const stop = new AbortController();
  const abort = new AbortController();
  const onSigint = () => {
    process.stderr.write('\nfinishing the calls in flight; press Ctrl-C again to abort them\n');
    stop.abort();
    process.once('SIGINT', () => abort.abort());
  };
  const onSigterm = () => { stop.abort(); abort.abort(); };
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigterm);
  try {
    const summary = await runWorker({
      store, ...(f.run ? { runId: f.run } : {}), ...(concurrency ? { concurrency } : {}), ...(batch ? { batch } : {}),
      follow: f.follow ?? false, stopSignal: stop.signal, signal: abort.signal,
    });
    for (const r of summary.runs) {
      const why = r.deleted ? '; the run was deleted from the store meanwhile' : r.stoppedBy === 'cost-cap' ? '; stopped by the run\'s cost cap' : r.stoppedBy ? `; stopped (${r.stoppedBy})` : '';
      process.stderr.write(`run ${r.runId}: this worker finished ${r.done} trial(s), ${r.failed} failed, in ${r.batches} batch(es)${why}\n`);
      const again = commandHint(['worker', '--run', r.runId], store.url);
      const retry = commandHint(['run', '--resume', r.runId, '--retry-errors'], store.url);
      if (r.stoppedBy === 'cost-cap' && r.cap) {
        const cap = raisedCapArgs({ stoppedBy: 'cost-cap', ...r.cap }, r.cap.capUsd);
        process.stderr.write(`  the next call could pass its cap of $${r.cap.capUsd} ($${r.cap.spentUsd.toFixed(4)} spent); raise it for its workers with: ${commandHint(['run', '--resume', r.runId, ...cap, '--plan-only'], store.url)}, then start them again: ${again}\n`);
      } else if (r.stoppedBy === 'unreachable' && r.unreachable) {
        process.stderr.write(`  nothing answers at ${r.unreachable.endpoint} (${stripControl(r.unreachable.error)}); its trials stay pending. Start the model server there, then start the workers again: ${again}`
          + `${r.failed > 0 ? `; the ${r.failed} trial(s) that failed here before (their calls spent their retries on it) are asked again by: ${retry}` : ''}\n`);
      } else if (r.stoppedBy === 'interrupt') {
        process.stderr.write(`  its trials in this worker's hands stay pending; start workers again: ${again}\n`);
      } else if (!r.stoppedBy && !r.deleted && (r.runFailed ?? r.failed) > 0) {
        process.stderr.write(`  the run has ${r.runFailed ?? r.failed} failed trial(s) (provider errors or a server gone, not scored as wrong); ask them again with: ${retry}\n`);
      }
    }
    if (!summary.runs.length) process.stderr.write(`no run with work left in ${store.url}; plan one with: ${commandHint(['run', join(packageRoot(), 'data', 'samples', 'irish'), '--model', 'baseline:gold', '--plan-only'], store.url)}\n`);
    if (summary.runs.some(r => r.stoppedBy)) return EXIT_CODES.stopped;
    return summary.runs.some(r => !r.deleted && (r.runFailed ?? r.failed) > 0) ? EXIT_CODES.trialsFailed : EXIT_CODES.ok;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    await store.close();
  }
}

export function registerWorker(program: Command): void {
  program.command('worker')
    .description('claim and run trials of stored runs (planned with run --plan-only) until none is left; start any number, on any machines sharing a postgres:// store')
    .option('--store <url>', `store URL: postgres://USER@HOST[:PORT]/DATABASE, or sqlite:<path> (default ${DEFAULT_STORE_URL})`, DEFAULT_STORE_URL)
    .option('--run <run-id>', 'only this run (default: every run with work left)')
    .option('--concurrency <n>', 'concurrent calls per provider (default: what the run was planned with)')
    .option('--batch <n>', 'trials claimed at a time (default 16 per concurrent call, at least 64, and 1/50 of a large run)')
    .option('--follow', 'keep waiting for new runs instead of ending when none is left')
    .action(async (f: WorkerFlags) => {
      process.exitCode = await workerCommand(f);
    });
}
