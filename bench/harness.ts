/**
 * A benchmark figure: what we measured beside the reference it is judged against, and the ratio
 * that the target is stated in. Benchmarks never assert; they print.
 */
export interface BenchFigure {
  /** What was measured, e.g. "chrF++ on 20,000 sentence pairs". */
  name: string;
  /** Our measured value. */
  ours: number;
  /** The reference value (measured here side by side when possible, else the documented figure). */
  reference: number;
  unit: 's' | 'MB' | 'req/s' | 'slides/s' | 'turns/s';
  /** Where the reference comes from, e.g. "scipy 1.17 kendalltau, measured now" or "issue #3 figure". */
  referenceLabel: string;
  /** The target in words, e.g. ">= 10x faster". */
  target: string;
  /** True when the target is met. */
  met: boolean;
}

/** A benchmark module exports a default function returning its figures. */
export type BenchModule = { default: () => Promise<BenchFigure[]> };

/** Median wall time in seconds of `fn` over `runs` runs after one warm-up. */
export async function medianSeconds(fn: () => unknown | Promise<unknown>, runs = 5): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export function formatFigure(f: BenchFigure): string {
  const isRate = f.unit.endsWith('/s');
  const ratio = isRate ? f.ours / f.reference : f.reference / f.ours;
  const word = isRate ? 'of reference' : 'x faster/smaller than reference';
  return [
    `${f.met ? 'MET ' : 'MISS'} ${f.name}`,
    `  ours ${fmt(f.ours)} ${f.unit} | reference ${fmt(f.reference)} ${f.unit} (${f.referenceLabel})`,
    `  ratio ${ratio.toFixed(3)} ${word}; target ${f.target}`,
  ].join('\n');
}

function fmt(x: number): string {
  return Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3);
}
