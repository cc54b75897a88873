import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type RunOutcome, type RunRecord, type Store } from '../../core/index.js';
import { loadRunConfig, type StoredRunConfig } from '../../engine/run-config.js';
import { publicEndpoint } from '../../providers/shared/endpoint.js';
import { BUILT_IN_RUN_KINDS, startRun, type RunConfig } from '../../runs.js';
import { openStore } from '../../store/index.js';
import { raisedCapArgs, refusedCallLine, retryAfterUnreachableArgs } from '../stop-hints.js';
import { EXIT_CODES } from '../exit-codes.js';
import { commandHint } from '../hint.js';
import { nonNegative, numberFlag, positiveInt } from '../options.js';
import { createProgress } from '../progress.js';
import { writeOutFile } from '../report-out.js';
import { runKindOf } from '../run-kinds.js';
import { stopOnSignals } from '../signals.js';
import { spentText } from '../spent.js';

/** The flags of `paideia run` a resume of another kind reads (a subset of its RunFlags). */
export interface ResumeFlags {
  store: string;
  costCap?: string; baseUrl?: string; concurrency?: string; rpm?: string; tpm?: string; maxInFlight?: string;
  maxAttempts?: string; timeout?: string; script?: string; retryErrors?: boolean; report?: string; planOnly?: boolean;
}

/**
 * The flags of `paideia run` that say how a stored run continues, as the keys of a run-kind
 * config. Only flags given on the command line count: the stored config's values are the defaults.
 */
const CONTINUE_FLAGS: ReadonlyArray<{ flag: keyof ResumeFlags; name: string; key: string; value: (f: ResumeFlags) => unknown }> = [
  { flag: 'costCap', name: '--cost-cap', key: 'costCapUsd', value: f => numberFlag('--cost-cap', f.costCap, nonNegative, 'an amount in USD >= 0') },
  { flag: 'baseUrl', name: '--base-url', key: 'baseUrl', value: f => f.baseUrl },
  { flag: 'concurrency', name: '--concurrency', key: 'concurrency', value: f => numberFlag('--concurrency', f.concurrency, positiveInt, 'a whole number >= 1') },
  { flag: 'rpm', name: '--rpm', key: 'requestsPerMinute', value: f => numberFlag('--rpm', f.rpm, positiveInt, 'a whole number >= 1') },
  { flag: 'tpm', name: '--tpm', key: 'tokensPerMinute', value: f => numberFlag('--tpm', f.tpm, positiveInt, 'a whole number >= 1') },
  { flag: 'maxInFlight', name: '--max-in-flight', key: 'maxInFlight', value: f => numberFlag('--max-in-flight', f.maxInFlight, positiveInt, 'a whole number >= 1') },
  { flag: 'maxAttempts', name: '--max-attempts', key: 'maxAttempts', value: f => numberFlag('--max-attempts', f.maxAttempts, positiveInt, 'a whole number >= 1') },
  { flag: 'timeout', name: '--timeout', key: 'timeoutMs', value: f => numberFlag('--timeout', f.timeout, positiveInt, 'milliseconds >= 1') },
  { flag: 'script', name: '--script', key: 'script', value: f => (f.script ? resolve(f.script) : undefined) },
];

/** Continuation flags only a suite run has, as keys of its config. */
const SUITE_CONTINUE_FLAGS: ReadonlyArray<{ flag: string; key: string }> = [
  { flag: 'endpoint', key: 'endpoints' }, { flag: 'judgeBaseUrl', key: 'judgeBaseUrl' }, { flag: 'cache', key: 'useCache' },
];

/**
 * The keys of the config a run keeps that flags typed now set (`given`: commander's option names
 * whose value came from the command line). A resume changes the kept config by these alone, so
 * a default it did not type (a concurrency of 8, no cap) never replaces the planner's setting.
 * --retry-errors is this session's and is never kept.
 */
export function typedSettings(given: ReadonlySet<string>): string[] {
  return [...CONTINUE_FLAGS, ...SUITE_CONTINUE_FLAGS].filter(c => given.has(c.flag)).map(c => c.key);
}

const ENDPOINT_KEYS = new Set(['baseUrl', 'endpoints', 'judgeBaseUrl']);

/**
 * The continuation settings a suite run keeps (its stored config) that no flag typed now sets: a
 * resume by id continues with them, as a resume of any other kind starts from its stored config,
 * so a run started with a cost cap stays capped when the resume names none. The endpoints are
 * not among them: a suite resume calls each model where the run last called it (its stored
 * endpoints and moves), and only a flag typed now moves one.
 */
export function keptSuiteSettings(stored: StoredRunConfig | undefined, given: ReadonlySet<string>): Record<string, unknown> {
  if (!stored || stored.kind !== 'suite') return {};
  const keys = [...CONTINUE_FLAGS, ...SUITE_CONTINUE_FLAGS]
    .filter(c => !given.has(c.flag) && !ENDPOINT_KEYS.has(c.key) && stored[c.key] !== undefined)
    .map(c => c.key);
  return Object.fromEntries(keys.map(k => [k, stored[k]]));
}

