import type { Command } from 'commander';
import { ConfigError, parseModelSpec, type ChatParams } from '../../core/index.js';
import { runSuite } from '../../engine/run-suite.js';
import { loadPriceTable } from '../../providers/pricing.js';
import { writeReport } from '../../report/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { EXIT_CODES } from '../exit-codes.js';
import { listFlag, nonNegative, numberFlag, positiveInt } from '../options.js';
import { createProgress } from '../progress.js';
import { buildModels, scorers, tests } from '../wiring.js';

export interface RunFlags {
  model?: string[];
  repeats?: string;
  seed?: string;
  tests?: string[];
  temperature?: string;
  maxTokens?: string;
  costCap?: string;
  prices?: string;
  cache: boolean;
  resume?: string;
  retryErrors?: boolean;
  concurrency?: string;
  rpm?: string;
  baseUrl?: string;
  script?: string;
  store: string;
  report?: string;
  maxAttempts?: string;
  timeout?: string;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function addRunFlags(cmd: Command): Command {
  return cmd
    .option('-m, --model <spec>', 'model spec, repeatable: openai:<model>, anthropic:<model>, ollama:<model>, baseline:copy|gold|random|script, replay:<run-id>; alias=spec names it', collect)
    .option('--repeats <n>', 'repeats per item', '3')
    .option('--seed <n>', 'seed of the plan, the trials and the intervals', '20261129')
    .option('--tests <names>', 'only these tests (comma-separated)', collect)
    .option('--temperature <t>', 'sampling temperature passed to every model')
    .option('--max-tokens <n>', 'upper bound on generated tokens per call')
    .option('--cost-cap <usd>', 'hard cap on the run\'s spend; the run stops (exit 3) before a call could pass it')
    .option('--prices <file>', 'price table JSON to use instead of the shipped one')
    .option('--no-cache', 'call models even when the same request was answered before')
    .option('--resume <run-id>', 'continue a stored run (same as re-running the same command)')
    .option('--retry-errors', 'run the failed trials of the run again')
    .option('--concurrency <n>', 'concurrent calls per provider', '8')
    .option('--rpm <n>', 'requests per minute per model')
    .option('--base-url <url>', 'base URL of an OpenAI-compatible (or Anthropic) endpoint; default from OPENAI_BASE_URL / ANTHROPIC_BASE_URL')
    .option('--script <file>', 'script of turns for baseline:script')
    .option('--max-attempts <n>', 'attempts per call, first try included', '5')
    .option('--timeout <ms>', 'per-attempt timeout of a model call in milliseconds')
    .option('--store <url>', 'sqlite:<path> (embedded default) or postgres://...', DEFAULT_STORE_URL)
    .option('--report <file>', 'also write the HTML report here');
}

/** Run item suites against models; exit code says whether everything finished. */
export async function runCommand(suites: string[], f: RunFlags): Promise<{ runId: string; exitCode: number }> {
  const specs = (f.model ?? []).map(m => parseModelSpec(m, { field: '--model' }));
  if (!f.resume && specs.length === 0) throw new ConfigError([{ field: '--model', message: 'name at least one model, e.g. --model baseline:gold --model openai:gpt-4.1-mini' }]);
  if (!f.resume && suites.length === 0) throw new ConfigError([{ field: 'suites', message: 'name at least one item file or folder, e.g. data/samples/irish' }]);
  const aliases = specs.map(s => s.alias);
  const dup = aliases.find((a, i) => aliases.indexOf(a) !== i);
  if (dup) throw new ConfigError([{ field: '--model', message: `model alias "${dup}" is used twice; give one an alias: name=${dup}` }]);
  const params: ChatParams = {};
  const temperature = numberFlag('--temperature', f.temperature, nonNegative, 'a number >= 0');
  const maxTokens = numberFlag('--max-tokens', f.maxTokens, positiveInt, 'a whole number >= 1');
  if (temperature !== undefined) params.temperature = temperature;
  if (maxTokens !== undefined) params.maxTokens = maxTokens;
  const seed = numberFlag('--seed', f.seed, n => Number.isInteger(n) && n >= 0, 'a whole number >= 0')!;
  const costCapUsd = numberFlag('--cost-cap', f.costCap, nonNegative, 'an amount in USD >= 0');
  const concurrency = numberFlag('--concurrency', f.concurrency, positiveInt, 'a whole number >= 1')!;
  const rpm = numberFlag('--rpm', f.rpm, positiveInt, 'a whole number >= 1');
  const maxAttempts = numberFlag('--max-attempts', f.maxAttempts, positiveInt, 'a whole number >= 1')!;
  const timeoutMs = numberFlag('--timeout', f.timeout, positiveInt, 'milliseconds >= 1');
  const prices = loadPriceTable(f.prices);
  const store = await openStore(f.store);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigint);
  try {
    const stored = f.resume ? await store.getRun(f.resume) : undefined;
    const models = await buildModels(stored?.config.models ?? specs, {
      store, seed, maxAttempts, ...(f.baseUrl ? { baseURL: f.baseUrl } : {}), ...(f.script ? { scriptFile: f.script } : {}),
      ...(rpm ? { requestsPerMinute: rpm } : {}), ...(timeoutMs ? { timeoutMs } : {}),
    });
    const { run, summary } = await runSuite({
      store, suites, models: specs, repeats: numberFlag('--repeats', f.repeats, positiveInt, 'a whole number >= 1')!, seed, params,
      ...(listFlag(f.tests) ? { tests: listFlag(f.tests)! } : {}), testDefinitions: tests, scorers,
      createModel: spec => models.get(spec.alias)!, prices, ...(costCapUsd !== undefined ? { costCapUsd } : {}),
      useCache: f.cache, retryErrors: f.retryErrors ?? false, ...(f.resume ? { resumeRunId: f.resume } : {}),
      concurrency: provider => (provider === 'baseline' || provider === 'replay' ? Math.max(concurrency, 16) : concurrency),
      signal: controller.signal, onEvent: createProgress(),
    });
    process.stderr.write(`run ${run.id}: ${summary.done} done, ${summary.failed} failed, ${summary.pending} pending; spent $${summary.spentUsd.toFixed(4)} (store ${store.url})\n`);
    if (f.report) {
      await writeReport(store, run.id, { format: 'html', out: f.report, tests });
      process.stderr.write(`report: ${f.report}\n`);
    }
    if (summary.stoppedBy || summary.pending > 0) {
      process.stderr.write(`resume with: paideia run --resume ${run.id} --store ${store.url}${summary.stoppedBy === 'cost-cap' ? ' --cost-cap <higher>' : ''}\n`);
      return { runId: run.id, exitCode: EXIT_CODES.stopped };
    }
    if (summary.failed > 0) {
      process.stderr.write(`${summary.failed} trial(s) failed (provider errors, not scored as wrong); retry them with: paideia run --resume ${run.id} --retry-errors\n`);
      return { runId: run.id, exitCode: EXIT_CODES.trialsFailed };
    }
    return { runId: run.id, exitCode: EXIT_CODES.ok };
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await store.close();
  }
}

export function registerRun(program: Command): void {
  addRunFlags(program.command('run').description('run item suites (JSONL files or folders) against models').argument('[suites...]', 'item files or folders'))
    .action(async (suites: string[], flags: RunFlags) => {
      const { runId, exitCode } = await runCommand(suites, flags);
      process.stdout.write(`${runId}\n`);
      process.exitCode = exitCode;
    });
}
