import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { parseYamlSource, type YamlSource } from './yaml-source.js';
import { zodIssues } from './zod-issues.js';

/**
 * A YAML config file that must be a mapping, checked against its schema: the source (for the
 * line-accurate issues of later checks) and the checked data, or a ConfigError naming file and line.
 * `shape` says what the mapping holds, for a file that is not one ("a study is a YAML mapping with ...").
 */
export function parseYamlMapping<S extends z.ZodType>(file: string, text: string, schema: S, shape: string): { source: YamlSource; data: z.output<S> } {
  const parsed = parseYamlSource(file, text);
  if (!parsed.source) throw new ConfigError(parsed.issues);
  const source = parsed.source;
  if (source.data === null || typeof source.data !== 'object' || Array.isArray(source.data)) {
    throw new ConfigError([{ file, line: 1, message: shape }]);
  }
  const checked = schema.safeParse(source.data);
  if (!checked.success) throw new ConfigError(zodIssues(source, schema, checked.error.issues));
  return { source, data: checked.data };
}
