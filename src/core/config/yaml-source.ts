import { LineCounter, isAlias, isMap, isNode, isPair, isScalar, isSeq, parseDocument, visit, type Document, type Node } from 'yaml';
import type { ConfigIssue } from '../errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../jsonl.js';

/**
 * Most alias expansions a file may make. A few anchors reused a few times is normal; a chain of
 * aliases of aliases (a "billion laughs") expands exponentially and is refused.
 */
const MAX_ALIAS_COUNT = 1000;

/** A parsed YAML file that can say on which line any dot-path sits. */
export interface YamlSource {
  file: string;
  data: unknown;
  /** Line of the value at `path`, or of its nearest existing parent; `keyOnly` points at the key instead. */
  lineOf(path: ReadonlyArray<PropertyKey>, keyOnly?: boolean): number | undefined;
  issue(path: ReadonlyArray<PropertyKey>, message: string, o?: { keyOnly?: boolean }): ConfigIssue;
}

/** Parse YAML text; syntax errors come back as issues with their line, never as a throw. */
export function parseYamlSource(file: string, text: string): { source?: YamlSource; issues: ConfigIssue[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      issues: doc.errors.map(e => ({
        file,
        line: lineCounter.linePos(e.pos[0]).line,
        message: `YAML syntax: ${e.message.split('\n')[0]}`,
      })),
    };
  }
  const lineAt = (offset: number) => lineCounter.linePos(offset).line;
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml package throws (ReferenceError) on an alias bomb; say where the aliases start.
    return { issues: [{ file, ...firstAliasLine(doc, lineAt), message: `YAML aliases expand too much (${(error as Error).message.slice(0, 120)}); write the values out or reuse fewer anchors` }] };
  }
  if (nestsDeeperThan(data, MAX_JSON_DEPTH)) {
    return { issues: [{ file, line: 1, message: `the YAML nests more than ${MAX_JSON_DEPTH} levels deep; a scenario needs a few` }] };
  }
  const source: YamlSource = {
    file,
    data,
    lineOf: (path, keyOnly = false) => locate(doc, path, keyOnly, lineAt),
    issue: (path, message, o = {}) => {
      const line = locate(doc, path, o.keyOnly ?? false, lineAt);
      return { file, ...(line !== undefined ? { line } : {}), field: dotPath(path), message };
    },
  };
  return { source, issues: [] };
}

function firstAliasLine(doc: Document, lineAt: (offset: number) => number): { line?: number } {
  let line: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (isAlias(node) && node.range) line = lineAt(node.range[0]);
      return visit.BREAK;
    },
  });
  return line !== undefined ? { line } : {};
}

export function dotPath(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}

function locate(doc: Document, path: ReadonlyArray<PropertyKey>, keyOnly: boolean, lineAt: (offset: number) => number): number | undefined {
  let node: unknown = doc.contents;
  let keyNode: unknown;
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find(p => isPair(p) && keyText(p.key) === String(step));
      if (!pair) break;
      keyNode = pair.key;
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step];
      if (item === undefined) break;
      keyNode = item;
      node = item;
    } else break;
  }
  const target = keyOnly && keyNode !== undefined ? keyNode : node ?? keyNode;
  const range = isNode(target) ? (target as Node).range : undefined;
  return range ? lineAt(range[0]) : undefined;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' ? key : undefined;
}
