import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../src/core/errors.js';
import { parseScenario } from '../../src/scenarios/load.js';
import { loadItems } from '../../src/suites/load.js';
import type { FuzzCase } from './mutate.js';

/** What a case did: loaded, refused with a located message (exit 2), or crashed (anything else). */
export type Outcome =
  | { kind: 'loaded' }
  | { kind: 'refused'; issues: number }
  | { kind: 'crashed'; why: string };

/**
 * Load one case as the CLI would. A ConfigError whose every issue names the file and a line (or,
 * for a value inside a line, the field) is a clean refusal; any other throw, or an issue with no
 * place, is a crash.
 */
export function runCase(kind: 'items' | 'scenario', c: FuzzCase, dir: string): Outcome {
  const folder = join(dir, String(c.index));
  mkdirSync(folder, { recursive: true });
  const file = join(folder, kind === 'items' ? 'items.jsonl' : 'scenario.yaml');
  writeFileSync(file, c.bytes);
  try {
    if (kind === 'items') loadItems([file]);
    else parseScenario(file, c.bytes.toString('utf8'), { env: {} });
    return { kind: 'loaded' };
  } catch (error) {
    if (!(error instanceof ConfigError)) return { kind: 'crashed', why: `${(error as Error)?.name}: ${String((error as Error)?.message).slice(0, 300)}` };
    const unplaced = error.issues.find(i => !i.file || i.line === undefined);
    if (unplaced) return { kind: 'crashed', why: `issue without file and line: ${JSON.stringify(unplaced).slice(0, 300)}` };
    return { kind: 'refused', issues: error.issues.length };
  }
}
