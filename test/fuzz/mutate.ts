import { parse, stringify } from 'yaml';
import { createRng, type Xoshiro128 } from '../../src/stats/random/xoshiro.js';

/**
 * Seeded mutations of valid item lines and scenario files: the inputs that crashed the loaders
 * when probed (deep nesting, alias chains, wrong types, cut text, bytes that are not UTF-8,
 * prototype keys, control characters, hostile file paths) and random edits around them.
 */
export interface FuzzCase {
  index: number;
  /** What the case does, for the failure message. */
  label: string;
  /** The file's bytes. */
  bytes: Buffer;
}

const DEEP = '@@deep:';

/** Text with every deep-nesting marker (a quoted string) replaced by that many nested brackets. */
function expandDeep(text: string): string {
  return text.replace(/"@@deep:(\d+)"|'@@deep:(\d+)'|@@deep:(\d+)/g, (_m, a, b, c) => {
    const n = Number(a ?? b ?? c);
    return '['.repeat(n) + ']'.repeat(n);
  });
}

const pick = <T>(rng: Xoshiro128, list: readonly T[]): T => list[rng.nextInt(list.length)]!;

/** Values that have broken parsers, validators, hashers and renderers before. */
function hostileValue(rng: Xoshiro128): unknown {
  const depth = pick(rng, [70, 500, 5000]);
  switch (rng.nextInt(14)) {
    // A marker, expanded after serialising: the serialisers themselves recurse.
    case 0: return `${DEEP}${depth}`;
    case 1: return 'x'.repeat(pick(rng, [0, 1, 100_000, 800_000]));
    case 2: return pick(rng, [null, true, false, 0, -1, 1e308, -0, 2 ** 53 + 1]);
    case 3: return JSON.parse('{"__proto__": {"polluted": 1}, "constructor": "c", "toString": 5}');
    case 4: return '\u001b[31mred\u001b]0;title\u0007\u0000\r\u2028';
    case 5: return ['a', 1, null, { b: [] }];
    case 6: return {};
    case 7: return '=HYPERLINK("http://x")';
    case 8: return '{persona} {task.x} {{ }} {messages.as_dialog()} {';
    case 9: return '/dev/zero';
    case 10: return '\ud800 lone surrogate';
    case 11: return Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i]));
    case 12: return '${UNSET_VARIABLE}';
    default: return 'START -> router:any_keyword_route(__proto__=1, toString=x)';
  }
}

/** Every path to a value inside a JSON-like tree (objects and arrays), the root excluded. */
function paths(value: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = [], depth = 0): Array<Array<string | number>> {
  if (depth > 12 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    const p = [...prefix, Array.isArray(value) ? Number(k) : k];
    out.push(p);
    paths(v, p, out, depth + 1);
  }
  return out;
}

/** A structural change: set, delete or retype one node of a parsed value. */
function mutateTree(rng: Xoshiro128, value: unknown): { value: unknown; label: string } {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  const all = paths(copy);
  const path = all.length ? pick(rng, all) : [];
  let parent: any = copy;
  for (const step of path.slice(0, -1)) parent = parent[step];
  const last = path[path.length - 1];
  const action = rng.nextInt(3);
  if (last === undefined) return { value: hostileValue(rng), label: 'root replaced' };
  if (action === 0) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    return { value: copy, label: `deleted ${path.join('.')}` };
  }
  const v = hostileValue(rng);
  if (action === 1) {
    parent[last] = v;
    return { value: copy, label: `set ${path.join('.')}` };
  }
  const key = pick(rng, ['__proto__', 'constructor', 'toString', 'extra', '\u001b[2J', '']);
  if (parent !== null && typeof parent === 'object' && !Array.isArray(parent)) Object.defineProperty(parent, key, { value: v, enumerable: true, configurable: true, writable: true });
  return { value: copy, label: `added ${key} under ${path.slice(0, -1).join('.')}` };
}

/** A byte-level change: cut, splice, duplicate or corrupt part of the text. */
function mutateBytes(rng: Xoshiro128, bytes: Buffer): { bytes: Buffer; label: string } {
  const at = rng.nextInt(bytes.length + 1);
  switch (rng.nextInt(6)) {
    case 0: return { bytes: bytes.subarray(0, at), label: `cut at ${at}` };
    case 1: return { bytes: Buffer.concat([bytes.subarray(0, at), Buffer.from([pick(rng, [0x80, 0xff, 0xc3, 0x00, 0x1b, 0x0d])]), bytes.subarray(at)]), label: `byte inserted at ${at}` };
    case 2: {
      const snippet = pick(rng, ['&a ', '*a', '<<: *a\n', '!!binary ', '{', '[', '"', "'", '? ', '\t', ': ', '- ', '#', '%YAML 1.1\n', '---\n', '\\', '\uFEFF', '\r\n']);
      return { bytes: Buffer.concat([bytes.subarray(0, at), Buffer.from(snippet), bytes.subarray(at)]), label: `inserted ${JSON.stringify(snippet)} at ${at}` };
    }
    case 3: {
      const end = Math.min(bytes.length, at + rng.nextInt(200));
      return { bytes: Buffer.concat([bytes.subarray(0, at), bytes.subarray(end)]), label: `deleted ${at}..${end}` };
    }
    case 4: {
      const end = Math.min(bytes.length, at + rng.nextInt(200));
      return { bytes: Buffer.concat([bytes.subarray(0, end), bytes.subarray(at, end), bytes.subarray(end)]), label: `duplicated ${at}..${end}` };
    }
    default: return { bytes: Buffer.concat([bytes, Buffer.from('\n'), bytes]), label: 'whole text twice' };
  }
}

