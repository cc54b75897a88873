import type { Command } from 'commander';
import { ConfigError, parseModelSpec, stripControl, type ChatParams } from '../../core/index.js';
import { loadRunConfig } from '../../engine/run-config.js';
import { startRun } from '../../runs.js';
import type { SuiteRunConfig, SuiteRunOutcome } from '../../suites/run-kind.js';
import { judgingCounts } from '../../suites/judging/aggregate.js';
import { writeReport } from '../../report/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { raisedCapArgs, refusedCallLine, retryAfterUnreachableArgs } from '../stop-hints.js';
import { EXIT_CODES } from '../exit-codes.js';
import { listFlag, nonNegative, numberFlag, positiveInt } from '../options.js';
import { commandHint } from '../hint.js';
import { deletedRunError } from '../deleted-run.js';
import { createProgress } from '../progress.js';
import { stopOnSignals } from '../signals.js';
import { printTerminalSummary } from '../terminal-summary.js';
import { keptSuiteSettings, resumeOtherKind, typedFlags, typedSettings } from './resume.js';
import { tests } from '../wiring.js';
import { spentText } from '../spent.js';

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
  tpm?: string;
  maxInFlight?: string;
  baseUrl?: string;
  endpoint?: string[];
  script?: string;
  store: string;
  report?: string;
  maxAttempts?: string;
  timeout?: string;
  judge?: string[];
  judgeFamily?: string[];
  judgeBaseUrl?: string;
  planOnly?: boolean;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `--endpoint alias=url` flags as a map; an alias given twice is a mistake, not a choice. */
function endpointFlags(flags: ReadonlyArray<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of flags) {
    const at = flag.indexOf('=');
    const alias = flag.slice(0, at).trim();
    if (at <= 0 || !alias || !flag.slice(at + 1).trim()) throw new ConfigError([{ field: '--endpoint', message: `expected ALIAS=URL (e.g. --endpoint claude=http://127.0.0.1:8080), got "${flag}"` }]);
    if (alias in out) throw new ConfigError([{ field: '--endpoint', message: `${alias} is given two endpoints; give one` }]);
    out[alias] = flag.slice(at + 1).trim();
  }
  return out;
}

/** Beyond this, a run is a mistake (a typo'd flag), not a design: it would plan billions of trials. */
const MAX_REPEATS = 1000;

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
    .option('--resume <run-id>', 'continue a stored run of any kind (suite, scenario, validity, learning) from the config it keeps; for a suite run, the same as re-running the same command')
    .option('--retry-errors', 'run the failed trials of the run again')
    .option('--concurrency <n>', 'concurrent calls per provider', '8')
    .option('--rpm <n>', 'requests per minute per model, shared by every process on the store (a burst of one second\'s worth)')
    .option('--tpm <n>', 'input + output tokens per minute per model (with --rpm), shared like it')
    .option('--max-in-flight <n>', 'calls in flight per model across every process on the store (--concurrency counts per process)')
    .option('--base-url <url>', 'base URL of the OpenAI-compatible endpoint of openai: models (default OPENAI_BASE_URL, else api.openai.com); anthropic: models read ANTHROPIC_BASE_URL, ollama: OLLAMA_BASE_URL')
    .option('--endpoint <alias=url>', 'base URL of one model or judge by alias, any HTTP provider (repeatable); with --resume it moves that model\'s remaining trials there', collect)
    .option('--script <file>', 'script of turns for baseline:script')
    .option('--max-attempts <n>', 'attempts per call, first try included', '5')
    .option('--timeout <ms>', 'per-attempt timeout of a model call in milliseconds')
    .option('--store <url>', `store URL: sqlite:<path> (default ${DEFAULT_STORE_URL}) or postgres://USER@HOST[:PORT]/DATABASE`, DEFAULT_STORE_URL)
    .option('--report <file>', 'also write the HTML report here')
    .option('--judge <alias=spec>', 'judge of tutor_accuracy explanations; give exactly two, of different model families (e.g. a=openai:gpt-4.1 b=anthropic:claude-sonnet-4)', collect)
    .option('--judge-family <alias=family>', 'set the family of a judge or model whose name the family table gets wrong (repeatable)', collect)
    .option('--judge-base-url <url>', 'base URL for openai: judges when it differs from --base-url')
    .option('--plan-only', 'plan and store the run, print its id and call nothing; paideia worker processes run it');
}

