import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/index.js';
import { createDatabase, startTestCluster } from '../src/store/postgres/testing/cluster.js';
import type { BenchFigure } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', 'src', 'cli', 'main.js');
/** 100,000 trials by default (1,000 items x 100 repeats); PAIDEIA_BENCH_TRIALS=10000 for a shorter look. */
const TRIALS = Number(process.env.PAIDEIA_BENCH_TRIALS ?? 100_000);
const ITEMS = 1000;
const CONCURRENCY = 8;
const SERVER_DELAY_MS = 20;
/** Calls the model server answers at once (the rest queue): 4 workers fill it, 8 wait on it. */
const SERVER_SLOTS = 32;

function cli(args: string[], cwd: string): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`paideia ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return r.stdout.trim();
}

/** Seconds from starting `n` worker processes until the last one ended. */
async function workers(n: number, store: string, runId: string, cwd: string): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, () => new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'worker', '--store', store, '--run', runId, '--concurrency', String(CONCURRENCY)], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', code => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}: ${err.slice(-2000)}`))));
  })));
  return (performance.now() - t0) / 1000;
}

async function doneTrials(store: string, runId: string): Promise<number> {
  const s = await openStore(store, { readOnly: true });
  try {
    return [...(await s.listTrialStatuses(runId)).values()].filter(x => x === 'done').length;
  } finally {
    await s.close();
  }
}

/** Busy and total CPU time of the machine so far, in clock ticks (the first line of /proc/stat). */
function cpuTicks(): { busy: number; total: number } {
  const n = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = n.reduce((a, b) => a + b, 0);
  // idle and iowait: the time nobody ran.
  return { busy: total - n[3]! - (n[4] ?? 0), total };
}

/** CPU seconds of this process's children that ended (the workers, the CLI): cutime + cstime of /proc/self/stat. */
function childCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of proc(5), counted from the state (field 3); clock ticks of 1/100 s.
  return (Number(f[13]) + Number(f[14])) / 100;
}

/** The model server's own count since the last ask (bench/slow-server.ts). */
interface ServerStats { requests: number; maxInFlight: number; maxWaiting: number; fullShare: number }

/** Run `fn` and say what it cost the machine and what the server saw meanwhile. */
async function measured<T>(port: number, fn: () => Promise<T>): Promise<{ value: T; cpuBusy: number; ownCpu: number; seconds: number; server: ServerStats }> {
  const stats = async () => (await fetch(`http://127.0.0.1:${port}/stats`)).json() as Promise<ServerStats>;
  await stats();
  const [before, own, t0] = [cpuTicks(), childCpuSeconds(), performance.now()];
  const value = await fn();
  const after = cpuTicks();
  return {
    value, cpuBusy: (after.busy - before.busy) / Math.max(1, after.total - before.total), ownCpu: childCpuSeconds() - own,
    seconds: (performance.now() - t0) / 1000, server: await stats(),
  };
}

/**
 * Where a configuration's limit lay, read from the server and the machine: the model server when
 * its slots were full most of the time, the CPU when the cores were nearly all busy, else the
 * calls in flight over the server's delay (the latency bound).
 */
function limitOf(rate: number, inFlight: number, m: { server: ServerStats; cpuBusy: number; ownCpu: number; seconds: number }): string {
  const { server, cpuBusy } = m;
  const calls = Math.min(inFlight, SERVER_SLOTS);
  const bound = calls / (SERVER_DELAY_MS / 1000);
  const cores = availableParallelism();
  // Busy cores that were not ours: other jobs on the machine, or the PostgreSQL server.
  const others = cpuBusy * cores - m.ownCpu / m.seconds > cores / 2 ? ', most of it taken by other processes' : '';
  const where = server.fullShare > 0.5 ? 'the model server (its slots were full)' : cpuBusy > 0.9 ? `the CPU (${cores} cores${others})` : 'the calls in flight (latency-bound)';
  return `limit: ${where}; ${(100 * rate / bound).toFixed(0)}% of the ${bound.toFixed(0)} trials/s that ${calls} calls in flight at ${SERVER_DELAY_MS} ms allow; `
    + `CPU ${(100 * cpuBusy).toFixed(0)}% busy (the Paideia processes ${(m.ownCpu / m.seconds).toFixed(2)} of ${availableParallelism()} cores, ${(1000 * m.ownCpu / (rate * m.seconds)).toFixed(1)} ms per trial), server slots full ${(100 * server.fullShare).toFixed(0)}% of the time `
    + `(at most ${server.maxInFlight} in flight, ${server.maxWaiting} queued); load average ${loadavg()[0]!.toFixed(1)}`;
}

