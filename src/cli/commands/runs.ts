import type { Command } from 'commander';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';

export function registerRuns(program: Command): void {
  program.command('runs')
    .description('list stored runs')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .action(async (f: { store: string }) => {
      const store = await openStore(f.store, { mustExist: true, readOnly: true });
      try {
        for (const r of await store.listRuns()) {
          const models = r.config.models.map(m => m.alias).join(',');
          process.stdout.write(`${r.id}\t${r.status}\t${r.createdAt}\t${r.config.itemHashes.length} items\t${models}${r.note ? `\t${r.note}` : ''}\n`);
        }
      } finally {
        await store.close();
      }
    });
}