/** Run item suites against models; exit code says whether everything finished. */
export async function runCommand(suites: string[], f: RunFlags, given: ReadonlySet<string> = new Set()): Promise<{ runId: string; exitCode: number }> {
  // Runs of every kind resume here; a suite run's resume reads its stored plan below.
  if (f.resume) {
    const other = await resumeOtherKind({ ...f, resume: f.resume }, suites, given);
    if (other) return other;
  }
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
  if (f.seed !== undefined && !/^\d+$/.test(f.seed.trim())) throw new ConfigError([{ field: '--seed', message: `expected a whole number in decimal digits, got "${f.seed}"` }]);
  const seed = numberFlag('--seed', f.seed, n => Number.isSafeInteger(n) && n >= 0, `a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`)!;
  const repeats = numberFlag('--repeats', f.repeats, n => positiveInt(n) && n <= MAX_REPEATS, `a whole number from 1 to ${MAX_REPEATS}`)!;
  if (f.tests !== undefined && !listFlag(f.tests)) throw new ConfigError([{ field: '--tests', message: 'name at least one test, e.g. --tests grammar_forms,translation' }]);
  if (f.resume) {
    const ignored = [specs.length ? '--model' : '', suites.length ? 'suites' : '', f.tests ? '--tests' : '', f.temperature ? '--temperature' : '', f.maxTokens ? '--max-tokens' : '']
      .filter(Boolean);
    if (ignored.length) process.stderr.write(`warning: --resume continues the stored run as it was planned; ignoring ${ignored.join(', ')} (and --repeats/--seed)\n`);
  }
  const costCapUsd = numberFlag('--cost-cap', f.costCap, nonNegative, 'an amount in USD >= 0');
  const concurrency = numberFlag('--concurrency', f.concurrency, positiveInt, 'a whole number >= 1')!;
  const rpm = numberFlag('--rpm', f.rpm, positiveInt, 'a whole number >= 1');
  const tpm = numberFlag('--tpm', f.tpm, positiveInt, 'a whole number >= 1');
  const maxInFlight = numberFlag('--max-in-flight', f.maxInFlight, positiveInt, 'a whole number >= 1');
  if (tpm && !rpm) throw new ConfigError([{ field: '--tpm', message: 'a token limit goes with a request limit: add --rpm N (the provider\'s requests per minute)' }]);
  const maxAttempts = numberFlag('--max-attempts', f.maxAttempts, positiveInt, 'a whole number >= 1')!;
  const timeoutMs = numberFlag('--timeout', f.timeout, positiveInt, 'milliseconds >= 1');
  const store = await openStore(f.store);
  const config: SuiteRunConfig = {
    kind: 'suite', suites, models: f.model ?? [], repeats, seed, ...(listFlag(f.tests) ? { tests: listFlag(f.tests)! } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}), ...(params.maxTokens !== undefined ? { maxTokens: params.maxTokens } : {}),
    ...(costCapUsd !== undefined ? { costCapUsd } : {}), ...(f.prices ? { prices: f.prices } : {}), useCache: f.cache, retryErrors: f.retryErrors ?? false,
    ...(f.resume ? { resume: f.resume } : {}), concurrency, ...(rpm ? { requestsPerMinute: rpm } : {}), ...(tpm ? { tokensPerMinute: tpm } : {}), ...(maxInFlight ? { maxInFlight } : {}), maxAttempts, ...(timeoutMs ? { timeoutMs } : {}),
    ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}), ...(f.endpoint?.length ? { endpoints: endpointFlags(f.endpoint) } : {}), ...(f.script ? { script: f.script } : {}),
    ...(f.judge?.length ? { judges: f.judge } : {}), ...(f.judgeFamily?.length ? { judgeFamilies: f.judgeFamily } : {}),
    ...(f.judgeBaseUrl ? { judgeBaseUrl: f.judgeBaseUrl } : {}), ...(f.planOnly ? { planOnly: true } : {}),
  };
  // A suite resume continues with the cap and limits its run keeps where no flag is typed now.
  if (f.resume) Object.assign(config, keptSuiteSettings(await loadRunConfig(store, f.resume), given));
  const capUsd = config.costCapUsd;
  // A plan-only run keeps its whole config for its workers; any other start changes a kept one by the flags typed.
  const handle = startRun(config, { store, keepConfig: f.planOnly ? true : { update: typedSettings(given) } });
  handle.on(createProgress());
  let unreachable: { endpoint: string; error: string } | undefined;
  handle.on(e => { if (e.type === 'stop' && e.endpoint) unreachable ??= { endpoint: e.endpoint, error: e.error ?? '' }; });
  const detach = stopOnSignals(handle);
  try {
    const outcome = await handle.done as SuiteRunOutcome;
    const runId = outcome.runId;
    const gone = await deletedRunError(store, runId, outcome.stoppedBy);
    if (gone) throw gone;
    const waiting = outcome.waiting ? `, ${outcome.waiting} judge trial(s) waiting for failed ones` : '';
    process.stderr.write(`run ${runId}: ${outcome.done} done, ${outcome.failed} failed, ${outcome.pending} pending${waiting}; ${await spentText(store, runId, outcome.spentUsd)} (store ${store.url})\n`);
    const judged = outcome.explanations;
    if (judged) {
      const c = judged.counts;
      process.stderr.write(`explanations (judges ${judged.judges.join(', ')}): ${judgingCounts(judged)}\n`);
      if (c.unscored) process.stderr.write(`${c.unscored} explanation(s) unscored (judge failures, not counted as wrong); ask again with: ${commandHint(['run', '--resume', runId, '--retry-errors'], store.url)}\n`);
    }
    if (f.planOnly) {
      process.stderr.write(`planned; run its trials with: ${commandHint(['worker', '--run', runId], store.url)} (as many as you like, on any machine that reaches the store)\n`);
      return { runId, exitCode: EXIT_CODES.ok };
    }
    await printTerminalSummary(store, runId);
    if (f.report) {
      await writeReport(store, runId, { format: 'html', out: f.report, tests });
      process.stderr.write(`report: ${f.report}\n`);
    }
    if (outcome.stoppedBy === 'claim-lost') {
      process.stderr.write(`stopped: another process took run ${runId} over while this one was paused; everything stored is kept\n`);
      return { runId, exitCode: EXIT_CODES.stopped };
    }
    if (outcome.stoppedBy === 'unreachable' && unreachable) {
      // Calls that spent their retries on the server before it was found gone are stored as failed:
      // the hint asks them again, or the resume would end with them still failed.
      const failedToo = retryAfterUnreachableArgs(outcome, outcome.failed);
      process.stderr.write(`stopped: nothing answers at ${unreachable.endpoint} (${stripControl(unreachable.error)}); the trials it could not run stay pending and everything stored is kept. `
        + `${outcome.failed > 0 ? `${outcome.failed} trial(s) failed before that (the last calls that reached for the server, or provider errors): the hint runs them again too. ` : ''}`
        + `Start the model server there and resume with: ${commandHint(['run', '--resume', runId, ...failedToo], store.url)} (or add --base-url URL for its openai: models, or --endpoint ALIAS=URL for one model, with the address of a server that is running)\n`);
      return { runId, exitCode: EXIT_CODES.stopped };
    }
    if (outcome.stoppedBy || outcome.pending > 0) {
      // A pasted hint must run as printed: a concrete higher cap, not a placeholder the shell misreads.
      const cap = raisedCapArgs(outcome, capUsd);
      process.stderr.write(refusedCallLine(outcome, 'a lower --max-tokens'));
      process.stderr.write(`resume with: ${commandHint(['run', '--resume', runId, ...cap], store.url)}\n`);
      return { runId, exitCode: EXIT_CODES.stopped };
    }
    if (outcome.failed > 0) {
      process.stderr.write(`${outcome.failed} trial(s) failed (provider errors, not scored as wrong); retry them with: ${commandHint(['run', '--resume', runId, '--retry-errors'], store.url)}\n`);
      return { runId, exitCode: EXIT_CODES.trialsFailed };
    }
    return { runId, exitCode: EXIT_CODES.ok };
  } finally {
    detach();
    await store.close();
  }
}

export function registerRun(program: Command): void {
  addRunFlags(program.command('run').description('run item suites (JSONL files or folders) against models').argument('[suites...]', 'item files or folders'))
    .action(async (suites: string[], flags: RunFlags, cmd: Command) => {
      // Flags typed on the command line, not commander's defaults: a resume keeps the stored ones.
      const given = typedFlags(cmd, flags);
      const { runId, exitCode } = await runCommand(suites, flags, given);
      process.stdout.write(`${runId}\n`);
      process.exitCode = exitCode;
    });
}
