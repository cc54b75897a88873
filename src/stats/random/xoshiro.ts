import { StatsInputError, integerIn } from '../inference/errors.js';

const TWO_32 = 4294967296;
const INV_TWO_32 = 1 / TWO_32;
/** Up to this bound x * n (x < 2^32) is exact in a double. */
const SMALL = 2097152;

function checkBound(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > TWO_32) {
    throw new StatsInputError('n', `must be an integer in [1, 2^32], got ${String(n)}`);
  }
}

/** Exact 64-bit product of two 32-bit unsigned integers as [high word, low word]. */
function mul32(x: number, n: number): [number, number] {
  const nh = Math.floor(n / 65536);
  const nl = n - nh * 65536;
  const a = x * nl; // < 2^48, exact
  const b = x * nh; // < 2^48, exact; contributes b * 2^16
  const aHi = Math.floor(a / TWO_32);
  const bHi = Math.floor(b / 65536);
  let lo = (a - aHi * TWO_32) + (b - bHi * 65536) * 65536;
  let hi = aHi + bHi;
  if (lo >= TWO_32) {
    lo -= TWO_32;
    hi += 1;
  }
  return [hi, lo];
}
const MASK64 = (1n << 64n) - 1n;

/**
 * Seeded pseudo-random generator: xoshiro128** 1.0 (Blackman & Vigna 2018) over four 32-bit words,
 * seeded by SplitMix64 (Vigna 2015) so that any seed gives a well-mixed, non-zero state.
 *
 * The stream is fully specified, so a seed reproduces it on every machine and engine:
 * - seeding: run SplitMix64 from `state = seed` twice (`state += 0x9E3779B97F4A7C15`, then
 *   `z = (z ^ z>>>30) * 0xBF58476D1CE4E5B9`, `z = (z ^ z>>>27) * 0x94D049BB133111EB`,
 *   `z ^= z>>>31`, all mod 2^64); words are s0 = low32(z1), s1 = high32(z1), s2 = low32(z2),
 *   s3 = high32(z2);
 * - `nextUint32()`: xoshiro128** output `rotl(s1 * 5, 7) * 9` then the state update;
 * - `nextFloat()`: `(a >>> 5) * 2^26 + (b >>> 6)` over 2^53 from two consecutive outputs a, b
 *   (53 random bits, in [0, 1));
 * - `nextInt(n)`: Lemire's multiply-shift with rejection (Lemire 2019, "Fast random integer
 *   generation in an interval"), unbiased: draw x, m = x * n (exact 64-bit product); reject while
 *   `m mod 2^32 < 2^32 mod n`; return `floor(m / 2^32)`.
 *
 * `__fixtures__/random_reference.py` is an independent Python reimplementation of the same
 * specification; the test compares the first outputs of several seeds against it.
 * Not cryptographic.
 */
