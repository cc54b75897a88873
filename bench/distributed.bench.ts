import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/index.js';
import { createDatabase, startTestCluster } from '../src/store/postgres/testing/cluster.js';
import type { BenchFigure } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', 'src', 'cli', 'main.js');
/** 100,000 trials by default (1,000 items x 100 repeats); PAIDEIA_BENCH_TRIALS=20000 for a quick look. */
const TRIALS = Number(process.env.PAIDEIA_BENCH_TRIALS ?? 100_000);
const ITEMS = 1000;
const CONCURRENCY = 8;
const SERVER_DELAY_MS = 20;

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

/**
 * Many workers on one run: throughput (trials/s) of 1, 2, 4 and 8 worker processes sharing a
 * PostgreSQL store, against a local model server answering after 20 ms, beside one SQLite process
 * running the same run. Every process runs CONCURRENCY calls at once. This machine has 2 cores,
 * shared by the workers, the server and PostgreSQL: the curve flattens where they run out.
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
  const server = spawn(process.execPath, [join(here, 'slow-server.js'), String(SERVER_DELAY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>(resolve => server.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  const planArgs = (store: string) => ['run', suite, '-m', 'openai:m', '--repeats', String(repeats), '--base-url', `http://127.0.0.1:${port}/v1`, '--store', store, '--concurrency', String(CONCURRENCY)];
  // Benches keep PostgreSQL's default durability (fsync on), as SQLite keeps its own.
  const cluster = await startTestCluster({ durable: true });
  const figures: BenchFigure[] = [];
  try {
    const t0 = performance.now();
    const one = join(cwd, 'one.db');
    const sqliteRun = cli(planArgs(`sqlite:${one}`), cwd);
    const sqliteSeconds = (performance.now() - t0) / 1000;
    if ((await doneTrials(`sqlite:${one}`, sqliteRun)) !== trials) throw new Error('the SQLite run did not finish every trial');
    const sqliteRate = trials / sqliteSeconds;
    const rates = new Map<number, number>();
    for (const n of [1, 2, 4, 8]) {
      const url = createDatabase(cluster, `bench_${n}`);
      const runId = cli([...planArgs(url), '--plan-only'], cwd);
      const seconds = await workers(n, url, runId, cwd);
      const done = await doneTrials(url, runId);
      if (done !== trials) throw new Error(`${n} worker(s) finished ${done} of ${trials} trials`);
      rates.set(n, trials / seconds);
    }
    for (const [n, rate] of rates) {
      figures.push({
        name: `${trials.toLocaleString('en')} trials, ${n} worker process(es) on PostgreSQL (concurrency ${CONCURRENCY} each, ${SERVER_DELAY_MS} ms server)`,
        ours: rate, reference: sqliteRate, unit: 'req/s', referenceLabel: `one SQLite process (paideia run, plan included), measured now: ${sqliteSeconds.toFixed(1)} s`,
        target: n === 1 ? '>= 50% of the SQLite process' : `>= the ${n / 2}-worker rate (scaling until the machine is the limit)`,
        met: n === 1 ? rate >= 0.5 * sqliteRate : rate >= 0.95 * rates.get(n / 2)!,
      });
    }
  } finally {
    server.kill();
    cluster.destroy();
  }
  return figures;
}
