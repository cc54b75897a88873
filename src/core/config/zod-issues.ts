import type { z } from 'zod';
import type { ConfigIssue } from '../errors.js';
import type { YamlSource } from './yaml-source.js';

/** Turn zod issues into issues with a YAML line, a dot-path and, for unknown keys, a "did you mean". */
export function zodIssues(source: YamlSource, schema: z.ZodType, issues: ReadonlyArray<z.core.$ZodIssue>): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(schema, path);
      for (const key of issue.keys) {
        const guess = closest(key, known);
        const hint = guess ? `; did you mean "${guess}"?` : known.length ? `; known keys: ${known.join(', ')}` : '';
        out.push(source.issue([...path, key], `unknown key "${key}"${hint}`, { keyOnly: true }));
      }
    } else if (issue.code === 'invalid_union') {
      // A union's own message ("Invalid input") says nothing; the branch closest to the value says more.
      const branches = issue.errors.map(list => list.filter(i => i.code !== 'invalid_type' || i.path.length > 0));
      const best = branches.find(list => list.length > 0);
      if (best && best.length > 0) out.push(...zodIssues(source, schema, best.map(i => ({ ...i, path: [...path, ...i.path] }))));
      else out.push(source.issue(path, issue.message));
    } else if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message) && path.length > 0) {
      out.push(source.issue(path, `missing required key "${String(path[path.length - 1])}" (expected ${issue.expected})`));
    } else {
      out.push(source.issue(path, issue.message));
    }
  }
  return out;
}

/** The keys an object schema at `path` accepts (through records, arrays, optionals and unions). */
export function knownKeys(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let current: unknown[] = [schema];
  for (const step of path) {
    current = current.flatMap(s => childSchemas(unwrap(s), step));
  }
  return [...new Set(current.flatMap(s => {
    const def = defOf(unwrap(s));
    return def?.type === 'object' ? Object.keys(def.shape as object) : [];
  }))];
}

interface AnyDef { type: string; [key: string]: unknown }
function defOf(schema: unknown): AnyDef | undefined {
  return (schema as { _zod?: { def?: AnyDef } } | undefined)?._zod?.def;
}

function unwrap(schema: unknown): unknown {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(s);
    if (!def) return s;
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'prefault' || def.type === 'readonly') s = def.innerType;
    else if (def.type === 'lazy') s = (def.getter as () => unknown)();
    else if (def.type === 'pipe') s = def.in;
    else return s;
  }
  return s;
}

function childSchemas(schema: unknown, step: PropertyKey): unknown[] {
  const def = defOf(schema);
  if (!def) return [];
  switch (def.type) {
    case 'object': {
      const child = (def.shape as Record<string, unknown>)[String(step)];
      return child ? [child] : [];
    }
    case 'record': return [def.valueType];
    case 'array': return typeof step === 'number' ? [def.element] : [];
    case 'union': return (def.options as unknown[]).flatMap(o => childSchemas(unwrap(o), step));
    default: return [];
  }
}

/** The known word nearest to `word`, when it is near enough to be a likely typo. */
export function closest(word: string, known: ReadonlyArray<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    // The distance is at least the difference in length: a word far longer or shorter than every
    // candidate (a 760 KB key) is no typo, and the quadratic alignment is skipped.
    if (Math.abs(word.length - candidate.length) > Math.max(1, Math.floor(Math.max(word.length, candidate.length) / 3))) continue;
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  // Up to a third of the word may be wrong: "globlas", "agnets", "evalution" all qualify.
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(word.length, best.length) / 3)) ? best : undefined;
}

/** Optimal string alignment distance: adjacent swaps count as one edit, as typos usually are. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
