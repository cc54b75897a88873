import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import type { Store } from '../../core/store.js';
import { blindCsv, blindRubric, buildBlindExport, storeBlindKey } from './export.js';
import { labelStudioConfig, labelStudioTasks } from './labelstudio.js';

export type BlindFormat = 'csv' | 'labelstudio';

export interface WrittenExport {
  exportId: string;
  dialogues: number;
  /** The file for experts. */
  out: string;
  /** Private: maps opaque ids to dialogues and models. */
  keyFile: string;
  /** Beside it: the rubric (CSV) or the labeling config (Label Studio). */
  companion: string;
}

/** The private key sits next to the export under a name that says what it is. */
export const keyFileOf = (out: string): string => `${out}.private-key.json`;

/**
 * Write a blind export and its private key, and store the key in the run. CSV: the file and a
 * Markdown rubric (`<out>.rubric.md`); Label Studio: the tasks and the labeling config
 * (`<out without extension>.label-config.xml`).
 */
export async function writeBlindExport(store: Store, runId: string, o: { format: BlindFormat; out: string; seed?: number }): Promise<WrittenExport> {
  if (o.format !== 'csv' && o.format !== 'labelstudio') throw new ConfigError([{ field: '--format', message: `expected csv or labelstudio, got "${String(o.format)}"` }]);
  const x = await buildBlindExport(store, runId, o.seed ?? 0);
  const keyFile = keyFileOf(o.out);
  const companion = o.format === 'csv' ? `${o.out}.rubric.md` : `${o.out.slice(0, o.out.length - extname(o.out).length)}.label-config.xml`;
  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(o.out, o.format === 'csv' ? blindCsv(x) : labelStudioTasks(x));
  writeFileSync(companion, o.format === 'csv' ? blindRubric(x) : labelStudioConfig(x));
  writeFileSync(keyFile, JSON.stringify(x.key, null, 2) + '\n', { mode: 0o600 });
  await storeBlindKey(store, x.key);
  return { exportId: x.key.exportId, dialogues: x.items.length, out: o.out, keyFile, companion };
}
