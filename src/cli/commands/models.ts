import type { Command } from 'commander';
import { PROVIDERS } from '../../core/index.js';
import { loadPriceTable } from '../../providers/pricing.js';

export function registerModels(program: Command): void {
  program.command('models')
    .description('list providers and the price table in force')
    .option('--prices <file>', 'price table JSON instead of the shipped one')
    .action((f: { prices?: string }) => {
      const table = loadPriceTable(f.prices);
      process.stdout.write(`providers: ${PROVIDERS.join(', ')} (spec: provider:model, alias=provider:model)\n`);
      process.stdout.write(`baselines: baseline:copy, baseline:gold, baseline:random, baseline:script\n`);
      process.stdout.write(`prices (USD per million tokens, input/output) from ${table.source}, read ${table.date}:\n`);
      for (const [spec, p] of Object.entries(table.models).sort()) process.stdout.write(`  ${spec}\t${p.input}\t${p.output}\n`);
    });
}
