import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigure } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const TRIALS = 100_000;

function node(file: string, args: string[]): string {
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, file), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${file} failed: ${r.stderr}`);
  return r.stdout;
}

/** The web app on a 100,000-trial run: first page, later pages and a search, against loading the whole run. */
export default async function web(): Promise<BenchFigure[]> {
  const db = join(mkdtempSync(join(tmpdir(), 'paideia-bench-web-')), 'web.db');
  node('spine-worker.js', ['instant', String(TRIALS), db]);
  const r = JSON.parse(node('web-worker.js', [db])) as {
    total: number; cold: number; built: number; pageBytes: number; warm: number; search: number; indexMB: number; allSeconds: number; allMB: number;
  };
  if (r.total !== TRIALS) throw new Error(`expected ${TRIALS} trials, got ${r.total}`);
  const label = 'every trial and call of the run read from the store, measured now';
  return [
    // The first page reads its own trials alone (run-index-page.ts): its time should not grow with the run.
    { name: `first trial page of a ${TRIALS.toLocaleString('en')}-trial run, cold (read for its own trials alone while the index builds; ${r.pageBytes} bytes sent)`, ours: r.cold, reference: r.allSeconds, unit: 's', referenceLabel: label, target: '<= 0.1x loading the whole run once', met: r.cold <= 0.1 * r.allSeconds },
    { name: 'the whole trial index built, cold (a filtered page asked right after the first)', ours: r.built, reference: r.allSeconds, unit: 's', referenceLabel: label, target: '<= 3x loading the whole run once', met: r.built <= 3 * r.allSeconds },
    { name: 'a later trial page (offset up to 80,000), warm', ours: r.warm, reference: r.allSeconds, unit: 's', referenceLabel: label, target: '>= 20x faster than loading the whole run', met: r.warm * 20 <= r.allSeconds },
    { name: 'a regex search over inputs and outputs with a filter, warm', ours: r.search, reference: r.allSeconds, unit: 's', referenceLabel: label, target: '>= 5x faster than loading the whole run', met: r.search * 5 <= r.allSeconds },
    { name: 'server heap held by the run\'s trial index', ours: r.indexMB, reference: r.allMB, unit: 'MB', referenceLabel: 'heap of every trial and call record of the run, measured now', target: '<= 0.5x the whole run in memory', met: r.indexMB <= 0.5 * r.allMB },
  ];
}
