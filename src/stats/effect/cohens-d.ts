import { finiteArray, sameLength, StatsInputError, type NumericArray } from '../inference/errors.js';
import { meanAndSs } from '../inference/moments.js';


/**
 * Cohen's d of two independent samples with the pooled standard deviation:
 * (mean(a) - mean(b)) / sqrt((SS_a + SS_b) / (n_a + n_b - 2)). Needs one value in each sample and
 * three in all (one degree of freedom). Undefined, so NaN, when the pooled SD is 0 (every value
 * of each sample equal): a difference with no spread has no scale, so no effect size.
 */
export function cohensD(a: NumericArray, b: NumericArray): number {
  const xa = finiteArray('a', a, 1);
  const xb = finiteArray('b', b, 1);
  if (xa.length + xb.length < 3) throw new StatsInputError('b', `needs at least 3 values in all (a pooled SD needs one degree of freedom), got ${xa.length + xb.length}`);
  const [ma, ssa] = meanAndSs(xa);
  const [mb, ssb] = meanAndSs(xb);
  const sd = Math.sqrt((ssa + ssb) / (xa.length + xb.length - 2));
  return sd === 0 ? NaN : (ma - mb) / sd;
}

/**
 * Cohen's d_z of paired samples: mean(a - b) / sd(a - b) (n - 1 denominator), which is the
 * paired t divided by sqrt(n). Needs two pairs; NaN when every difference is the same (sd 0).
 */
export function cohensDz(a: NumericArray, b: NumericArray): number {
  const xa = finiteArray('a', a, 2);
  const xb = finiteArray('b', b, 2);
  sameLength('a', xa, 'b', xb);
  const d = new Float64Array(xa.length);
  for (let i = 0; i < d.length; i++) d[i] = xa[i]! - xb[i]!;
  const [m, ss] = meanAndSs(d);
  const sd = Math.sqrt(ss / (d.length - 1));
  return sd === 0 ? NaN : m / sd;
}
