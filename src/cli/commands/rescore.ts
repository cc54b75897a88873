import { commandHint } from '../hint.js';
import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { runKindOf } from '../run-kinds.js';

export function registerRescore(program: Command): void {
  program.command('rescore')
    .description('derive a stored run\'s scores and judgments again from its stored calls with the current scorers and rubrics (no model is called)')
    .argument('<run-id>')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .option('--scenario <file>', 'scenario runs: the scenario file to rescore with (default: the file the run was made from)')
    .action(async (runId: string, f: { store: string; scenario?: string }) => {
      const store = await openStore(f.store, { mustExist: true });
      try {
        const run = await store.getRun(runId);
        if (!run) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}` }]);
        process.stdout.write(`${await runKindOf(run).rescore(store, run, f.scenario ? { scenario: f.scenario } : {})}\n`);
      } finally {
        await store.close();
      }
    });
}
