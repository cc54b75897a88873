import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { startRun } from '../../runs.js';
import { formatCsv } from '../../scenarios/csv.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { STUDY_RUN, type StudyRunConfig, type StudyRunOutcome } from '../../validity/index.js';
import { raisedCapArgs, resumeBaseUrl, retryAfterUnreachableArgs } from '../stop-hints.js';
import { EXIT_CODES } from '../exit-codes.js';
import { commandHint } from '../hint.js';
import { nonNegative, numberFlag, positiveInt } from '../options.js';
import { createProgress } from '../progress.js';
import { runKindOf } from '../run-kinds.js';
import { stopOnSignals } from '../signals.js';
import { typedFlags, typedSettings } from './resume.js';
import { emit, withStore } from './validity-io.js';

interface StudyFlags {
  store: string; observationsRun?: string; costCap?: string; prices?: string; retryErrors?: boolean; baseUrl?: string;
  concurrency?: string; rpm?: string; maxAttempts?: string; timeout?: string;
}


export function registerValidityRun(validity: Command): void {
  validity.command('run')
    .description('run a rating study (observations x items x prompt families x raters x repeats): every cell a stored call and Judgment; the same command resumes it')
    .argument('<study>', 'the study file (YAML)')
    .option('--observations-run <run-id>', "rate what this stored run's judges judged (its dialogues or explanations) instead of the file's observations")
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .option('--cost-cap <usd>', "hard cap on the study's spend; it stops (exit 3) before a call could pass it")
    .option('--prices <file>', 'price table JSON instead of the shipped one')
    .option('--retry-errors', 'ask again in the cells whose call failed')
    .option('--base-url <url>', 'base URL of the OpenAI-compatible endpoint of openai: raters (default OPENAI_BASE_URL)')
    .option('--concurrency <n>', 'concurrent calls per provider', '8')
    .option('--rpm <n>', 'requests per minute per rater')
    .option('--max-attempts <n>', 'attempts per call, first try included', '5')
    .option('--timeout <ms>', 'per-attempt timeout of a call in milliseconds')
    .action(async (file: string, f: StudyFlags, cmd: Command) => {
      process.exitCode = await studyRunCommand(file, f, typedFlags(cmd, f));
    });
  validity.command('template')
    .description("a blank expert file for a stored run: one row per observation and item its judges rated, with the text they read; fill in the scores and pass it as --experts")
    .requiredOption('--run <run-id>', 'a stored run with judgments (a rating study, a scenario with an evaluation, explanation judges)')
    .option('--expert <name>', 'the expert column of every row', 'expert-1')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .option('-o, --out <file>', 'write here instead of standard output')
    .action(async (f: { run: string; expert: string; store: string; out?: string }) => {
      const rows = await withStore(f.store, async store => {
        const run = await store.getRun(f.run);
        if (!run) throw new ConfigError([{ field: '--run', message: `no run "${f.run}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}` }]);
        return (await runKindOf(run).templateCells(store, run)).map(c => [c.observation, c.item, f.expert, '', c.text]);
      });
      emit(formatCsv([['observation', 'item', 'expert', 'score', 'text'], ...rows]), f.out);
    });
}

async function studyRunCommand(file: string, f: StudyFlags, given: ReadonlySet<string>): Promise<number> {
  const costCapUsd = numberFlag('--cost-cap', f.costCap, nonNegative, 'an amount in USD >= 0');
  const concurrency = numberFlag('--concurrency', f.concurrency, positiveInt, 'a whole number >= 1')!;
  const rpm = numberFlag('--rpm', f.rpm, positiveInt, 'a whole number >= 1');
  const maxAttempts = numberFlag('--max-attempts', f.maxAttempts, positiveInt, 'a whole number >= 1')!;
  const timeoutMs = numberFlag('--timeout', f.timeout, positiveInt, 'milliseconds >= 1');
  const config: StudyRunConfig = {
    kind: STUDY_RUN, file, ...(f.observationsRun ? { observationsRun: f.observationsRun } : {}), ...(costCapUsd !== undefined ? { costCapUsd } : {}),
    ...(f.prices ? { prices: f.prices } : {}), retryErrors: f.retryErrors ?? false, ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}),
    concurrency, ...(rpm ? { requestsPerMinute: rpm } : {}), maxAttempts, ...(timeoutMs ? { timeoutMs } : {}),
  };
  const store = await openStore(f.store);
  // The same command resumes the study: a config the run keeps changes by the flags typed alone.
  const handle = startRun(config, { store, keepConfig: { update: typedSettings(given) } });
  handle.on(createProgress());
  const detach = stopOnSignals(handle);
  try {
    const outcome = await handle.done as StudyRunOutcome;
    const { runId } = outcome;
    process.stdout.write(`${runId}\n`);
    process.stderr.write(`study ${runId}: ${outcome.done} cell(s) done, ${outcome.failed} failed, ${outcome.pending} pending; ${outcome.ratings.scored} rating(s) read, ${outcome.ratings.unscored} unscored (kept with their text, never guessed); spent $${outcome.spentUsd.toFixed(4)}${outcome.unpriced.length ? ` plus an unknown amount for ${outcome.unpriced.join(', ')} (no price)` : ''} (store ${store.url})\n`);
    // The study's id hashes its raters' endpoints, so the hint names where its openai: raters were
    // called even when OPENAI_BASE_URL said it (a new shell may not have it); its cap needs the
    // prices it was given. Paths absolute, so the hint works pasted in another folder.
    const baseUrl = resumeBaseUrl(await store.getRun(runId), f.baseUrl, process.env);
    const again = ['validity', 'run', resolve(file), ...(f.observationsRun ? ['--observations-run', f.observationsRun] : []),
      ...(f.prices ? ['--prices', resolve(f.prices)] : []), ...(baseUrl ? ['--base-url', baseUrl] : [])];
    if (outcome.stoppedBy || outcome.pending > 0) {
      const cap = raisedCapArgs(outcome, costCapUsd);
      process.stderr.write(`resume with: ${commandHint([...again, ...cap, ...retryAfterUnreachableArgs(outcome, outcome.failed)], store.url)}\n`);
      return EXIT_CODES.stopped;
    }
    process.stderr.write(`report: ${commandHint(['report', runId, '--format', 'md', '--out', '-'], store.url)}\n`);
    if (outcome.failed > 0) {
      process.stderr.write(`${outcome.failed} cell(s) failed (provider errors, stored unscored); ask again with: ${commandHint([...again, '--retry-errors'], store.url)}\n`);
      return EXIT_CODES.trialsFailed;
    }
    return EXIT_CODES.ok;
  } finally {
    detach();
    await store.close();
  }
}
