import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { buildSuites, describeBuilders } from '../../suites/build.js';
import { loadAudit } from '../../suites/audit.js';
import { loadBuildConfig } from '../../suites/build-config.js';
import { itemFiles, loadItems } from '../../suites/load.js';
import { numberFlag, positiveInt } from '../options.js';
import { packageRoot } from '../../core/package-root.js';

export function registerSuites(program: Command): void {
  const suites = program.command('suites').description('build and list item suites');
  suites.command('build')
    .description('build the tutor suites from licensed sources (no answer is ever written by a model)')
    .addHelpText('after', () => `\nBuilders and their rules:\n${describeBuilders()}`)
    .option('--sources <dir>', 'folder of source folders (bunamo/, irish-sentence-bank/, blimp/, or your own of the same format)', 'data/sources')
    .option('--private <dir>', 'where the full item sets go (keep it out of git)', 'private/suites')
    .option('--samples <dir>', 'where the 20 public sample items per test, attributions and build reports go', 'data/samples')
    .option('--seed <n>', 'seed of every sampling choice', '20261129')
    .option('--per-test <n>', 'items to aim for in each full test set', '200')
    .option('--audit <file>', 'JSONL of checked items, one {"id", "flagged", "reason"?, "by"?} per line: each test\'s build report gives the flagged share with a Clopper-Pearson interval')
    .option('--config <file>', 'YAML/JSON naming which builders run over which source folders (another language, your own files) and their credits; see docs/suites.md')
    .action(async (f: { sources: string; private: string; samples: string; seed: string; perTest: string; config?: string; audit?: string }) => {
      const custom = f.config ? loadBuildConfig(f.config) : undefined;
      const report = await buildSuites({
        ...(f.audit ? { audit: loadAudit(f.audit) } : {}),
        ...(custom ? { builders: custom.builders, credits: custom.credits } : {}),
        sourcesDir: f.sources, privateDir: f.private, samplesDir: f.samples,
        seed: numberFlag('--seed', f.seed, n => Number.isInteger(n) && n >= 0, 'a whole number >= 0')!,
        targetPerTest: numberFlag('--per-test', f.perTest, positiveInt, 'a whole number >= 1')!,
      });
      for (const suite of report.suites) {
        for (const t of suite.tests) {
          const short = t.shortfalls.map(x => `${x.got}/${x.wanted}: ${x.reason}`).join('; ');
          process.stdout.write(`${suite.suite}/${t.test}\t${t.items} items (${t.public} public)${short ? `\tshortfall ${short}` : ''}\n`);
        }
      }
      process.stdout.write(`full sets in ${f.private}; public samples, attributions and build reports in ${f.samples}\n`);
      if (report.suites.every(s => s.tests.every(t => t.items === 0))) {
        throw new ConfigError([{ field: '--sources', message: `no items could be built from ${f.sources}: none of the source folders the builders read is there (see the shortfalls above)` }]);
      }
    });
  suites.command('list')
    .description('list item files and their tests')
    .argument('[paths...]', 'files or folders (default: the shipped public samples)')
    .action((paths: string[]) => {
      const roots = paths.length ? paths : [join(packageRoot(), 'data', 'samples')].filter(p => existsSync(p));
      for (const file of roots.flatMap(itemFiles)) {
        const items = loadItems([file]);
        const byTest = new Map<string, number>();
        for (const v of items) byTest.set(v.item.test, (byTest.get(v.item.test) ?? 0) + 1);
        process.stdout.write(`${file}\t${[...byTest].map(([t, n]) => `${t}:${n}`).join(' ')}\n`);
      }
    });
}
