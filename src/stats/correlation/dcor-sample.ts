import { CorrelationInputError, finiteSample } from './errors.js';

/** One variable (numbers) or several (one row of numbers per observation). */
export type DistanceSample = ArrayLike<number> | ReadonlyArray<ArrayLike<number>>;

/** Observations as a row-major n x d matrix. */
export interface PointMatrix {
  n: number;
  d: number;
  data: Float64Array;
}

export function toPointMatrix(sample: DistanceSample, argument: string, fn: string): PointMatrix {
  if (sample === null || typeof sample !== 'object' || typeof sample.length !== 'number') {
    throw new CorrelationInputError({
      problem: 'not-numeric',
      argument,
      message: `${fn}: ${argument} must be an array of numbers or an array of rows, got ${sample === null ? 'null' : typeof sample}.`,
    });
  }
  const n = sample.length;
  const first = n > 0 ? sample[0] : undefined;
  if (typeof first !== 'object' || first === null) {
    return { n, d: 1, data: finiteSample(sample as ArrayLike<number>, argument, fn) };
  }
  const rows = sample as ReadonlyArray<ArrayLike<number>>;
  const d = first.length;
  const data = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (typeof row !== 'object' || row === null || row.length !== d || d === 0) {
      throw new CorrelationInputError({
        problem: 'ragged-rows',
        argument,
        index: i,
        message: `${fn}: ${argument}[${i}] has ${row && typeof row === 'object' ? row.length : 'no'} columns but ${argument}[0] has ${d}; every observation needs the same number (>= 1) of coordinates.`,
      });
    }
    data.set(finiteSample(row, `${argument}[${i}]`, fn), i * d);
  }
  return { n, d, data };
}