/** The option names of `flags` whose value was typed on the command line, not commander's default. */
export function typedFlags(cmd: Command, flags: object): Set<string> {
  return new Set(Object.keys(flags).filter(k => cmd.getOptionValueSource(k) === 'cli'));
}

/** Flags that describe a new suite run: a stored run of another kind keeps what it was planned with. */
const PLAN_FLAGS: ReadonlyArray<{ flag: string; name: string }> = [
  { flag: 'model', name: '--model' }, { flag: 'tests', name: '--tests' }, { flag: 'temperature', name: '--temperature' },
  { flag: 'maxTokens', name: '--max-tokens' }, { flag: 'prices', name: '--prices' }, { flag: 'endpoint', name: '--endpoint' },
  { flag: 'judge', name: '--judge' }, { flag: 'judgeFamily', name: '--judge-family' }, { flag: 'judgeBaseUrl', name: '--judge-base-url' },
  { flag: 'repeats', name: '--repeats' }, { flag: 'seed', name: '--seed' }, { flag: 'cache', name: '--no-cache' },
];

/** How to continue a run stored before runs kept their config: the command that made it. */
function madeWith(run: RunRecord, store: string): string {
  const also = ', with the flags it was made with';
  if (run.kind === 'scenario') return `${commandHint(['scenario', 'run', run.config.suites[0] ?? 'FILE', '--resume'], store)}${also.replace('flags', '-m flags')}`;
  if (run.kind === 'validity') return `${commandHint(['validity', 'run', 'STUDY-FILE'], store)}${also}`;
  return `${commandHint([run.kind, 'run'], store)}${also}`;
}

/**
 * Only a suite run moves to another endpoint on resume (its plan is stored apart from its
 * endpoints, and each call names the one it used); a scenario or study would be another run (its
 * id hashes its endpoints) and a learning run calls each model where it called it before. So
 * --base-url other than the run's own is refused here, naming the flag, before anything starts.
 */
function refuseMove(run: RunRecord, stored: StoredRunConfig, baseUrl: string): void {
  const to = publicEndpoint(baseUrl);
  const planned = typeof stored.baseUrl === 'string' ? [publicEndpoint(stored.baseUrl)] : [...new Set(Object.values(run.config.endpoints ?? {}))];
  if (planned.length > 0 && planned.every(e => e === to)) return;
  const from = planned.length ? planned.join(', ') : 'the endpoints of its scenario file and environment';
  throw new ConfigError([{
    field: '--base-url',
    message: `run ${run.id} is a ${run.kind} run planned against ${from}; a resume by id moves only suite runs to another endpoint. Leave out --base-url to continue it there once its server answers, or start a new run at ${to} with the command that made ${run.id}, with --base-url ${to} and without --resume`,
  }]);
}

/**
 * `paideia run --resume ID` of a stored run of another kind than suites, or undefined for a suite
 * run (or none: the suite path says so) that `paideia run` continues itself.
 */
export async function resumeOtherKind(f: ResumeFlags & { resume: string }, suites: ReadonlyArray<string>, given: ReadonlySet<string>): Promise<{ runId: string; exitCode: number } | undefined> {
  // A resume reads a stored run: a store that is not there is not made (empty) for it.
  const store = await openStore(f.store, { mustExist: true });
  try {
    const run = await store.getRun(f.resume);
    if (!run) {
      throw new ConfigError([{ field: '--resume', message: `no run "${f.resume}" in ${store.url}; name the store that holds it with --store, or list its runs with: ${commandHint(['runs'], store.url)}` }]);
    }
    if (run.kind === 'suite') return undefined;
    return await resumeStoredRun(store, run, f, suites, given);
  } finally {
    await store.close();
  }
}

/**
 * `paideia run --resume ID` for a run of any kind but suites (whose resume reads the stored plan
 * itself): the run starts again from the config it keeps, with the continuation flags given now.
 */
