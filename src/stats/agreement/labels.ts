import { StatsInputError } from '../inference/errors.js';

/** A category label: a finite number or a string. `1` and `'1'` are different labels. */
export type Label = string | number;

/** Throws unless `v` is a usable label. */
export function checkLabel(name: string, v: unknown): Label {
  if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
  throw new StatsInputError(name, `expected a string or finite number label, got ${String(v)}`);
}

/**
 * Sorted distinct labels, as numpy's np.unique orders them: numbers ascending, strings by code
 * unit. Numbers and strings cannot be mixed (numpy refuses to order them too).
 */
export function sortedLabels(name: string, values: Iterable<Label>): Label[] {
  const set = [...new Set(values)];
  const numbers = set.filter((v): v is number => typeof v === 'number');
  if (numbers.length > 0 && numbers.length < set.length) {
    throw new StatsInputError(name, 'mixes numbers and strings; use one type of label (or pass `labels` in the order you want)');
  }
  return numbers.length ? numbers.sort((a, b) => a - b) : (set as string[]).sort();
}