/**
 * Many workers on one run: throughput (trials/s) of 1, 2, 4 and 8 worker processes sharing a
 * PostgreSQL store, against a local model server answering after 20 ms with 32 slots, beside one
 * SQLite process running the same run. Every process runs CONCURRENCY calls at once. Each figure
 * says where its limit lay (the server's slots, the machine's CPU, or the calls in flight), from
 * the server's own count of full slots and the machine's busy time: on a machine with few cores
 * the workers, the server and PostgreSQL share them, and the curve flattens there, not at the
 * queue. Every configuration is checked: all trials done, one request per trial.
 */
export default async function distributed(): Promise<BenchFigure[]> {
  const cwd = mkdtempSync(join(tmpdir(), 'paideia-bench-dist-'));
  const suite = join(cwd, 'suite.jsonl');
  writeFileSync(suite, Array.from({ length: ITEMS }, (_, i) => JSON.stringify({
    id: `b-${i}`, test: 'grammar_forms', language: 'ga', input: { lemma: `focal${i}`, pos: 'noun', form: 'sgGen', formLabel: 'genitive singular' },
    accepted: ['focail'], source: { dataset: 'bench', key: String(i) }, licence: 'CC0-1.0', evidence: 'synthetic',
    visibility: 'private', contamination: 'private', human_checked: false,
  })).join('\n'));
  const repeats = Math.max(1, Math.round(TRIALS / ITEMS));
  const trials = repeats * ITEMS;
  const server = spawn(process.execPath, [join(here, 'slow-server.js'), String(SERVER_DELAY_MS), String(SERVER_SLOTS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>(resolve => server.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  const planArgs = (store: string) => ['run', suite, '-m', 'openai:m', '--repeats', String(repeats), '--base-url', `http://127.0.0.1:${port}/v1`, '--store', store, '--concurrency', String(CONCURRENCY)];
  // Benches keep PostgreSQL's default durability (fsync on), as SQLite keeps its own.
  const cluster = await startTestCluster({ durable: true });
  const figures: BenchFigure[] = [];
  try {
    const one = join(cwd, 'one.db');
    const single = await measured(port, async () => {
      const t0 = performance.now();
      const id = cli(planArgs(`sqlite:${one}`), cwd);
      return { id, seconds: (performance.now() - t0) / 1000 };
    });
    if ((await doneTrials(`sqlite:${one}`, single.value.id)) !== trials) throw new Error('the SQLite run did not finish every trial');
    const sqliteRate = trials / single.value.seconds;
    console.log(`  one SQLite process: ${sqliteRate.toFixed(1)} trials/s; ${limitOf(sqliteRate, CONCURRENCY, single)}`);
    const rates = new Map<number, { rate: number; limit: string }>();
    for (const n of [1, 2, 4, 8]) {
      const url = createDatabase(cluster, `bench_${n}`);
      const runId = cli([...planArgs(url), '--plan-only'], cwd);
      const run = await measured(port, () => workers(n, url, runId, cwd));
      const done = await doneTrials(url, runId);
      if (done !== trials) throw new Error(`${n} worker(s) finished ${done} of ${trials} trials`);
      if (run.server.requests !== trials) throw new Error(`${n} worker(s): the server answered ${run.server.requests} requests for ${trials} trials`);
      const rate = trials / run.value;
      rates.set(n, { rate, limit: limitOf(rate, n * CONCURRENCY, run) });
      console.log(`  ${n} worker(s): ${rate.toFixed(1)} trials/s; ${rates.get(n)!.limit}`);
    }
    for (const [n, { rate, limit }] of rates) {
      figures.push({
        name: `${trials.toLocaleString('en')} trials, ${n} worker process(es) on PostgreSQL (concurrency ${CONCURRENCY} each, ${SERVER_DELAY_MS} ms server with ${SERVER_SLOTS} slots); ${limit}`,
        ours: rate, reference: sqliteRate, unit: 'req/s', referenceLabel: `one SQLite process (paideia run, plan included), measured now: ${single.value.seconds.toFixed(1)} s`,
        target: n === 1 ? '>= 50% of the SQLite process' : `>= the ${n / 2}-worker rate (scaling until the machine is the limit)`,
        met: n === 1 ? rate >= 0.5 * sqliteRate : rate >= 0.95 * rates.get(n / 2)!.rate,
      });
    }
  } finally {
    server.kill();
    cluster.destroy();
  }
  return figures;
}
