import { MetricInputError } from './errors.js';
import { PY_SPACE, isPunct, pushCodePoints } from './python-text.js';

/**
 * Counts chrF's per-order n-gram statistics for one segment (a hypothesis and its references)
 * without building a string or a Map entry per n-gram, which is where a direct port spends its time.
 *
 * Every n-gram gets a small integer id, order by order: the id of the n-gram at position i is the
 * interned pair (id of the (n-1)-gram at i, id of the unit at i+n-1). Equal n-grams get equal ids
 * because equal pairs do, and pair keys stay below (positions x alphabet), so no hash collision can
 * merge two n-grams at any order. Counting is then dense array arithmetic over the ids.
 *
 * Instances reuse their buffers: keep one per thread of work and never share it across an `await`.
 */
export class NgramMatcher {
  // Open-addressed table of pair keys -> ids. A slot belongs to the current generation only if its
  // stamp says so, which empties the table in O(1) between orders and segments.
  private keys = new Float64Array(0);
  private stamps = new Int32Array(0);
  private ids = new Int32Array(0);
  private mask = 0;
  private gen = 0;
  private nextId = 0;
  // A second table interning word tokens straight from their text ranges, so no token string is
  // ever allocated: hash, owning text, start, length and id per slot.
  private wHash = new Int32Array(0);
  private wText = new Int32Array(0);
  private wStart = new Int32Array(0);
  private wLen = new Int32Array(0);
  private wId = new Int32Array(0);
  private wStamps = new Int32Array(0);
  private wMask = 0;
  private wGen = 0;
  // Directly indexed pair table (key -> id) for when pair keys are few; see countOrders.
  private dStamps = new Int32Array(0);
  private dIds = new Int32Array(0);
  /** Unit ids of every sequence, concatenated (hypothesis first). */
  private base = new Int32Array(0);
  /** N-gram ids of the order being counted, same layout as `base`. */
  private gram = new Int32Array(0);
  /** Reference n-gram counts by id, kept all-zero between uses. */
  private counts = new Int32Array(0);
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /**
   * Character n-gram statistics of orders 1..order, written as [hyp, ref, match] triplets from
   * `offset` into each reference's row of `out` (row r belongs to texts[r + 1]).
   */
  charStats(texts: readonly string[], order: number, keepSpace: boolean, out: number[][], offset: number): void {
    this.reserve(totalLength(texts));
    let at = 0;
    this.starts.length = 0;
    this.ends.length = 0;
    for (const t of texts) {
      this.starts.push(at);
      at = pushCodePoints(t, keepSpace, this.base, at);
      this.ends.push(at);
    }
    this.newGeneration();
    const base = this.base;
    for (let j = 0; j < at; j++) base[j] = this.intern(base[j]!);
    this.countOrders(at, this.nextId, order, out, offset);
  }

  /** Word n-gram statistics of orders 1..order over sacrebleu's chrF++ tokens; layout as `charStats`. */
  wordStats(texts: readonly string[], order: number, out: number[][], offset: number): void {
    this.reserve(totalLength(texts));
    if (++this.wGen === 0x7fffffff) {
      this.wStamps.fill(0);
      this.wGen = 1;
    }
    let words = 0;
    let next = 0;
    this.starts.length = 0;
    this.ends.length = 0;
    this.pending = texts;
    // sacrebleu's chrF++ words: Python split(), then from a token longer than one character one
    // punctuation mark is split off, the trailing one if any, else a leading one ('(hi)' gives
    // '(hi' and ')', sacrebleu issue #124). Python whitespace is all in the BMP, and so is
    // punctuation, so testing UTF-16 units one by one is exact; a lone astral character (two
    // units) is never split because neither half is punctuation.
    for (let ti = 0; ti < texts.length; ti++) {
      const s = texts[ti]!;
      this.starts.push(words);
      const len = s.length;
      let i = 0;
      for (;;) {
        while (i < len && PY_SPACE[s.charCodeAt(i)] === 1) i++;
        if (i >= len) break;
        const a = i;
        // Hash while scanning; keep the hash without the last unit in case that unit is split off.
        let h = HASH_SEED;
        let before = h;
        for (let c = s.charCodeAt(i); i < len && PY_SPACE[c] === 0; c = s.charCodeAt(++i)) {
          before = h;
          h = Math.imul(h ^ c, 0x01000193);
        }
        if (i - a > 1 && isPunct(s.charCodeAt(i - 1))) {
          this.base[words++] = this.internRange(s, ti, a, i - 1, before, next);
          if (this.base[words - 1] === next) next++;
          this.base[words++] = this.internRange(s, ti, i - 1, i, hashRange(s, i - 1, i), next);
        } else if (i - a > 1 && isPunct(s.charCodeAt(a))) {
          this.base[words++] = this.internRange(s, ti, a, a + 1, hashRange(s, a, a + 1), next);
          if (this.base[words - 1] === next) next++;
          this.base[words++] = this.internRange(s, ti, a + 1, i, hashRange(s, a + 1, i), next);
        } else {
          this.base[words++] = this.internRange(s, ti, a, i, h, next);
        }
        if (this.base[words - 1] === next) next++;
      }
      this.ends.push(words);
    }
    this.pending = [];
    this.countOrders(words, next, order, out, offset);
  }

