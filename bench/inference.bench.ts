import { spawnSync } from 'node:child_process';
import { varianceComponents } from '../src/stats/gtheory/index.js';
import { bootstrapCI } from '../src/stats/inference/index.js';
import { createRng } from '../src/stats/random/index.js';
import { medianSeconds, type BenchFigure } from './harness.js';

// Workloads from the stats brief: 2,000 bootstrap means of 10,000 values (numpy took 0.23 s on the
// brief's machine) and a G study over 103,148 cells (target < 0.5 s).
const N = 10_000;
const RESAMPLES = 2_000;
const NUMPY_ISSUE_SECONDS = 0.23;
// 241 x 107 x 2 x 2 = 103,148 exactly (obs x item x llm x prompt).
const SIZES = { obs: 241, item: 107, llm: 2, prompt: 2 } as const;
const G_TARGET_SECONDS = 0.5;

// Same work as ours: B x n uniform indices, the resample means, the two percentile bounds.
const NUMPY = `
import sys, time
import numpy as np
n, B, runs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
x = np.random.default_rng(1).exponential(2.0, n)
rng = np.random.default_rng(2)
def once():
    means = x[rng.integers(0, n, (B, n))].mean(axis=1)
    np.percentile(means, [2.5, 97.5])
once()
times = []
for _ in range(runs):
    t0 = time.perf_counter(); once(); times.append(time.perf_counter() - t0)
times.sort()
print(times[len(times) // 2])
`;

function numpySeconds(runs: number): number | undefined {
  if (spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }).status !== 0) return undefined;
  const run = spawnSync('python3', ['-c', NUMPY, String(N), String(RESAMPLES), String(runs)], { encoding: 'utf8', timeout: 600_000 });
  const value = Number(run.stdout.trim());
  return run.status === 0 && Number.isFinite(value) ? value : undefined;
}

function gStudyRows(): Record<string, number>[] {
  const rng = createRng(20261129);
  const rows: Record<string, number>[] = [];
  for (let o = 0; o < SIZES.obs; o++) {
    for (let i = 0; i < SIZES.item; i++) {
      for (let l = 0; l < SIZES.llm; l++) {
        for (let p = 0; p < SIZES.prompt; p++) {
          rows.push({ obs: o, item: i, llm: l, prompt: p, score: Math.round(10 * (o % 7 + i % 5 + l + rng.nextFloat() * 4)) / 2 });
        }
      }
    }
  }
  return rows;
}

export default async function inferenceBench(): Promise<BenchFigure[]> {
  const expRng = createRng(1);
  const x = Float64Array.from({ length: N }, () => -2 * Math.log(1 - expRng.nextFloat()));
  const ours = await medianSeconds(() => bootstrapCI(x, 'mean', { resamples: RESAMPLES, seed: 2 }), 7);
  const measured = numpySeconds(7);
  const reference = measured ?? NUMPY_ISSUE_SECONDS;

  const rows = gStudyRows();
  const facets = Object.keys(SIZES);
  const gSeconds = await medianSeconds(() => varianceComponents(rows, { facets, value: 'score' }), 5);
  return [
    {
      name: `bootstrapCI: ${RESAMPLES.toLocaleString('en')} percentile bootstrap means of ${N.toLocaleString('en')} values`,
      ours,
      reference,
      unit: 's',
      referenceLabel: measured === undefined
        ? 'numpy, figure from the brief (python3/numpy not available here)'
        : 'numpy default_rng integers + fancy-index mean + percentile, measured now',
      target: 'no slower than numpy',
      met: ours <= reference,
    },
    {
      name: `varianceComponents: ${rows.length.toLocaleString('en')} cells, obs x item x llm x prompt (241 x 107 x 2 x 2)`,
      ours: gSeconds,
      reference: G_TARGET_SECONDS,
      unit: 's',
      referenceLabel: 'target from the brief',
      target: '< 0.5 s',
      met: gSeconds < G_TARGET_SECONDS,
    },
  ];
}
