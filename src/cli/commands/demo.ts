import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_STORE_URL } from '../../store/index.js';
import { openStore } from '../../store/index.js';
import { writeReport } from '../../report/index.js';
import { commandHint } from '../hint.js';
import { packageRoot } from '../../core/package-root.js';
import { runCommand } from './run.js';
import { tests } from '../wiring.js';

export function registerDemo(program: Command): void {
  program.command('demo')
    .description('run the shipped public sample suites against the built-in baselines and write the HTML report (no network, no key)')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .option('-o, --out <file>', 'report file (default .paideia/reports/<run-id>.html)')
    .action(async (f: { store: string; out?: string }) => {
      const samples = join(packageRoot(), 'data', 'samples');
      const { runId, exitCode } = await runCommand([samples], {
        model: ['baseline:copy', 'baseline:random', 'baseline:gold'], repeats: '3', seed: '20261129', cache: true,
        concurrency: '8', maxAttempts: '5', store: f.store,
      });
      const out = resolve(f.out ?? `.paideia/reports/${runId}.html`);
      const store = await openStore(f.store);
      try {
        await writeReport(store, runId, { format: 'html', out, tests });
      } finally {
        await store.close();
      }
      // As every hint: `npx paideia` only when started through npm, and the store the demo used.
      const next = (...args: string[]) => commandHint(['run', samples, ...args], store.url);
      process.stdout.write(`report: ${out}\n`);
      process.stdout.write([
        '',
        'Next: point it at a real model, e.g. (with OPENAI_API_KEY set)',
        `  ${next('--model', 'openai:gpt-4.1-mini', '--model', 'baseline:gold', '--cost-cap', '1')}`,
        `  ${next('--model', 'ollama:llama3.1:8b')}   # local Ollama`,
        `  ${next('--model', 'openai:my-model', '--base-url', 'http://127.0.0.1:8080/v1')}   # llama.cpp, vLLM, LM Studio`,
        '',
      ].join('\n'));
      process.exitCode = exitCode;
    });
}
