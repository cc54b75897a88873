import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError, type ConfigIssue, type RunOutcome } from '../../core/index.js';
import type { LearningRunConfig } from '../../learning/run/config.js';
import { startRun } from '../../runs.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { raisedCapArgs, retryAfterUnreachableArgs } from '../stop-hints.js';
import { EXIT_CODES } from '../exit-codes.js';
import { commandHint } from '../hint.js';
import { listFlag, nonNegative, numberFlag, positiveInt } from '../options.js';
import { createProgress } from '../progress.js';
import { emitReport } from '../report-out.js';
import { stopOnSignals } from '../signals.js';
import { typedFlags, typedSettings } from './resume.js';
import { collect } from './scenario-io.js';
import { spentText } from '../spent.js';

export interface LearningRunFlags {
  units?: string[];
  unitFiles?: string[];
  generator?: string[];
  learner?: string[];
  judge?: string[];
  images?: string[];
  repeats?: string;
  puzzleContext?: string[];
  frames?: string[];
  inject?: string[];
  costCap?: string;
  prices?: string;
  baseUrl?: string;
  concurrency?: string;
  retryErrors?: boolean;
  store: string;
}

const onOff = (v: string): boolean => {
  if (v === 'on' || v === 'off') return v === 'on';
  throw new ConfigError([{ field: '--puzzle-context', message: `expected on, off or on,off, got "${v}"` }]);
};
const framesOf = (v: string): 'all' | number => {
  if (v === 'all') return v;
  return numberFlag('--frames', v, positiveInt, '"all" or a number of frames >= 1, e.g. --frames all,3')!;
};

/** The config a `learning run` command line describes. */
export function learningConfig(f: LearningRunFlags): LearningRunConfig {
  // Every flag's problem at once, not the first one found.
  const issues: ConfigIssue[] = [];
  const read = <T>(parse: () => T) => ConfigError.collect(issues, parse);
  const repeats = read(() => numberFlag('--repeats', f.repeats, positiveInt, 'a whole number >= 1'));
  const costCapUsd = read(() => numberFlag('--cost-cap', f.costCap, nonNegative, 'an amount in USD >= 0'));
  const concurrency = read(() => numberFlag('--concurrency', f.concurrency, positiveInt, 'a whole number >= 1'));
  const puzzleContext = read(() => listFlag(f.puzzleContext)?.map(onOff));
  const frames = read(() => listFlag(f.frames)?.map(framesOf));
  if (issues.length) throw new ConfigError(issues);
  return {
    kind: 'learning', units: listFlag(f.units) ?? [], generators: f.generator ?? [], learners: f.learner ?? [], judges: f.judge ?? [],
    imageModels: listFlag(f.images) ?? [], ...(f.unitFiles?.length ? { unitPaths: f.unitFiles } : {}), ...(repeats ? { repeats } : {}),
    ...(puzzleContext ? { puzzleContext } : {}),
    ...(frames ? { frames } : {}), inject: listFlag(f.inject) ?? [],
    ...(costCapUsd !== undefined ? { costCapUsd } : {}), ...(f.prices ? { prices: f.prices } : {}), ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}),
    ...(concurrency ? { concurrency } : {}), retryErrors: f.retryErrors ?? false,
  };
}

/** The same study's command line (its run id hashes the study), for resume hints. */
function sameStudy(f: LearningRunFlags): string[] {
  const many = (flag: string, values?: string[]) => (values ?? []).flatMap(v => [flag, v]);
  // Paths absolute, so the hint works pasted in another folder.
  return [
    'learning', 'run', '--units', (listFlag(f.units) ?? []).join(','), ...(f.unitFiles?.length ? ['--unit-files', ...f.unitFiles.map(p => resolve(p))] : []),
    ...many('--generator', f.generator), ...many('--learner', f.learner), ...many('--judge', f.judge), ...many('--images', f.images),
    ...(f.repeats ? ['--repeats', f.repeats] : []), ...(f.puzzleContext ? ['--puzzle-context', listFlag(f.puzzleContext)!.join(',')] : []),
    ...(f.frames ? ['--frames', listFlag(f.frames)!.join(',')] : []), ...(f.inject ? ['--inject', listFlag(f.inject)!.join(',')] : []),
    ...(f.prices ? ['--prices', resolve(f.prices)] : []), ...(f.baseUrl ? ['--base-url', f.baseUrl] : []),
  ];
}