/** An alias chain of `levels` levels, each nine aliases of the one before: 9^levels nodes when expanded. */
export function aliasBomb(levels: number): string {
  const names = 'abcdefghij';
  const lines = [`${names[0]}: &${names[0]} ["x","x","x","x","x","x","x","x","x"]`];
  for (let i = 1; i < levels; i++) lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  return lines.join('\n') + '\n';
}

/** Item-file cases: JSONL texts of a few lines, mostly valid, each with one or two mutations. */
export function itemCases(seed: number, count: number, validItem: Record<string, unknown>): FuzzCase[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, index) => {
    const lines: string[] = [];
    const labels: string[] = [];
    for (let i = 0; i < 1 + rng.nextInt(3); i++) {
      let line: unknown = { ...validItem, id: `item-${index}-${i}` };
      if (rng.nextInt(4) !== 0) {
        const m = mutateTree(rng, line);
        line = m.value;
        labels.push(m.label);
      }
      lines.push(JSON.stringify(line) ?? 'undefined');
    }
    let bytes: Buffer = Buffer.from(expandDeep(lines.join(rng.nextInt(2) ? '\n' : '\r\n')));
    if (rng.nextInt(3) === 0) {
      const m = mutateBytes(rng, bytes);
      bytes = m.bytes;
      labels.push(m.label);
    }
    return { index, label: labels.join('; ') || 'valid', bytes };
  });
}

/** Changes aimed at the scenario fields that read files or multiply work. */
function targeted(rng: Xoshiro128, scenario: Record<string, any>): string {
  const models = Object.keys(scenario.models ?? {});
  const alias = models.length ? pick(rng, models) : 'm';
  switch (rng.nextInt(7)) {
    case 0:
      scenario.tasks = { mode: 'iter', file: pick(rng, ['/dev/zero', '/dev/urandom', '.', '/etc', '', 'missing.jsonl', '/dev/null']) };
      return `tasks.file = ${scenario.tasks.file}`;
    case 1:
      scenario.models = { ...scenario.models, [alias]: { type: 'baseline', model: 'script', script: pick(rng, ['', '.', '/dev/zero', '/etc', '   ']) } };
      return `models.${alias}.script = ${JSON.stringify(scenario.models[alias].script)}`;
    case 2: {
      const lists = 2 + rng.nextInt(7);
      scenario.tasks = { mode: 'union', content: Object.fromEntries(Array.from({ length: lists }, (_, i) => [`v${i}`, Array.from({ length: 20 }, (_, j) => `value ${j}`)])) };
      return `union of ${lists} x 20`;
    }
    case 3:
      scenario.directions = [pick(rng, [
        'START -> router:any_keyword_route(keywords=["a"], __proto__=END, else_to=END)',
        'START -> router:toString()', 'START -> router:constructor(x=1)', 'START -> ' + 'a -> '.repeat(2000) + 'END',
        'START -> router:any_keyword_route(keywords=[' + '"k",'.repeat(5000) + '"k"], exists_to=END, else_to=END)',
        'START -> router:max_turns_route(max_turns=1e400, exceeded_to=END)', '[31mSTART -> END', 'START -> "unterminated',
      ])];
      return `directions = ${scenario.directions[0].slice(0, 60)}`;
    case 4:
      scenario.globals = { ...scenario.globals, [pick(rng, ['recursion_limit', 'repeats', 'concurrency', 'seed'])]: pick(rng, [1e12, -1, 0, 1.5, 'x', 2 ** 60]) };
      return 'globals changed';
    case 5:
      scenario.models = { ...scenario.models, [alias]: { ...scenario.models?.[alias], kargs: { headers: pick(rng, [{ 'Bad Name': 'x' }, { A: 'x\ny' }, 'str', { Authorization: 'Bearer sk-aaaaaaaaaaaa' }]), ['__proto__']: 1, model_kwargs: pick(rng, [null, 'x', { api_key: 'k' }, { extra_headers: { X: 1 } }]) } } };
      return `models.${alias}.kargs hostile`;
    default:
      scenario.agents = { ...scenario.agents, [pick(rng, ['__proto__', 'constructor', 'START', '[2J'])]: { model: alias, prompt: [{ content: '{' }] } };
      return 'hostile agent name';
  }
}

/** Scenario cases: a valid scenario changed in its structure, its text, or replaced by a known attack. */
export function scenarioCases(seed: number, count: number, seeds: readonly string[]): FuzzCase[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, index) => {
    const base = pick(rng, seeds);
    const kind = rng.nextInt(10);
    if (kind === 0) return { index, label: 'alias bomb', bytes: Buffer.from(base + aliasBomb(3 + rng.nextInt(7))) };
    if (kind <= 6) {
      const parsed = JSON.parse(JSON.stringify(parse(base))) as unknown;
      let value = parsed;
      const labels: string[] = [];
      if (kind <= 2) labels.push(targeted(rng, value as Record<string, any>));
      for (let i = 0; i < (kind <= 2 ? rng.nextInt(2) : 1 + rng.nextInt(3)); i++) {
        const m = mutateTree(rng, value);
        value = m.value;
        labels.push(m.label);
      }
      let text: string;
      try {
        text = stringify(value, { aliasDuplicateObjects: false });
      } catch {
        text = JSON.stringify(value) ?? '';
      }
      return { index, label: labels.join('; '), bytes: Buffer.from(expandDeep(text)) };
    }
    let bytes: Buffer = Buffer.from(base);
    const labels: string[] = [];
    for (let i = 0; i < 1 + rng.nextInt(4); i++) {
      const m = mutateBytes(rng, bytes);
      bytes = m.bytes;
      labels.push(m.label);
    }
    return { index, label: labels.join('; '), bytes };
  });
}