async function resumeStoredRun(store: Store, run: RunRecord, f: ResumeFlags, suites: ReadonlyArray<string>, given: ReadonlySet<string>): Promise<{ runId: string; exitCode: number }> {
  const stored = await loadRunConfig(store, run.id);
  if (!stored) {
    throw new ConfigError([{ field: '--resume', message: `run ${run.id} is a ${run.kind} run stored before runs kept the config they continue from; resume it with the command that made it: ${madeWith(run, store.url)}` }]);
  }
  const kind = BUILT_IN_RUN_KINDS.find(k => k.name === stored.kind);
  if (!kind) throw new ConfigError([{ field: '--resume', message: `run ${run.id} keeps a config of kind "${stored.kind}", which this Paideia does not know (it knows ${BUILT_IN_RUN_KINDS.map(k => k.name).join(', ')}); resume it with the Paideia that made it` }]);
  if (given.has('baseUrl') && f.baseUrl !== undefined) refuseMove(run, stored, f.baseUrl);
  // A run that reads its file again to continue (a scenario, a study): a moved file is named, with the way on.
  const file = (stored as { file?: unknown }).file;
  if (typeof file === 'string' && !existsSync(file)) {
    throw new ConfigError([{ field: '--resume', message: `run ${run.id} continues from its file ${file}, which is not there: put the file back at that path, then resume with: ${commandHint(['run', '--resume', run.id], store.url)}` }]);
  }
  const ignored = PLAN_FLAGS.filter(p => given.has(p.flag)).map(p => p.name);
  if (suites.length) ignored.unshift('suites');
  const config: Record<string, unknown> = { ...stored, resume: run.id, retryErrors: f.retryErrors ?? false };
  const set = CONTINUE_FLAGS.filter(c => given.has(c.flag));
  for (const c of set) config[c.key] = c.value(f);
  if (given.has('tpm') && !given.has('rpm') && config.requestsPerMinute === undefined) {
    throw new ConfigError([{ field: '--tpm', message: 'a token limit goes with a request limit: add --rpm N (the provider\'s requests per minute)' }]);
  }
  // A flag the kind has no setting for (a scenario file sets its own concurrency) is named, not sent.
  const checked = kind.configSchema.safeParse(config);
  const unknown = checked.success ? [] : checked.error.issues.flatMap(i => (i.code === 'unrecognized_keys' ? i.keys : []));
  for (const key of unknown) {
    ignored.push(set.find(c => c.key === key)?.name ?? key);
    delete config[key];
  }
  // --plan-only stores what the flags change (a raised cap, say) for the run's workers and calls
  // nothing; a kind that no worker runs refuses it before anything starts.
  const planOnly = given.has('planOnly') && f.planOnly === true;
  if (planOnly) {
    if (!kind.configSchema.safeParse({ ...config, planOnly: true }).success) {
      throw new ConfigError([{ field: '--plan-only', message: `a ${run.kind} run is run by the command that resumes it, not by workers; resume it without --plan-only` }]);
    }
    config.planOnly = true;
  }
  if (ignored.length) process.stderr.write(`warning: --resume continues the stored ${run.kind} run as it was planned; ignoring ${ignored.join(', ')}\n`);

  const handle = startRun(config as RunConfig, { store, keepConfig: { update: set.map(c => c.key).filter(k => !unknown.includes(k)) } });
  const trialsAre = runKindOf(run).trialsAre;
  handle.on(createProgress(process.stderr, trialsAre));
  const detach = stopOnSignals(handle);
  try {
    const outcome: RunOutcome = await handle.done;
    const counts = runKindOf(run).counts?.(outcome) ?? `${outcome.done} done, ${outcome.failed} failed, ${outcome.pending} pending`;
    process.stderr.write(`run ${run.id} (${run.kind}): ${counts}; ${await spentText(store, run.id, outcome.spentUsd)} (store ${store.url})\n`);
    if (planOnly) {
      process.stderr.write(`planned; run its ${trialsAre ?? 'trials'} with: ${commandHint(['worker', '--run', run.id], store.url)} (as many as you like, on any machine that reaches the store)\n`);
      return { runId: run.id, exitCode: EXIT_CODES.ok };
    }
    if (f.report) {
      writeOutFile(f.report, await runKindOf(run).report(store, run, { format: 'html' }), '--report');
      process.stderr.write(`report: ${f.report}\n`);
    }
    if (outcome.stoppedBy || outcome.pending > 0) {
      const capUsd = config.costCapUsd as number | undefined;
      const cap = raisedCapArgs(outcome, capUsd);
      if (outcome.stoppedBy === 'cost-cap') process.stderr.write(`stopped: the next call could pass the cost cap of $${capUsd}; everything done so far is stored\n`);
      process.stderr.write(refusedCallLine(outcome, run.kind === 'suite' ? 'a lower --max-tokens' : "a smaller max_tokens in the models' settings"));
      process.stderr.write(`resume with: ${commandHint(['run', '--resume', run.id, ...cap, ...retryAfterUnreachableArgs(outcome, outcome.failed)], store.url)}\n`);
      return { runId: run.id, exitCode: EXIT_CODES.stopped };
    }
    if (outcome.failed > 0) {
      process.stderr.write(`${outcome.failed} trial(s) failed (provider errors, not scored as wrong); retry them with: ${commandHint(['run', '--resume', run.id, '--retry-errors'], store.url)}\n`);
      return { runId: run.id, exitCode: EXIT_CODES.trialsFailed };
    }
    process.stderr.write(`report: ${commandHint(['report', run.id, '--format', 'md', '--out', '-'], store.url)}\n`);
    return { runId: run.id, exitCode: EXIT_CODES.ok };
  } finally {
    detach();
  }
}
