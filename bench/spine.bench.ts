import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigure } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));

type WorkerResult = { seconds: number; callSeconds: number; done: number; failed: number; maxRssMB: number };

function worker(args: string[]): WorkerResult {
  const r = spawnSync(process.execPath, [join(here, 'spine-worker.js'), ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`spine worker failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as WorkerResult;
}

/** Spine throughput: 20,000 trials with an instant model, and HTTP calls against a 50 ms server. */
export default async function spine(): Promise<BenchFigure[]> {
  const runs = [0, 1, 2].map(() => worker(['instant', '20000']));
  runs.sort((a, b) => a.seconds - b.seconds);
  const mid = runs[1]!;
  if (mid.done !== 20000) throw new Error(`expected 20000 trials done, got ${mid.done}`);
  const peak = Math.max(...runs.map(r => r.maxRssMB));
  // The same 20,000 items through `paideia run`, whole process, alternating with nothing else.
  const clis = [0, 1, 2].map(() => worker(['cli', '20000'])).sort((a, b) => a.seconds - b.seconds);
  const cli = clis[1]!;
  if (cli.done !== 20000) throw new Error(`expected the summary of paideia run to count 20000 items, got ${cli.done}`);

  // 200,000 trials: the run, then its report and its rescore, each a process of its own (peak memory apiece).
  const big = join(mkdtempSync(join(tmpdir(), 'paideia-bench-big-')), 'big.db');
  const run200 = worker(['instant', '200000', big]);
  const report200 = worker(['report', big]);
  const rescore200 = worker(['rescore', big]);
  if (run200.done !== 200000 || rescore200.done !== 200000) throw new Error(`expected 200000 trials, got run ${run200.done}, rescore ${rescore200.done}`);

  const server = spawn(process.execPath, [join(here, 'slow-server.js'), '50'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>(resolve => server.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  // 10 s of calls at the latency bound; the rate is over the calling phase (loading and planning
  // the items is the instant figure above).
  const requests = 12800;
  // Three runs of each, alternating, medians quoted: one run is at the mercy of a noisy machine.
  const rates: number[] = [];
  const bares: number[] = [];
  const rates256: number[] = [];
  const bares256: number[] = [];
  const turnRates: number[] = [];
  // Teacher/student dialogues of 4 turns, 64 at once: each turn waits 50 ms, so 64 / 0.05 s is the limit.
  const dialogues = 1280;
  try {
    for (let i = 0; i < 3; i++) {
      const http = worker(['http', String(requests), `http://127.0.0.1:${port}/v1`, '64']);
      if (http.done !== requests) throw new Error(`expected ${requests} calls done, got ${http.done} (failed ${http.failed})`);
      rates.push(http.done / http.callSeconds);
      const b = spawnSync(process.execPath, [join(here, 'bare-client.js'), String(port), String(requests), '64'], { encoding: 'utf8' });
      if (b.status !== 0) throw new Error(`bare client failed: ${b.stderr}`);
      bares.push((JSON.parse(b.stdout) as { rate: number }).rate);
      const wide = worker(['http', String(requests * 2), `http://127.0.0.1:${port}/v1`, '256']);
      rates256.push(wide.done / wide.callSeconds);
      const b256 = spawnSync(process.execPath, [join(here, 'bare-client.js'), String(port), String(requests * 2), '256'], { encoding: 'utf8' });
      if (b256.status !== 0) throw new Error(`bare client failed: ${b256.stderr}`);
      bares256.push((JSON.parse(b256.stdout) as { rate: number }).rate);
      const turns = worker(['scenario', String(dialogues), `http://127.0.0.1:${port}/v1`, '64']);
      if (turns.done !== dialogues * 4) throw new Error(`expected ${dialogues * 4} stored turns, got ${turns.done}`);
      turnRates.push(turns.done / turns.callSeconds);
    }
  } finally {
    server.kill();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = median(rates);
  const bare = median(bares);
  return [
    { name: '20,000 trials: plan, instant model, exact scoring, SQLite storage (median of 3 processes)', ours: mid.seconds, reference: 2, unit: 's', referenceLabel: 'issue #2 limit (promptfoo 0.120: ~110 s for 20,000 echo tests)', target: '< 2 s', met: mid.seconds < 2 },
    { name: '20,000 trials through `paideia run` (baseline:gold, whole process: start-up, plan, run, summary, close; median of 3)', ours: cli.seconds, reference: mid.seconds, unit: 's', referenceLabel: 'the same trials through the library, measured now', target: '<= 1.5 x the library run', met: cli.seconds <= 1.5 * mid.seconds },
    { name: '20,000 trials: peak memory (max RSS of the worker process)', ours: peak, reference: 250, unit: 'MB', referenceLabel: 'issue #2 limit (promptfoo 0.120: ~840 MB)', target: '< 250 MB', met: peak < 250 },
    { name: `HTTP throughput at concurrency 64 against a 50 ms local server (${requests} requests, median of 3)`, ours: rate, reference: 1280, unit: 'req/s', referenceLabel: 'latency bound 64 / 0.05 s', target: '>= 95% of 1,280 req/s', met: rate >= 0.95 * 1280 },
    // What the machine allows: a bare node:http client against the same server, measured right after.
    { name: 'HTTP throughput beside a bare node:http client (same server, same concurrency)', ours: rate, reference: bare, unit: 'req/s', referenceLabel: 'bare keep-alive client, no parsing or storage, measured now', target: '>= 95% of the bare client', met: rate >= 0.95 * bare },
    { name: 'HTTP throughput at concurrency 256 beside a bare node:http client (median of 3)', ours: median(rates256), reference: median(bares256), unit: 'req/s', referenceLabel: 'bare keep-alive client at 256, measured now', target: '>= 95% of the bare client', met: median(rates256) >= 0.95 * median(bares256) },
    { name: `Scenario turns at concurrency 64 against a 50 ms local server (${dialogues} teacher/student dialogues of 4 turns, median of 3)`, ours: median(turnRates), reference: 1280, unit: 'turns/s', referenceLabel: 'turn limit 64 / 0.05 s', target: '>= 95% of 1,280 turns/s (issue #8)', met: median(turnRates) >= 0.95 * 1280 },
    { name: '200,000 trials: run (plan, instant model, exact scoring, SQLite)', ours: run200.seconds, reference: mid.seconds * 10, unit: 's', referenceLabel: '10 x the 20,000-trial run measured now (linear)', target: '<= linear', met: run200.seconds <= mid.seconds * 10 },
    { name: '200,000 trials: run peak memory', ours: run200.maxRssMB, reference: peak, unit: 'MB', referenceLabel: 'the 20,000-trial run measured now', target: 'flat: < 2 x the 20,000-trial run', met: run200.maxRssMB < 2 * peak },
    { name: '200,000 trials: report (build + JSON, 200 resamples)', ours: report200.seconds, reference: run200.seconds, unit: 's', referenceLabel: 'the run that made the data, measured now', target: 'no slower than the run', met: report200.seconds <= run200.seconds },
    { name: '200,000 trials: report peak memory', ours: report200.maxRssMB, reference: 1024, unit: 'MB', referenceLabel: 'issue #8 goal: 1,000,000 trials in under 1 GB', target: '< 1 GB at 200,000', met: report200.maxRssMB < 1024 },
    { name: '200,000 trials: rescore', ours: rescore200.seconds, reference: run200.seconds, unit: 's', referenceLabel: 'the run that made the data, measured now', target: 'no slower than the run', met: rescore200.seconds <= run200.seconds },
  ];
}
