import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { batchSynthesis } from '../../scenarios/synthesis/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { EXIT_CODES } from '../exit-codes.js';
import { numberFlag, positiveInt } from '../options.js';
import { guarded, processIO, type ScenarioIO } from './scenario-io.js';
import { synthesisSetup, type SynthesizeFlags } from './scenario-tools.js';

export interface BatchFlags extends Omit<SynthesizeFlags, 'out' | 'name'> {
  types?: string;
  subjects?: string;
  grades?: string;
  outDir?: string;
  concurrency?: string;
}

const list = (flag: string, v: string | undefined, issues: ConfigError['issues']): string[] => {
  const items = (v ?? '').split(',').map(s => s.trim()).filter(Boolean);
  if (items.length === 0) issues.push({ field: flag, message: `give a comma-separated list, e.g. ${flag} ${flag === '--grades' ? '"grades 1-3,grades 4-6"' : flag === '--subjects' ? 'maths,physics' : '"knowledge explanation,socratic tutoring"'}` });
  return items;
};

/** `paideia scenario synthesize-batch`: one stored, resumable synthesis per grid cell; 0 all written, 1 some cells failed, 2 bad input, 3 left to do. */
export async function scenarioBatchCommand(f: BatchFlags, io: ScenarioIO = processIO, signal?: AbortSignal): Promise<number> {
  return guarded(io, async () => {
    const issues: ConfigError['issues'] = [];
    const grid = { types: list('--types', f.types, issues), subjects: list('--subjects', f.subjects, issues), grades: list('--grades', f.grades, issues) };
    if (!f.outDir) issues.push({ field: '--out-dir', message: 'name the folder for the scenarios and their index, e.g. --out-dir edu-grid' });
    if (issues.length) throw new ConfigError(issues);
    const concurrency = numberFlag('--concurrency', f.concurrency, positiveInt, 'a whole number >= 1');
    const { description, base, models } = synthesisSetup(f, io, join(f.outDir!, 'cell.yaml'));
    const store = await openStore(f.store);
    try {
      const result = await batchSynthesis({ store, models, grid, template: description, base, ...(concurrency ? { concurrency } : {}), ...(signal ? { signal } : {}) });
      mkdirSync(f.outDir!, { recursive: true });
      for (const [id, yaml] of result.yaml) writeFileSync(join(f.outDir!, `${id}.yaml`), yaml);
      const index = join(f.outDir!, 'index.json');
      writeFileSync(index, JSON.stringify({ runId: result.runId, grid, select: base.select ?? 'quality', cells: result.cells }, null, 2) + '\n');
      const count = (s: string) => result.cells.filter(c => c.status === s).length;
      io.stderr(`synthesis ${result.runId}: ${count('done')} cell(s) written, ${count('failed')} failed, ${count('pending')} left (store ${store.url})\n`);
      for (const c of result.cells.filter(x => x.status === 'failed')) io.stderr(`  ${c.id}: ${c.problem}\n`);
      io.stdout(`${index}\n`);
      return count('pending') > 0 ? EXIT_CODES.stopped : count('failed') > 0 ? EXIT_CODES.trialsFailed : EXIT_CODES.ok;
    } finally {
      await store.close();
    }
  });
}

/** The model and loop options every synthesis command takes. */
export function synthesisOptions(c: Command): Command {
  return c
    .option('--generator <alias=spec>', 'drafts metrics and questions and evolves them')
    .option('--answerer <alias=spec>', 'answers the test questions (the teacher)')
    .option('--judge <alias=spec>', 'scores the answers with the metrics')
    .option('--rounds <n>', 'most rounds (default 5)')
    .option('--questions <n>', 'test questions per round (default 8)')
    .option('--anchors <n>', 'frozen anchor cases re-scored every round (default 4)')
    .option('--patience <n>', 'stop after this many rounds without improvement (default 2)')
    .option('--dimensions <list>', 'seed dimensions as Name=weight,... (default the Elmes+ four)')
    .option('--select <how>', 'best round by quality (default) or weighted-mean (SceneGen\'s selection)')
    .option('--script <file>', 'script for baseline:script models')
    .option('--store <url>', 'sqlite:<path>', DEFAULT_STORE_URL);
}

export function registerScenarioBatch(scenario: Command): void {
  synthesisOptions(scenario.command('synthesize-batch')
    .description('synthesize a rubric per cell of a grid of scenario types x subjects x grades (one stored, resumable synthesis each), writing one runnable scenario per cell and an index of their indicators')
    .option('--types <list>', 'scenario types, comma-separated')
    .option('--subjects <list>', 'subjects, comma-separated')
    .option('--grades <list>', 'grades or grade bands, comma-separated')
    .option('--description <file-or-text>', 'a template naming the cell with {type}, {subject} and {grade}')
    .option('--concurrency <n>', 'cells synthesised at once (default 4)')
    .option('--out-dir <dir>', 'folder for <cell>.yaml and index.json'))
    .action(async (f: BatchFlags) => {
      process.exitCode = await scenarioBatchCommand(f);
    });
}
