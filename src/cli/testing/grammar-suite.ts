import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A suite of real-shaped grammar items (`<prefix>-<i>`, lemma `focal<i>`, accepted `focail<i>`),
 * long enough for a CLI run to be killed or paused in the middle. Returns the file's path.
 */
export function grammarSuiteFile(dir: string, prefix: string, count = 60): string {
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({
    id: `${prefix}-${i}`, test: 'grammar_forms', language: 'ga', input: { lemma: `focal${i}`, pos: 'noun', form: 'sgGen', formLabel: 'genitive singular' },
    accepted: [`focail${i}`], source: { dataset: 'test', key: String(i) }, licence: 'CC0-1.0', evidence: 'synthetic',
    visibility: 'private', contamination: 'private', human_checked: false,
  }));
  const file = join(dir, 'suite.jsonl');
  writeFileSync(file, lines.join('\n'));
  return file;
}