  /** The texts of the segment whose words are being interned (token ranges point into them). */
  private pending: readonly string[] = [];

  /** Id of the text s[a, b) whose running hash is `partial`; `fresh` if it is new to the segment. */
  private internRange(s: string, ti: number, a: number, b: number, partial: number, fresh: number): number {
    const n = b - a;
    let h = Math.imul(partial ^ n, 0x01000193);
    h ^= h >>> 15;
    let slot = h & this.wMask;
    for (;;) {
      if (this.wStamps[slot] !== this.wGen) {
        this.wStamps[slot] = this.wGen;
        this.wHash[slot] = h;
        this.wText[slot] = ti;
        this.wStart[slot] = a;
        this.wLen[slot] = n;
        this.wId[slot] = fresh;
        return fresh;
      }
      if (this.wHash[slot] === h && this.wLen[slot] === n && sameRange(this.pending[this.wText[slot]!]!, this.wStart[slot]!, s, a, n)) {
        return this.wId[slot]!;
      }
      slot = (slot + 1) & this.wMask;
    }
  }

  private countOrders(total: number, alphabet: number, order: number, out: number[][], offset: number): void {
    const { base, gram, starts, ends } = this;
    gram.set(base.subarray(0, total));
    let distinct = alphabet;
    for (let n = 1; n <= order; n++) {
      if (n > 1) {
        // Pair keys are below distinct x alphabet; when that is small (it is for sentences), a
        // directly indexed table replaces hashing and probing.
        const direct = distinct * alphabet <= DIRECT_MAX;
        if (direct) this.growDirect(distinct * alphabet);
        this.newGeneration();
        for (let s = 0; s < starts.length; s++) {
          const last = ends[s]! - n;
          const shift = n - 1;
          if (direct) {
            const { dStamps, dIds, gen } = this;
            for (let i = starts[s]!; i <= last; i++) {
              const key = gram[i]! * alphabet + base[i + shift]!;
              if (dStamps[key] === gen) gram[i] = dIds[key]!;
              else {
                dStamps[key] = gen;
                dIds[key] = this.nextId;
                gram[i] = this.nextId++;
              }
            }
          } else {
            for (let i = starts[s]!; i <= last; i++) gram[i] = this.intern(gram[i]! * alphabet + base[i + shift]!);
          }
        }
        distinct = this.nextId;
      }
      const hypGrams = Math.max(0, ends[0]! - starts[0]! - n + 1);
      const at = offset + 3 * (n - 1);
      for (let r = 1; r < starts.length; r++) {
        const row = out[r - 1]!;
        const refGrams = Math.max(0, ends[r]! - starts[r]! - n + 1);
        // sacrebleu counts no hypothesis n-grams for an order the reference has none of.
        row[at] = refGrams > 0 ? hypGrams : 0;
        row[at + 1] = refGrams;
        row[at + 2] = refGrams > 0 && hypGrams > 0 ? this.matches(starts[0]!, starts[0]! + hypGrams, starts[r]!, starts[r]! + refGrams) : 0;
      }
    }
  }

