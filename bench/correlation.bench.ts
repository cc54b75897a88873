import { spawnSync } from 'node:child_process';
import { distanceCorrelationSq, kendallTauB, siegel, theilSen } from '../src/stats/correlation/index.js';
import { createRng } from '../src/stats/random/index.js';
import { medianSeconds, type BenchFigure } from './harness.js';

// Figures from issue #3, used when scipy cannot be run here; R energy is never installed, so the
// dcor reference is always the issue's figure.
const ISSUE = { kendall: 0.73, theilSen: 2.9, siegel: 2.9, dcorEnergy: 2.1 };
const SIZES = { kendall: 1_000_000, slopes: 5_000, dcor: 100_000 };
const SEED = 20260301;

/** x uniform, y = x + uniform noise: correlated, continuous (no ties), the same recipe as the Python side. */
function pairs(n: number, seed: number): [Float64Array, Float64Array] {
  const rng = createRng(seed);
  const x = Float64Array.from({ length: n }, () => rng.nextFloat());
  return [x, x.map(v => v + rng.nextFloat())];
}

// Times one scipy function on an input of the same size and recipe (numpy's generator, so not
// the same draws). Run just before our own timing of the same statistic, so both see the same
// machine load.
const PYTHON = `
import json, sys, time
import numpy as np, scipy
from scipy import stats
name, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(${SEED})
x = rng.random(n)
y = x + rng.random(n)
f = {"kendall": lambda: stats.kendalltau(x, y),
     "theilSen": lambda: stats.theilslopes(y, x),
     "siegel": lambda: stats.siegelslopes(y, x)}[name]
f()
times = []
for _ in range(runs):
    t0 = time.perf_counter(); f(); times.append(time.perf_counter() - t0)
print(json.dumps({"version": scipy.__version__, "seconds": sorted(times)[len(times) // 2]}))
`;

type ScipyKey = 'kendall' | 'theilSen' | 'siegel';
const scipyAvailable = (): boolean => spawnSync('python3', ['-c', 'import scipy'], { stdio: 'ignore' }).status === 0;

/** The reference for one statistic: scipy measured now when possible, else the issue's figure. */
function scipyReference(key: ScipyKey, fn: string, n: number, runs: number, available: boolean) {
  if (available) {
    const run = spawnSync('python3', ['-c', PYTHON, key, String(n), String(runs)], { encoding: 'utf8', timeout: 600_000 });
    if (run.status === 0) {
      const { version, seconds } = JSON.parse(run.stdout) as { version: string; seconds: number };
      return { reference: seconds, referenceLabel: `scipy ${version} ${fn}, measured now` };
    }
    console.warn(`scipy ${fn} timing failed, using the issue #3 figure: ${run.stderr.trim().split('\n').pop()}`);
  }
  return { reference: ISSUE[key], referenceLabel: 'issue #3 figure' };
}

export default async function correlationBench(): Promise<BenchFigure[]> {
  const available = scipyAvailable();

  const kendallRef = scipyReference('kendall', 'kendalltau', SIZES.kendall, 5, available);
  const [kx, ky] = pairs(SIZES.kendall, SEED);
  const kendall = await medianSeconds(() => kendallTauB(kx, ky), 5);

  const [sx, sy] = pairs(SIZES.slopes, SEED + 1);
  const theilRef = scipyReference('theilSen', 'theilslopes', SIZES.slopes, 3, available);
  const theil = await medianSeconds(() => theilSen(sx, sy), 3);
  const siegelRef = scipyReference('siegel', 'siegelslopes', SIZES.slopes, 3, available);
  const rm = await medianSeconds(() => siegel(sx, sy), 3);

  const [dx, dy] = pairs(SIZES.dcor, SEED + 2);
  const dcor = await medianSeconds(() => distanceCorrelationSq(dx, dy), 5);

  return [
    {
      name: 'Kendall tau-b with p-value, n = 1,000,000',
      ours: kendall,
      ...kendallRef,
      unit: 's',
      target: 'within 1.5x of scipy (ours <= 1.5 x reference)',
      met: kendall <= 1.5 * kendallRef.reference,
    },
    {
      name: 'Theil-Sen slope, intercept and 95% CI, n = 5,000',
      ours: theil,
      ...theilRef,
      unit: 's',
      target: 'at least as fast as scipy',
      met: theil <= theilRef.reference,
    },
    {
      name: 'Siegel repeated medians (hierarchical), n = 5,000',
      ours: rm,
      ...siegelRef,
      unit: 's',
      target: 'at least as fast as scipy',
      met: rm <= siegelRef.reference,
    },
    {
      name: 'bias-corrected dcor^2 (O(n log n) path), n = 100,000',
      ours: dcor,
      reference: ISSUE.dcorEnergy,
      referenceLabel: 'issue #3 figure (R energy dcor2d; R not installed here)',
      unit: 's',
      target: 'at least as fast as R energy',
      met: dcor <= ISSUE.dcorEnergy,
    },
  ];
}
