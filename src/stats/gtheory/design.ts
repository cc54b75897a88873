import { StatsInputError } from '../inference/errors.js';

/** A level label as it appears in the data. `1` and `'1'` are different labels. */
export type Level = string | number;

/** The balanced design read from long-format rows, with every facet coded as small integers. */
export interface CodedDesign {
  facets: string[];
  /** For each facet, the facets it is nested in (transitively), in `facets` order. */
  ancestors: string[][];
  /** Levels per facet; for a nested facet, levels within one level of its ancestors. */
  sizes: number[];
  /** Number of cells (= rows). */
  n: number;
  /** Score of each cell, indexed by the mixed-radix cell index (first facet slowest). */
  y: Float64Array;
  /** Per facet, its code at every cell index. */
  codes: Uint32Array[];
  /** Per facet, the labels by code (for a nested facet, labels of its first parent level). */
  labels: Level[][];
}

/**
 * Reads rows into a coded design and checks it is balanced with one observation per cell.
 * Nested facets (`nesting: { r: 't' }`) are coded within each level of their ancestors, so the
 * same label under two tasks is two different raters; each parent level must hold the same number.
 */
export function codeDesign(
  rows: ReadonlyArray<Record<string, unknown>>,
  facets: readonly string[],
  value: string,
  nesting: Record<string, string | readonly string[]>,
): CodedDesign {
  if (!Array.isArray(rows) || rows.length === 0) throw new StatsInputError('rows', 'expected a non-empty array of records');
  if (!Array.isArray(facets) || facets.length === 0) throw new StatsInputError('facets', 'expected at least one facet name');
  if (new Set(facets).size !== facets.length) throw new StatsInputError('facets', `has duplicate names: ${facets.join(', ')}`);
  for (const f of facets) {
    if (typeof f !== 'string' || f === '' || f.includes(':')) {
      throw new StatsInputError('facets', `names must be non-empty strings without ':', got ${JSON.stringify(f)}`);
    }
  }
  if (typeof value !== 'string' || facets.includes(value)) throw new StatsInputError('value', 'must name the score column, not a facet');
  const ancestors = resolveNesting(facets, nesting);
  const k = facets.length;
  const N = rows.length;

  // Topological order: a facet after everything it is nested in.
  const order = [...facets.keys()].sort((a, b) => ancestors[a]!.length - ancestors[b]!.length);
  const rowCodes = facets.map(() => new Uint32Array(N));
  const sizes = new Array<number>(k).fill(0);
  const labels: Level[][] = facets.map(() => []);
  const parentIdx = ancestors.map(list => list.map(name => facets.indexOf(name)));
  for (const f of order) {
    const name = facets[f]!;
    const parents = parentIdx[f]!;
    const groups = new Map<string, Map<Level, number>>();
    const flat = new Map<Level, number>();
    if (parents.length === 0) groups.set('', flat);
    const codes = rowCodes[f]!;
    for (let i = 0; i < N; i++) {
      const row = rows[i]!;
      const label = row[name];
      if (typeof label !== 'string' && (typeof label !== 'number' || !Number.isFinite(label))) {
        throw new StatsInputError(`rows[${i}].${name}`, `expected a string or finite number level, got ${String(label)}`);
      }
      let groupKey = '';
      // Only nested facets pay for a composite key.
      for (const p of parents) groupKey += `${rowCodes[p]![i]!},`;
      let group = parents.length === 0 ? flat : groups.get(groupKey);
      if (!group) groups.set(groupKey, (group = new Map()));
      let code = group.get(label);
      if (code === undefined) {
        code = group.size;
        group.set(label, code);
        if (groups.size === 1) labels[f]!.push(label);
      }
      codes[i] = code;
    }
    const counts = [...groups.values()].map(g => g.size);
    if (counts.some(c => c !== counts[0])) {
      throw new StatsInputError('rows', `unbalanced: "${name}" has ${counts.join(' / ')} levels within the levels of ${ancestors[f]!.join(', ')}; every parent level needs the same number`);
    }
    sizes[f] = counts[0]!;
  }

  let cells = 1;
  for (const s of sizes) cells *= s;
  if (cells !== N) {
    throw new StatsInputError('rows', `expected one row per cell of the ${sizes.join(' x ')} design (${cells} rows), got ${N}`);
  }
  const strides = new Array<number>(k);
  let stride = 1;
  for (let f = k - 1; f >= 0; f--) {
    strides[f] = stride;
    stride *= sizes[f]!;
  }
  const y = new Float64Array(N);
  const seen = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    const v = rows[i]![value];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new StatsInputError(`rows[${i}].${value}`, `expected a finite number, got ${String(v)}`);
    }
    let c = 0;
    for (let f = 0; f < k; f++) c += rowCodes[f]![i]! * strides[f]!;
    if (seen[c]) throw new StatsInputError(`rows[${i}]`, 'repeats a cell already seen; the design needs exactly one observation per cell');
    seen[c] = 1;
    y[c] = v;
  }
  const codes = facets.map((_, f) => {
    const out = new Uint32Array(N);
    const s = strides[f]!;
    const size = sizes[f]!;
    for (let c = 0; c < N; c++) out[c] = Math.floor(c / s) % size;
    return out;
  });
  return { facets: [...facets], ancestors, sizes, n: N, y, codes, labels };
}

function resolveNesting(facets: readonly string[], nesting: Record<string, string | readonly string[]>): string[][] {
  if (nesting === null || typeof nesting !== 'object') throw new StatsInputError('nesting', 'expected an object such as { r: "t" }');
  const direct = new Map<string, string[]>();
  for (const [child, parent] of Object.entries(nesting)) {
    const parents = typeof parent === 'string' ? [parent] : [...parent];
    for (const name of [child, ...parents]) {
      if (!facets.includes(name)) throw new StatsInputError('nesting', `"${name}" is not one of the facets (${facets.join(', ')})`);
    }
    if (parents.includes(child)) throw new StatsInputError('nesting', `"${child}" cannot be nested in itself`);
    direct.set(child, parents);
  }
  return facets.map(f => {
    const found = new Set<string>();
    const stack = [...(direct.get(f) ?? [])];
    while (stack.length) {
      const p = stack.pop()!;
      if (p === f) throw new StatsInputError('nesting', `is circular at "${f}"`);
      if (found.has(p)) continue;
      found.add(p);
      stack.push(...(direct.get(p) ?? []));
    }
    return facets.filter(x => found.has(x));
  });
}
