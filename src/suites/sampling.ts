import type { Item } from '../core/item.js';
import type { Shortfall } from './builder.js';

/** A seeded source of random numbers in [0, 1). Only this module's generator is used, so builds never depend on Math.random. */
export interface Rng {
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
}

/** FNV-1a over UTF-16 code units: turns a salt (test name, record key) into 32 bits. */
export function hash32(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A small counter-based generator (SplitMix32-style finaliser over a Weyl sequence). Salting the seed
 * with the test name gives every test its own stream, so adding a test never reshuffles another.
 */
export function createRng(seed: number, ...salt: string[]): Rng {
  let state = hash32(salt.join('\u0000'), (seed >>> 0) ^ 0x9e3779b9);
  const next = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return z / 4294967296;
  };
  return { next, int: n => Math.floor(next() * n) };
}

/** Fisher-Yates on a copy. */
export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Code-point order: unlike localeCompare, it does not change with the machine's locale. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface StratifyOptions<T> {
  target: number;
  rng: Rng;
  stratum: (c: T) => string;
  /** Relative share of each stratum; strata not named get 1. Unused share flows to the others. */
  weights?: Readonly<Record<string, number>>;
  /** Candidates with the same group exclude each other (e.g. one item per sentence). */
  group?: (c: T) => string;
  /** Within a stratum, no spread key (e.g. a lemma) repeats before every key has had a turn. */
  spread?: (c: T) => string;
}

export interface StratumCount {
  stratum: string;
  available: number;
  quota: number;
  picked: number;
}

export interface StratifyResult<T> {
  picked: T[];
  strata: StratumCount[];
}

/** Integer shares of `total` proportional to `weights`, by largest remainder (ties to the earlier name). */
function apportion(total: number, names: string[], weights: Readonly<Record<string, number>>): Map<string, number> {
  const w = names.map(n => Math.max(0, weights[n] ?? 1));
  const sum = w.reduce((a, b) => a + b, 0) || 1;
  const exact = w.map(x => (total * x) / sum);
  const out = exact.map(Math.floor);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  let left = total - out.reduce((a, b) => a + b, 0);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    out[i]!++;
  }
  return new Map(names.map((n, i) => [n, out[i]!]));
}

function spreadOrder<T>(items: T[], key: (c: T) => string): T[] {
  const queues = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const q = queues.get(k);
    if (q) q.push(it);
    else queues.set(k, [it]);
  }
  const out: T[] = [];
  const lists = [...queues.values()];
  for (let round = 0; out.length < items.length; round++) {
    for (const q of lists) if (round < q.length) out.push(q[round]!);
  }
  return out;
}

/**
 * Seeded stratified sample. Candidates must arrive in a deterministic order (e.g. sorted by id):
 * the same candidates, seed and options always give the same picks. Strata are filled in
 * interleaved rounds up to their quota; a stratum that runs dry hands its share to the rest.
 */
export function sampleStratified<T>(candidates: readonly T[], opts: StratifyOptions<T>): StratifyResult<T> {
  const buckets = new Map<string, T[]>();
  for (const c of candidates) {
    const s = opts.stratum(c);
    const b = buckets.get(s);
    if (b) b.push(c);
    else buckets.set(s, [c]);
  }
  const names = [...buckets.keys()].sort(byCodePoint);
  const queues = new Map<string, T[]>();
  for (const n of names) {
    const shuffled = shuffle(buckets.get(n)!, opts.rng);
    queues.set(n, opts.spread ? spreadOrder(shuffled, opts.spread) : shuffled);
  }
  const quota = apportion(opts.target, names, opts.weights ?? {});
  const cursor = new Map(names.map(n => [n, 0]));
  const count = new Map(names.map(n => [n, 0]));
  const taken = new Set<string>();
  const picked: T[] = [];

  const takeOne = (n: string): boolean => {
    const q = queues.get(n)!;
    for (let i = cursor.get(n)!; i < q.length; i++) {
      const c = q[i]!;
      const g = opts.group?.(c);
      if (g !== undefined && taken.has(g)) continue;
      if (g !== undefined) taken.add(g);
      cursor.set(n, i + 1);
      count.set(n, count.get(n)! + 1);
      picked.push(c);
      return true;
    }
    cursor.set(n, q.length);
    return false;
  };

  // Scarce strata choose first in every round, so group exclusion costs them as little as possible.
  const order = names.slice().sort((a, b) => buckets.get(a)!.length - buckets.get(b)!.length || byCodePoint(a, b));
  // First fill every stratum up to its own quota, then let strata with candidates left take the shortfall.
  for (const capped of [true, false]) {
    let progress = true;
    while (progress && picked.length < opts.target) {
      progress = false;
      for (const n of order) {
        if (picked.length >= opts.target) break;
        if (capped && count.get(n)! >= quota.get(n)!) continue;
        if (takeOne(n)) progress = true;
      }
    }
  }
  return {
    picked,
    strata: names.map(n => ({ stratum: n, available: buckets.get(n)!.length, quota: quota.get(n)!, picked: count.get(n)! })),
  };
}