/** `paideia learning run`: prints the run id; exit 0 all done, 1 some trials failed, 2 bad input, 3 stopped (resumable). */
export async function learningRunCommand(f: LearningRunFlags, given: ReadonlySet<string> = new Set()): Promise<number> {
  const config = learningConfig(f);
  const store = await openStore(f.store);
  // The same command resumes the study: a config the run keeps changes by the flags typed alone.
  const handle = startRun(config, { store, keepConfig: { update: typedSettings(given) } });
  handle.on(createProgress());
  const offSignals = stopOnSignals(handle);
  try {
    void handle.runId.then(id => process.stdout.write(`${id}\n`), () => undefined);
    const outcome: RunOutcome = await handle.done;
    process.stderr.write(`run ${outcome.runId}: ${outcome.done} done, ${outcome.failed} failed, ${outcome.pending} pending; ${await spentText(store, outcome.runId, outcome.spentUsd)} (store ${store.url})\n`);
    const report = commandHint(['learning', 'report', outcome.runId, '--format', 'md'], store.url);
    if (outcome.stoppedBy || outcome.pending > 0) {
      const cap = raisedCapArgs(outcome, config.costCapUsd);
      process.stderr.write(`resume with: ${commandHint([...sameStudy(f), ...cap, ...retryAfterUnreachableArgs(outcome, outcome.failed)], store.url)}\n`);
      return EXIT_CODES.stopped;
    }
    if (outcome.failed > 0) {
      process.stderr.write(`${outcome.failed} trial(s) failed (provider errors, not marked wrong); retry them with: ${commandHint([...sameStudy(f), '--retry-errors'], store.url)}\n`);
      return EXIT_CODES.trialsFailed;
    }
    process.stderr.write(`report: ${report}\n`);
    return EXIT_CODES.ok;
  } finally {
    offSignals();
    await store.close();
  }
}

export async function learningReportCommand(runId: string, f: { store: string; format: string; out?: string; experts?: string }): Promise<void> {
  if (!['json', 'md', 'html'].includes(f.format)) throw new ConfigError([{ field: '--format', message: `expected json, md or html, got "${f.format}"` }]);
  const store = await openStore(f.store, { mustExist: true, readOnly: true });
  try {
    const { learningReportText } = await import('../../report/learning/index.js');
    const text = await learningReportText(store, runId, f.format as 'json' | 'md' | 'html', f.experts !== undefined ? { experts: f.experts } : {});
    emitReport(text, f.out, t => process.stdout.write(t));
  } finally {
    await store.close();
  }
}

export function registerLearning(program: Command): void {
  const learning = program.command('learning').description('learning studies: generated decks, simulated learners (pretest, study, posttest, transfer) and judge panels');
  learning.command('run')
    .description('units x generators x learners, with D1/D2 judges; prints the run id (the same command resumes it)')
    .requiredOption('--units <ids>', 'unit ids, comma-separated (see: paideia units list)', collect)
    .option('--unit-files <paths...>', 'unit files or folders (default: the shipped data/units)')
    .option('--generator <NAME=SPEC>', 'deck generator, repeatable: a model, or baseline:blank-deck / baseline:outline', collect)
    .option('--learner <NAME=SPEC>', 'simulated learner, repeatable: a model, or baseline:examples', collect)
    .option('--judge <NAME=SPEC>', 'D1/D2 judge, repeatable', collect)
    .option('--images <NAME>', 'learners or judges whose models accept images (they see the PNGs), repeatable', collect)
    .option('--repeats <n>', 'learner and judge repeats', '1')
    .option('--puzzle-context <on|off>', 'ablation: the puzzle examples in every test context: off, on, or off,on', collect)
    .option('--frames <all|k>', 'ablation: study all slides, a sample of k frames, or both (all,3)', collect)
    .option('--inject <families>', 'error-injection variants of every deck, comma-separated', collect)
    .option('--cost-cap <usd>', 'hard cap on the run\'s spend')
    .option('--prices <file>', 'price table (default: the shipped one)')
    .option('--base-url <url>', 'base URL of openai: models (default OPENAI_BASE_URL)')
    .option('--concurrency <n>', 'trials at once', '4')
    .option('--retry-errors', 'run failed trials again')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .action(async (f: LearningRunFlags, cmd: Command) => {
      process.exitCode = await learningRunCommand(f, typedFlags(cmd, f));
    });
  learning.command('report')
    .description('the study\'s report: per generator pre, post, gain, near, far, D1, D2, D3; correlations; the judges\' alignment with gain; error injection; ablations (no model is called)')
    .argument('<run-id>')
    .option('--format <format>', 'json, md or html', 'md')
    .option('-o, --out <file>', 'output file (default stdout)')
    .option('--experts <file>', "observation,item,expert,score: expert scores of decks (observation <unit>/<generator>, item d1 or d2) beside the judges' alignment with gain")
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .action(async (runId: string, f: { store: string; format: string; out?: string; experts?: string }) => learningReportCommand(runId, f));
}
