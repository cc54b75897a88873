/** What was wrong with the input, as data: callers switch on `problem`, people read `message`. */
export type CorrelationInputProblem =
  | 'not-numeric'
  | 'not-finite'
  | 'length-mismatch'
  | 'too-few-points'
  | 'ragged-rows'
  | 'bad-option';

const marker = Symbol.for('paideia.stats.correlation-input-error');

/**
 * Bad input to a correlation or robust-slope function. A RangeError because the values are outside
 * what the statistic is defined on; `argument` names the offending parameter and `index` the first
 * offending element when there is one.
 */
export class CorrelationInputError extends RangeError {
  readonly [marker] = true;
  readonly problem: CorrelationInputProblem;
  readonly argument: string;
  readonly index: number | undefined;
  constructor(args: { problem: CorrelationInputProblem; argument: string; message: string; index?: number }) {
    super(args.message);
    this.name = 'CorrelationInputError';
    this.problem = args.problem;
    this.argument = args.argument;
    this.index = args.index;
  }
  static isInstance(error: unknown): error is CorrelationInputError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** Copies `values` into a Float64Array, rejecting anything that is not a finite number. */
export function finiteSample(values: ArrayLike<number>, argument: string, fn: string): Float64Array {
  if (values === null || typeof values !== 'object' || typeof values.length !== 'number') {
    throw new CorrelationInputError({
      problem: 'not-numeric',
      argument,
      message: `${fn}: ${argument} must be an array of numbers, got ${values === null ? 'null' : typeof values}.`,
    });
  }
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') {
      throw new CorrelationInputError({
        problem: 'not-numeric',
        argument,
        index: i,
        message: `${fn}: ${argument}[${i}] is ${typeof v}, not a number; convert scores to numbers first.`,
      });
    }
    if (!Number.isFinite(v)) {
      throw new CorrelationInputError({
        problem: 'not-finite',
        argument,
        index: i,
        message: `${fn}: ${argument}[${i}] is ${v}; inputs must be finite. Drop unscored pairs (NaN) before correlating.`,
      });
    }
    // `+ 0` turns -0 into +0 so that the two zeros rank as one value.
    out[i] = v + 0;
  }
  return out;
}

/** Validates a pair of paired samples and returns them as Float64Arrays. */
export function pairedSamples(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  fn: string,
  minN: number,
): [Float64Array, Float64Array] {
  const xs = finiteSample(x, 'x', fn);
  const ys = finiteSample(y, 'y', fn);
  checkPairedLength(xs.length, ys.length, fn, minN);
  return [xs, ys];
}

export function checkPairedLength(nx: number, ny: number, fn: string, minN: number): void {
  if (nx !== ny) {
    throw new CorrelationInputError({
      problem: 'length-mismatch',
      argument: 'y',
      message: `${fn}: x has ${nx} values but y has ${ny}; pass paired observations of equal length.`,
    });
  }
  if (nx < minN) {
    throw new CorrelationInputError({
      problem: 'too-few-points',
      argument: 'x',
      message: `${fn} needs at least ${minN} paired observations, got ${nx}.`,
    });
  }
}

export function badOption(fn: string, option: string, message: string): CorrelationInputError {
  return new CorrelationInputError({ problem: 'bad-option', argument: option, message: `${fn}: ${message}` });
}