/** A candidate item; sampling overwrites its `visibility`. */
export interface Candidate {
  item: Item;
  /** Stratum for even sampling; defaults to the item's topic. */
  stratum?: string;
  /** Candidates in one group exclude each other. */
  group?: string;
  /** Key to spread picks over (e.g. a lemma). */
  spread?: string;
  /** False keeps the item out of the public sample (e.g. text quoted from a third-party book). */
  publicOk?: boolean;
}

export interface SelectOptions {
  suite: string;
  test: string;
  seed: number;
  target: number;
  /** Public sample size per test (design.md: 20). */
  publicCount?: number;
  weights?: Readonly<Record<string, number>>;
  /** Why candidates were left out before sampling, e.g. "form equals the lemma": counted in shortfall reasons. */
  exclusions?: ReadonlyMap<string, number>;
}

/**
 * What a builder may report beside its BuildResult: how many candidates each stratum had and why
 * candidates were left out. build.ts writes both into the build report when present.
 */
export interface BuildNotes {
  strata?: StratumCount[];
  exclusions?: Record<string, number>;
}

export interface Selection extends Required<BuildNotes> {
  items: Item[];
  shortfalls: Shortfall[];
}

const stratumOf = (c: Candidate): string => c.stratum ?? c.item.topic ?? '';

function exclusionText(exclusions: ReadonlyMap<string, number> | undefined): string {
  if (!exclusions || exclusions.size === 0) return '';
  const parts = [...exclusions].sort((a, b) => b[1] - a[1] || byCodePoint(a[0], b[0])).map(([r, n]) => `${n} ${r}`);
  return ` Left out before sampling: ${parts.join('; ')}.`;
}

/**
 * Sample the full set of one test, then its public sample from that set, both stratified the same
 * way. Items come back sorted by id with `visibility` set; shortfalls say what ran short and why.
 */
export function selectItems(candidates: readonly Candidate[], opts: SelectOptions): Selection {
  const publicCount = opts.publicCount ?? 20;
  const sorted = candidates.slice().sort((a, b) => byCodePoint(a.item.id, b.item.id));
  const full = sampleStratified(sorted, {
    target: opts.target,
    rng: createRng(opts.seed, opts.suite, opts.test, 'full'),
    stratum: stratumOf,
    weights: opts.weights,
    group: c => c.group ?? c.item.id,
    spread: c => c.spread ?? c.item.id,
  });
  const eligible = full.picked.filter(c => c.publicOk !== false).sort((a, b) => byCodePoint(a.item.id, b.item.id));
  const pub = sampleStratified(eligible, {
    target: Math.min(publicCount, opts.target),
    rng: createRng(opts.seed, opts.suite, opts.test, 'public'),
    stratum: stratumOf,
    weights: opts.weights,
    spread: c => c.spread ?? c.item.id,
  });
  const publicIds = new Set(pub.picked.map(c => c.item.id));
  const items = full.picked
    .map((c): Item => ({ ...c.item, visibility: publicIds.has(c.item.id) ? 'public' : 'private' }))
    .sort((a, b) => byCodePoint(a.id, b.id));

  const shortfalls: Shortfall[] = [];
  const excl = exclusionText(opts.exclusions);
  if (full.picked.length < opts.target) {
    shortfalls.push({
      test: opts.test,
      wanted: opts.target,
      got: full.picked.length,
      reason: `only ${candidates.length} usable candidates in the sources.${excl}`,
    });
  }
  for (const s of full.strata) {
    if (s.picked < s.quota) {
      shortfalls.push({
        test: opts.test,
        wanted: s.quota,
        got: s.picked,
        reason:
          `stratum "${s.stratum}" had only ${s.available} candidates` +
          (s.available > s.picked ? ` (${s.available - s.picked} not usable because their group, e.g. their sentence, was already used)` : '') +
          '; other strata made up the difference where they could.',
      });
    }
  }
  const wantedPublic = Math.min(publicCount, opts.target);
  if (pub.picked.length < wantedPublic) {
    shortfalls.push({
      test: opts.test,
      wanted: wantedPublic,
      got: pub.picked.length,
      reason: `public sample: only ${eligible.length} selected items may be published.`,
    });
  }
  const exclusions: Record<string, number> = {};
  for (const [r, n] of [...(opts.exclusions ?? [])].sort((a, b) => byCodePoint(a[0], b[0]))) exclusions[r] = n;
  return { items, shortfalls, strata: full.strata, exclusions };
}
