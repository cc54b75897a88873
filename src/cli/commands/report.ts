import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { writeReport, type ReportFormat } from '../../report/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { tests } from '../wiring.js';

export function registerReport(program: Command): void {
  program.command('report')
    .description('write the report of a stored run (no model is called)')
    .argument('<run-id>')
    .option('--format <format>', 'html, md or json', 'html')
    .option('-o, --out <file>', 'output file (default .paideia/reports/<run-id>.<ext>)')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .action(async (runId: string, f: { format: string; out?: string; store: string }) => {
      if (!['html', 'md', 'json'].includes(f.format)) throw new ConfigError([{ field: '--format', message: `expected html, md or json, got "${f.format}"` }]);
      const store = await openStore(f.store, { mustExist: true, readOnly: true });
      try {
        if (!(await store.getRun(runId))) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}; list runs with: paideia runs` }]);
        const out = f.out ?? `.paideia/reports/${runId}.${f.format}`;
        await writeReport(store, runId, { format: f.format as ReportFormat, out, tests });
        process.stdout.write(`${out}\n`);
      } finally {
        await store.close();
      }
    });
}
