import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigure } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));

type WorkerResult = { seconds: number; done: number; maxRssMB: number };

function worker(args: string[]): WorkerResult {
  const r = spawnSync(process.execPath, [join(here, 'spine-worker.js'), ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`spine worker ${args[0]} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as WorkerResult;
}

/**
 * Issue #8's memory goal at its own size: a report of 1,000,000 trials in under 1 GB, and a run
 * whose memory does not grow with it. Each step is a process of its own (its peak RSS alone),
 * ~3 minutes and ~2 GB of disk in all; the store is deleted afterwards. Run it by name:
 * `npm run bench -- million`.
 */
export default async function million(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'paideia-bench-million-'));
  try {
    const small = worker(['instant', '20000']);
    const run = worker(['instant', '1000000', join(dir, 'million.db')]);
    if (run.done !== 1_000_000) throw new Error(`expected 1,000,000 trials done, got ${run.done}`);
    const report = worker(['report', join(dir, 'million.db')]);
    return [
      { name: '1,000,000 trials: report (build + JSON, 200 resamples) peak memory', ours: report.maxRssMB, reference: 1024, unit: 'MB', referenceLabel: 'issue #8 goal', target: '< 1 GB', met: report.maxRssMB < 1024 },
      { name: '1,000,000 trials: report time', ours: report.seconds, reference: run.seconds, unit: 's', referenceLabel: 'the run that made the data, measured now', target: 'no slower than the run', met: report.seconds <= run.seconds },
      { name: '1,000,000 trials: run (plan, instant model, exact scoring, SQLite) peak memory', ours: run.maxRssMB, reference: small.maxRssMB, unit: 'MB', referenceLabel: 'a 20,000-trial run measured now', target: 'flat: < 2 x the 20,000-trial run', met: run.maxRssMB < 2 * small.maxRssMB },
      { name: '1,000,000 trials: run', ours: run.seconds, reference: small.seconds * 50, unit: 's', referenceLabel: '50 x the 20,000-trial run measured now (linear)', target: '<= linear', met: run.seconds <= small.seconds * 50 },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