  /** Grows the direct pair table to `size` slots; its stamps share the hash table's generations. */
  private growDirect(size: number): void {
    if (this.dStamps.length >= size) return;
    let cap = 4096;
    while (cap < size) cap *= 2;
    this.dStamps = new Int32Array(cap);
    this.dIds = new Int32Array(cap);
  }

  /** Size of the multiset intersection of gram ids in [h0, h1) and [r0, r1). */
  private matches(h0: number, h1: number, r0: number, r1: number): number {
    const { gram, counts } = this;
    for (let i = r0; i < r1; i++) counts[gram[i]!]!++;
    let m = 0;
    for (let i = h0; i < h1; i++) {
      const g = gram[i]!;
      if (counts[g]! > 0) {
        m++;
        counts[g]!--;
      }
    }
    for (let i = r0; i < r1; i++) counts[gram[i]!] = 0;
    return m;
  }

  private intern(key: number): number {
    const lo = key >>> 0;
    const hi = (key / 4294967296) | 0;
    let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
    h = (h ^ (h >>> 15)) & this.mask;
    const { keys, stamps, gen } = this;
    for (;;) {
      if (stamps[h] !== gen) {
        stamps[h] = gen;
        keys[h] = key;
        this.ids[h] = this.nextId;
        return this.nextId++;
      }
      if (keys[h] === key) return this.ids[h]!;
      h = (h + 1) & this.mask;
    }
  }

  private newGeneration(): void {
    if (this.gen === 0x7fffffff) {
      this.stamps.fill(0);
      this.dStamps.fill(0);
      this.gen = 0;
    }
    this.gen++;
    this.nextId = 0;
  }

  /** Room for `units` positions; ids never exceed positions, and the tables stay under half full. */
  private reserve(units: number): void {
    // Pair keys are below units^2 and must stay exact doubles.
    if (units > MAX_UNITS) throw new MetricInputError(`chrF: a segment of ${units} characters is too long (limit ${MAX_UNITS}); split it into sentences.`);
    if (this.base.length < units) {
      const size = Math.max(units, 2 * this.base.length, 256);
      this.base = new Int32Array(size);
      this.gram = new Int32Array(size);
      this.counts = new Int32Array(size);
    }
    if (this.keys.length < 2 * units || this.keys.length === 0) {
      let cap = 512;
      while (cap < 2 * units) cap *= 2;
      this.keys = new Float64Array(cap);
      this.stamps = new Int32Array(cap);
      this.ids = new Int32Array(cap);
      this.mask = cap - 1;
      // New stamps are all 0 and generations only grow, so no fresh slot looks current; the
      // generation counters are not reset, which would let the direct table's old stamps match.
      this.wHash = new Int32Array(cap);
      this.wText = new Int32Array(cap);
      this.wStart = new Int32Array(cap);
      this.wLen = new Int32Array(cap);
      this.wId = new Int32Array(cap);
      this.wStamps = new Int32Array(cap);
      this.wMask = cap - 1;
    }
  }
}

/** Longest segment (hypothesis plus references, UTF-16 units): its square stays below 2^53. */
const MAX_UNITS = 90_000_000;

/** Largest directly indexed pair table (4 MB of stamps and ids each at most). */
const DIRECT_MAX = 1 << 20;

const HASH_SEED = 0x811c9dc5;

/** The FNV-1a style running hash wordStats computes while scanning, for a range on its own. */
function hashRange(s: string, a: number, b: number): number {
  let h = HASH_SEED;
  for (let k = a; k < b; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h;
}

function totalLength(texts: readonly string[]): number {
  let n = 0;
  for (const t of texts) n += t.length;
  return n;
}

function sameRange(x: string, xa: number, y: string, ya: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (x.charCodeAt(xa + k) !== y.charCodeAt(ya + k)) return false;
  return true;
}
