/**
 * Growable typed columns and a string interner: what a report keeps per item, trial and result of
 * a large run, a few bytes a row instead of an object each.
 */
type Typed = Float64Array | Uint32Array | Uint8Array;
type TypedOf<K extends 'f64' | 'u32' | 'u8'> = K extends 'f64' ? Float64Array : K extends 'u32' ? Uint32Array : Uint8Array;

const make = { f64: (n: number) => new Float64Array(n), u32: (n: number) => new Uint32Array(n), u8: (n: number) => new Uint8Array(n) };

/** A column of numbers appended one at a time; `view()` is what has been appended (no copy). */
export interface Column<A extends Typed> {
  readonly length: number;
  push(v: number): number;
  view(): A;
}

export function column<K extends 'f64' | 'u32' | 'u8'>(kind: K, capacity = 1024): Column<TypedOf<K>> {
  let data = make[kind](capacity) as TypedOf<K>;
  let length = 0;
  return {
    get length() { return length; },
    push(v) {
      if (length === data.length) {
        const bigger = make[kind](data.length * 2) as TypedOf<K>;
        bigger.set(data);
        data = bigger;
      }
      data[length] = v;
      return length++;
    },
    view: () => data.subarray(0, length) as TypedOf<K>,
  };
}

/** Strings by a small number each; 0 stands for no string. */
export function interner(): { code(s: string | undefined): number; text(code: number): string | undefined; readonly size: number } {
  const codes = new Map<string, number>();
  const texts: Array<string | undefined> = [undefined];
  return {
    code(s) {
      if (s === undefined) return 0;
      let c = codes.get(s);
      if (c === undefined) codes.set(s, (c = texts.push(s) - 1));
      return c;
    },
    text: code => texts[code],
    get size() { return texts.length; },
  };
}

/**
 * Row numbers ordered by `keys` (whole numbers >= 0), rows with equal keys in row order: a stable
 * sort. Key and row are packed into one double and sorted natively when that stays exact (below
 * 2^53), which is several times faster than a comparator over a million rows.
 */
export function orderBy(keys: Float64Array): Uint32Array {
  const n = keys.length;
  let max = 0;
  for (let i = 0; i < n; i++) if (keys[i]! > max) max = keys[i]!;
  if ((max + 1) * n <= Number.MAX_SAFE_INTEGER) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = keys[i]! * n + i;
    packed.sort();
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[i] = packed[i]! % n;
    return out;
  }
  return Uint32Array.from(keys.keys()).sort((a, b) => keys[a]! - keys[b]! || a - b);
}
