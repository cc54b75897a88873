import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { parseYamlSource, type YamlSource } from './yaml-source.js';
import { zodIssues } from './zod-issues.js';

/**
 * A YAML config file that must be a mapping, checked against its schema: the source (for the
 * line-accurate issues of later checks) and the checked data, or a ConfigError naming file and line.
 * `shape` says what the mapping holds, for a file that is not one ("a study is a YAML mapping with ...").
 * When unknown keys are all that is wrong, the data is checked without them and returned with
 * their issues: the caller's own checks then run too and every problem is reported at once (the
 * caller throws them all; `issues` is never empty for a file that is not valid).
 */
export function parseYamlMapping<S extends z.ZodType>(file: string, text: string, schema: S, shape: string): { source: YamlSource; data: z.output<S>; issues: ConfigIssue[] } {
  const parsed = parseYamlSource(file, text);
  if (!parsed.source) throw new ConfigError(parsed.issues);
  const source = parsed.source;
  if (source.data === null || typeof source.data !== 'object' || Array.isArray(source.data)) {
    throw new ConfigError([{ file, line: 1, message: shape }]);
  }
  const checked = schema.safeParse(source.data);
  if (checked.success) return { source, data: checked.data, issues: [] };
  const all = checked.error.issues;
  if (all.every(i => i.code === 'unrecognized_keys')) {
    const again = schema.safeParse(withoutKeys(source.data, all as z.core.$ZodIssueUnrecognizedKeys[]));
    if (again.success) return { source, data: again.data, issues: zodIssues(source, schema, all) };
  }
  throw new ConfigError(zodIssues(source, schema, all));
}

/** A copy of YAML data without the keys zod did not recognise. */
function withoutKeys(data: unknown, unknown: ReadonlyArray<z.core.$ZodIssueUnrecognizedKeys>): unknown {
  const copy = structuredClone(data);
  for (const issue of unknown) {
    let at: unknown = copy;
    for (const step of issue.path) at = (at as Record<PropertyKey, unknown> | undefined)?.[step as string];
    if (at && typeof at === 'object') for (const key of issue.keys) delete (at as Record<string, unknown>)[key];
  }
  return copy;
}