export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  /** The seed this generator started from. */
  readonly seed: number;

  /** `seed`: an integer in [0, 2^53 - 1]. */
  constructor(seed: number) {
    this.seed = integerIn('seed', seed, 0);
    let state = BigInt(seed);
    const words: number[] = [];
    for (let k = 0; k < 2; k++) {
      state = (state + 0x9e3779b97f4a7c15n) & MASK64;
      let z = state;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
      z = z ^ (z >> 31n);
      words.push(Number(z & 0xffffffffn), Number(z >> 32n));
    }
    [this.s0, this.s1, this.s2, this.s3] = words as [number, number, number, number];
    // SplitMix64 never yields two zero outputs in a row for distinct states, but guard anyway:
    // the all-zero state is the one fixed point of xoshiro.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Next 32-bit unsigned integer of the stream. */
  nextUint32(): number {
    const s1 = this.s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /** Uniform float in [0, 1) with 53 random bits (consumes two 32-bit outputs). */
  nextFloat(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** Uniform integer in [0, n), unbiased; `n` an integer in [1, 2^32]. */
  nextInt(n: number): number {
    checkBound(n);
    const threshold = TWO_32 % n;
    for (;;) {
      const x = this.nextUint32();
      if (n <= SMALL) {
        const m = x * n;
        const hi = Math.floor(m / TWO_32);
        if (m - hi * TWO_32 >= threshold) return hi;
      } else {
        const [hi, lo] = mul32(x, n);
        if (lo >= threshold) return hi;
      }
    }
  }

  /**
   * Fills `out` with `out.length` draws of `nextInt(n)`, the same stream as calling it in a loop,
   * without per-call checks (the bootstrap's hot path; no allocation).
   */
  fillInts(out: Uint32Array, n: number): Uint32Array {
    checkBound(n);
    if (n > SMALL) {
      for (let i = 0; i < out.length; i++) out[i] = this.nextInt(n);
      return out;
    }
    const threshold = TWO_32 % n;
    let s0 = this.s0, s1 = this.s1, s2 = this.s2, s3 = this.s3;
    for (let i = 0; i < out.length; ) {
      const x = Math.imul(s1, 5);
      const r = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      // x * n is exact below 2^53 (n <= 2^21).
      const m = r * n;
      const hi = Math.floor(m * INV_TWO_32);
      if (m - hi * TWO_32 >= threshold) out[i++] = hi;
    }
    this.s0 = s0; this.s1 = s1; this.s2 = s2; this.s3 = s3;
    return out;
  }

  /**
   * Sum of `x[nextInt(x.length)]` over `x.length` draws, added in draw order: the same stream as
   * `fillInts(idx, x.length)` and the same sum as adding `x[idx[i]]` in order, without the index
   * buffer (a bootstrap mean's resample; x of length in [1, 2^32]). Its loop repeats fillInts'
   * on purpose: one loop for both, choosing per draw whether to write or add, made fillInts 2x slower.
   */
  sumOfDraws(x: Float64Array): number {
    const n = x.length;
    checkBound(n);
    let sum = 0;
    if (n > SMALL) {
      for (let i = 0; i < n; i++) sum += x[this.nextInt(n)]!;
      return sum;
    }
    const threshold = TWO_32 % n;
    let s0 = this.s0, s1 = this.s1, s2 = this.s2, s3 = this.s3;
    for (let i = 0; i < n; ) {
      const q = Math.imul(s1, 5);
      const r = Math.imul((q << 7) | (q >>> 25), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const m = r * n;
      const hi = Math.floor(m * INV_TWO_32);
      if (m - hi * TWO_32 >= threshold) {
        sum += x[hi]!;
        i++;
      }
    }
    this.s0 = s0; this.s1 = s1; this.s2 = s2; this.s3 = s3;
    return sum;
  }

  /**
   * Shuffles `items` in place (Fisher-Yates from the end: for i = n-1 .. 1 swap i with
   * nextInt(i + 1)) and returns the same array.
   */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.nextInt(i + 1);
      const tmp = items[i]!;
      items[i] = items[j]!;
      items[j] = tmp;
    }
    return items;
  }

  /**
   * `k` items drawn from `items`. Without replacement (default): partial Fisher-Yates on a copy,
   * for i = 0 .. k-1 swap i with i + nextInt(n - i), returning the first k. With replacement:
   * `items[nextInt(n)]` k times. The input is not modified.
   */
  sample<T>(items: readonly T[], k: number, options: { replace?: boolean } = {}): T[] {
    const n = items.length;
    if (options.replace) {
      integerIn('k', k, 0);
      if (k > 0 && n === 0) throw new StatsInputError('items', 'cannot sample from an empty array');
      const out: T[] = new Array<T>(k);
      for (let i = 0; i < k; i++) out[i] = items[this.nextInt(n)]!;
      return out;
    }
    integerIn('k', k, 0, n);
    const copy = items.slice();
    for (let i = 0; i < k; i++) {
      const j = i + this.nextInt(n - i);
      const tmp = copy[i]!;
      copy[i] = copy[j]!;
      copy[j] = tmp;
    }
    return copy.slice(0, k);
  }
}

/** A generator for `seed` (see {@link Xoshiro128} for the exact stream). */
export function createRng(seed: number): Xoshiro128 {
  return new Xoshiro128(seed);
}

/** A fresh seed from the platform's entropy, for callers who did not give one (it is reported back). */
export function randomSeed(): number {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (words[0]! & 0x1fffff) * TWO_32 + words[1]!;
}
