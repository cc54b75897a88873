import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { rescoreRun } from '../../engine/rescore.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { scorers, tests } from '../wiring.js';

export function registerRescore(program: Command): void {
  program.command('rescore')
    .description('score a stored run again from its stored answers with the current scorers (no model is called)')
    .argument('<run-id>')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .action(async (runId: string, f: { store: string }) => {
      const store = await openStore(f.store, { mustExist: true });
      try {
        if (!(await store.getRun(runId))) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}` }]);
        const { scored } = await rescoreRun(store, runId, tests, scorers);
        process.stdout.write(`rescored ${scored} trial(s) of ${runId}\n`);
      } finally {
        await store.close();
      }
    });
}
