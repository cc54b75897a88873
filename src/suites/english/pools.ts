import type { Shortfall } from '../builder.js';
import type { BuildNotes, StratumCount } from '../sampling.js';
import { blimpDataDir, listBlimpFiles, readBlimp, type BlimpRecord } from '../sources/blimp.js';
import { DIFF_FAILURE_TEXT, diffRecord, type DiffFailure, type SpanDiff } from './diff.js';
import { DEFAULT_SELECTION, exclusionReason, topicLabel, type ParadigmSelection } from './paradigms.js';
import { allocateEvenly, seededOrder } from './seeded.js';

/** A minimal pair whose sentences differ in one contiguous span. */
export interface UsablePair {
  record: BlimpRecord;
  diff: SpanDiff;
}

/** The usable pairs of one selected paradigm, in seeded order, and why the others were skipped. */
export interface Pool {
  uid: string;
  term: string;
  /** `data/<name>.jsonl`, as items cite it. */
  file: string;
  label: string;
  pairs: UsablePair[];
  skipped: Partial<Record<DiffFailure, number>>;
}

/** What the sources gave: nothing, or the pools of the selected paradigms and the paradigms left out. */
export type Sources =
  | { kind: 'missing'; dir: string }
  | { kind: 'found'; pools: Pool[]; excluded: Excluded[] };

/** A paradigm the selection rule left out. */
export interface Excluded {
  uid: string;
  file: string;
  reason: string;
  records: number;
}

/** Read the BLiMP folder and sort every pair of every selected paradigm into usable or skipped. */
export function loadSources(sourcesDir: string, seed: number, selection: ParadigmSelection = DEFAULT_SELECTION): Sources {
  if (listBlimpFiles(sourcesDir).length === 0) return { kind: 'missing', dir: blimpDataDir(sourcesDir) };
  const pools: Pool[] = [];
  const excluded: Excluded[] = [];
  for (const paradigm of readBlimp(sourcesDir)) {
    const reason = exclusionReason(paradigm.uid, paradigm.linguisticsTerm, selection);
    if (reason) {
      excluded.push({ uid: paradigm.uid, file: paradigm.file, reason, records: paradigm.records.length });
      continue;
    }
    const usable: UsablePair[] = [];
    const skipped: Partial<Record<DiffFailure, number>> = {};
    for (const record of paradigm.records) {
      const diff = diffRecord(record);
      if (diff.kind === 'span') usable.push({ record, diff });
      else skipped[diff.kind] = (skipped[diff.kind] ?? 0) + 1;
    }
    pools.push({
      uid: paradigm.uid,
      term: paradigm.linguisticsTerm,
      file: paradigm.file,
      label: topicLabel(paradigm.uid, paradigm.linguisticsTerm),
      pairs: seededOrder(usable, seed, `pairs:${paradigm.uid}`, p => p.record.pairID),
      skipped,
    });
  }
  pools.sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  return { kind: 'found', pools, excluded };
}

/**
 * How many items each pool gives one test, the shortfalls a maintainer should read, and the notes
 * the build report prints: one stratum per paradigm (usable pairs, even share, given) and the pairs
 * left out before drawing, by reason.
 */
export interface Plan extends Required<BuildNotes> {
  pools: Pool[];
  quotas: number[];
  shortfalls: Shortfall[];
}

/**
 * Spread `target` items evenly over the pools (stratified by paradigm). A paradigm with too few
 * usable pairs gives what it has and the others make up the difference; both that and a total
 * below target are reported, with the skipped pairs counted as part of the reason.
 */
export function planByParadigm(test: string, target: number, sources: Sources, seed: number): Plan {
  if (sources.kind === 'missing') {
    const reason = `no BLiMP files: ${sources.dir} holds no *.jsonl (copy data/sources/blimp from Paideia or BLiMP's own data/ folder there, or point sourcesDir at a folder that has blimp/data/*.jsonl)`;
    return { pools: [], quotas: [], shortfalls: target > 0 ? [{ test, wanted: target, got: 0, reason }] : [], strata: [], exclusions: {} };
  }
  const { pools, excluded } = sources;
  const priority = seededOrder(
    pools.map((_, i) => i),
    seed,
    `paradigm-priority:${test}`,
    i => pools[i]!.uid,
  );
  const quotas = allocateEvenly(target, pools.map(p => p.pairs.length), priority);
  const even = allocateEvenly(target, pools.map(() => Infinity), priority);
  const shortfalls: Shortfall[] = [];
  const got = quotas.reduce((a, b) => a + b, 0);
  if (got < target) {
    const usable = pools.reduce((a, p) => a + p.pairs.length, 0);
    const parts = [`only ${usable} usable pairs in ${pools.length} selected paradigms`];
    const skipped = skippedText(pools);
    if (skipped) parts.push(`skipped pairs: ${skipped}`);
    if (excluded.length) parts.push(`paradigms left out by the selection rule: ${excluded.map(e => `${e.uid} (${e.reason})`).join('; ')}`);
    shortfalls.push({ test, wanted: target, got, reason: parts.join('; ') });
  }
  pools.forEach((pool, i) => {
    if (quotas[i]! >= even[i]!) return;
    const skipped = skippedText([pool]);
    shortfalls.push({
      test,
      wanted: even[i]!,
      got: quotas[i]!,
      reason: `paradigm ${pool.uid} has only ${pool.pairs.length} usable pairs${skipped ? ` (skipped: ${skipped})` : ''}, below its even share; other paradigms made up what they could`,
    });
  });
  const strata: StratumCount[] = pools.map((pool, i) => ({ stratum: pool.uid, available: pool.pairs.length, quota: even[i]!, picked: quotas[i]! }));
  const exclusions: Record<string, number> = {};
  for (const pool of pools) {
    for (const [kind, n] of Object.entries(pool.skipped) as Array<[DiffFailure, number]>) {
      const key = `pairs skipped: ${DIFF_FAILURE_TEXT[kind]}`;
      exclusions[key] = (exclusions[key] ?? 0) + n;
    }
  }
  for (const e of excluded) exclusions[`pairs of paradigm ${e.uid} left out: ${e.reason}`] = e.records;
  return { pools, quotas, shortfalls, strata, exclusions };
}

function skippedText(pools: readonly Pool[]): string {
  const totals = new Map<DiffFailure, number>();
  for (const pool of pools) {
    for (const [kind, n] of Object.entries(pool.skipped) as Array<[DiffFailure, number]>) totals.set(kind, (totals.get(kind) ?? 0) + n);
  }
  return [...totals].map(([kind, n]) => `${n} because ${DIFF_FAILURE_TEXT[kind]}`).join(', ');
}
