import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { renderRunsTable, summarizeRuns } from '../../report/runs-summary.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { registerRunsBundle } from './runs-bundle.js';
import { registerRunsDelete } from './runs-delete.js';

export function registerRuns(program: Command): void {
  const runs = program.command('runs')
    .description('list stored runs: kind, status (an interrupted run with its resume command), models, trials, failures, cost and date, newest first')
    .option('--format <format>', 'table or json', 'table')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .action(async (f: { store: string; format: string }) => {
      if (f.format !== 'table' && f.format !== 'json') throw new ConfigError([{ field: '--format', message: `expected table or json, got "${f.format}"` }]);
      const store = await openStore(f.store, { mustExist: true, readOnly: true });
      try {
        const runs = await summarizeRuns(store);
        process.stdout.write(f.format === 'json' ? `${JSON.stringify(runs, null, 2)}\n` : renderRunsTable(runs));
      } finally {
        await store.close();
      }
    });
  registerRunsDelete(runs);
  registerRunsBundle(runs);
}
