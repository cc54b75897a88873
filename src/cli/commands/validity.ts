import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError, type Store } from '../../core/index.js';
import { commandHint } from '../hint.js';
import { runKindOf } from '../run-kinds.js';
import { renderValidity, type ValidityFormat } from '../../report/validity/index.js';
import { analyze, dimensionAgreement, readAnalysisFiles, readTutorAnnotations, type AnalysisTable, type RunAnalysisFiles } from '../../validity/index.js';
import { DEFAULT_STORE_URL } from '../../store/index.js';
import { registerValidityRun } from './validity-run.js';
import { emit, withStore } from './validity-io.js';

interface AnalyzeFlags {
  ratings?: string; experts?: string; scales?: string; outcomes?: string; observations?: string; raterWeights?: string;
  run?: string; store: string; resamples: string; shareResamples: string; seed: string; format: string; out?: string;
}

export function registerValidity(program: Command): void {
  const validity = program.command('validity').description('judge validity: do ratings agree with experts and with the outcome that matters?');
  validity.command('analyze')
    .description('alignment, baselines, dependence, ensembles, robustness, error decomposition and D-study over imported CSV files or the Judgments of a stored run')
    .option('--ratings <file>', 'observation,item,rater,prompt,score[,repeat] (an empty score is unscored)')
    .option('--run <run-id>', 'instead of --ratings: the Judgments of a stored run (a rating study, a scenario judge panel, explanation judges)')
    .option('--store <url>', 'store URL, with --run', DEFAULT_STORE_URL)
    .option('--experts <file>', 'observation,item,expert,score (an empty score is a cell not rated)')
    .option('--scales <file>', 'item,min,max (with --run: only for items the run does not rate)')
    .option('--outcomes <file>', 'unit,outcome (numeric extra columns become baselines)')
    .option('--observations <file>', 'observation,unit (numeric extra columns become baselines); without it each observation is its own unit')
    .option('--rater-weights <file>', 'rater,weight: expertise weights for the weighted ensemble')
    .option('--resamples <n>', 'bootstrap and permutation resamples', '2000')
    .option('--share-resamples <n>', 'resamples of observations for the variance-share intervals (REML refit each)', '1000')
    .option('--seed <n>', 'seed of every resampling', '20260301')
    .option('--format <format>', 'json, md or html', 'md')
    .option('-o, --out <file>', 'write here instead of standard output')
    .action(async (f: AnalyzeFlags) => {
      if (!['json', 'md', 'html'].includes(f.format)) throw new ConfigError([{ field: '--format', message: `expected json, md or html, got "${f.format}"` }]);
      const resamples = integerFlag('--resamples', f.resamples, 100);
      const shareResamples = integerFlag('--share-resamples', f.shareResamples, 100);
      const seed = integerFlag('--seed', f.seed, 0);
      const rest = {
        ...(f.outcomes ? { outcomes: f.outcomes } : {}), ...(f.observations ? { observations: f.observations } : {}),
        ...(f.raterWeights ? { raterWeights: f.raterWeights } : {}),
      };
      const table = f.run !== undefined
        ? await withStore(f.store, store => storedTable(store, f.run!, { ...rest, ...(f.experts ? { experts: f.experts } : {}), ...(f.scales ? { scales: f.scales } : {}) }))
        : readAnalysisFiles({ ...rest, ...csvInputs(f) });
      emit(renderValidity(analyze(table, { resamples, seed, shareResamples }), f.format as ValidityFormat), f.out);
    });
  registerValidityRun(validity);
  validity.command('mrbench')
    .description("a judge's labels against MRBench / BEA 2025 tutor-response annotations: per-dimension accuracy, macro-F1 and kappa")
    .requiredOption('--annotations <file>', 'human annotations (MRBench or BEA 2025 JSON)')
    .requiredOption('--judge <file>', "the judge's labels in the same JSON shape")
    .option('--format <format>', 'json or md', 'md')
    .option('-o, --out <file>', 'write here instead of standard output')
    .action((f: { annotations: string; judge: string; format: string; out?: string }) => {
      if (!['json', 'md'].includes(f.format)) throw new ConfigError([{ field: '--format', message: `expected json or md, got "${f.format}"` }]);
      const rows = dimensionAgreement(readTutorAnnotations(readText(f.annotations), f.annotations), readTutorAnnotations(readText(f.judge), f.judge));
      const md = ['| dimension | n | accuracy | macro-F1 | lenient macro-F1 | kappa |', '|---|---|---|---|---|---|',
        ...rows.map(r => `| ${r.dimension} | ${r.n} | ${r.accuracy.toFixed(3)} | ${r.macroF1.toFixed(3)} | ${r.lenientMacroF1 === null ? '–' : r.lenientMacroF1.toFixed(3)} | ${Number.isNaN(r.kappa) ? '–' : r.kappa.toFixed(3)} |`)].join('\n');
      emit(f.format === 'json' ? `${JSON.stringify({ dimensions: rows }, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n` : `${md}\n`, f.out);
    });
}

/** The table of a stored run, built the way its kind stores ratings (a learning run: decks x D1/D2 against gain). */
async function storedTable(store: Store, runId: string, files: RunAnalysisFiles): Promise<AnalysisTable> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: '--run', message: `no run "${runId}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}` }]);
  return runKindOf(run).analysisTable(store, run, files);
}

/** The three files of the CSV path, each required without --run. */
function csvInputs(f: AnalyzeFlags): { ratings: string; experts: string; scales: string } {
  if (f.ratings && f.experts && f.scales) return { ratings: f.ratings, experts: f.experts, scales: f.scales };
  const missing = (['ratings', 'experts', 'scales'] as const).filter(k => !f[k]).map(k => `--${k}`);
  throw new ConfigError([{ field: missing.join(', '), message: `${missing.length > 1 ? 'missing' : 'also needed'}: give --ratings, --experts and --scales files, or --run <run-id> for the Judgments of a stored run (paideia runs lists them)` }]);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([{ file: path, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path` }]);
  }
}


function integerFlag(name: string, raw: string, min: number): number {
  const v = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(v) || v < min) throw new ConfigError([{ field: name, message: `expected a whole number >= ${min}, got "${raw}"` }]);
  return v;
}
