import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import type { ReportFormat } from '../../report/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { runKindOf } from '../run-kinds.js';

export function registerReport(program: Command): void {
  program.command('report')
    .description('write the report of a stored run (no model is called)')
    .argument('<run-id>')
    .option('--format <format>', 'html, md or json', 'html')
    .option('-o, --out <file>', 'output file (default .paideia/reports/<run-id>.<ext>)')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .action(async (runId: string, f: { format: string; out?: string; store: string }) => {
      if (!['html', 'md', 'json'].includes(f.format)) throw new ConfigError([{ field: '--format', message: `expected html, md or json, got "${f.format}"` }]);
      const store = await openStore(f.store, { mustExist: true });
      try {
        const run = await store.getRun(runId);
        if (!run) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}; list runs with: paideia runs --store ${store.url}` }]);
        const out = f.out ?? `.paideia/reports/${runId}.${f.format}`;
        // Every kind of run has its report: a scenario run gets the scenario report.
        await runKindOf(run).report(store, run, { format: f.format as ReportFormat, out });
        process.stdout.write(`${out}\n`);
      } finally {
        await store.close();
      }
    });
}
