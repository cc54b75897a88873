/** Mean and sum of squared deviations of a sample, in two passes (steadier than one-pass sums). */
export function meanAndSs(x: Float64Array): [number, number] {
  let m = 0;
  for (let i = 0; i < x.length; i++) m += x[i]!;
  m /= x.length;
  let ss = 0;
  for (let i = 0; i < x.length; i++) ss += (x[i]! - m) ** 2;
  return [m, ss];
}
