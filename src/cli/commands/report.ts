import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import type { ReportFormat } from '../../report/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { commandHint } from '../hint.js';
import { emitReport } from '../report-out.js';
import { runKindOf } from '../run-kinds.js';

interface ReportFlags { format: string; out?: string; store: string; model?: string; experts?: string }

export function registerReport(program: Command): void {
  program.command('report')
    .description('write the report of a stored run (no model is called)')
    .argument('<run-id>')
    .option('--format <format>', 'html, md or json', 'html')
    .option('-o, --out <file>', 'output file, or - for stdout (default .paideia/reports/<run-id>.<ext>)')
    .option('--model <alias>', 'the page of one model: its scores, groups, failure examples and failed trials')
    .option('--experts <file>', "expert scores (observation,item,expert,score): the judges' alignment with them beside the judged scores")
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .action(async (runId: string, f: ReportFlags) => {
      if (!['html', 'md', 'json'].includes(f.format)) throw new ConfigError([{ field: '--format', message: `expected html, md or json, got "${f.format}"` }]);
      const store = await openStore(f.store, { mustExist: true, readOnly: true });
      try {
        const run = await store.getRun(runId);
        if (!run) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}` }]);
        // Every kind of run has its report: a scenario run gets the scenario report.
        const text = await runKindOf(run).report(store, run, { format: f.format as ReportFormat, ...(f.model !== undefined ? { model: f.model } : {}), ...(f.experts !== undefined ? { experts: f.experts } : {}) });
        const out = f.out ?? `.paideia/reports/${runId}${f.model === undefined ? '' : `.${f.model.replace(/[^\w.-]+/g, '_')}`}.${f.format}`;
        emitReport(text, out, t => process.stdout.write(t));
      } finally {
        await store.close();
      }
    });
}
