import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/index.js';
import { loadItems } from './load.js';

const good = {
  id: 'a', test: 'grammar_forms', language: 'ga', input: { lemma: 'x' }, accepted: ['y'],
  source: { dataset: 'd', file: 'f', key: 'k' }, licence: 'ODbL-1.0', evidence: 'e', visibility: 'public', contamination: 'public-source', human_checked: false,
};
const dir = () => mkdtempSync(join(tmpdir(), 'paideia-hostile-items-'));

function issuesOf(paths: string[], o?: { maxFileBytes?: number }): ConfigError['issues'] {
  try {
    loadItems(paths, o);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

describe('loadItems on hostile input', () => {
  it('refuses a device, a pipe and a file over the size limit without reading them whole', () => {
    expect(issuesOf(['/dev/zero'])[0]).toMatchObject({ file: '/dev/zero', message: expect.stringMatching(/is a device, not a regular file/) });
    const fifo = join(dir(), 'items.jsonl');
    execFileSync('mkfifo', [fifo]);
    // Opening a FIFO for reading would block until a writer comes; this must return at once.
    expect(issuesOf([fifo])[0]?.message).toMatch(/is a pipe/);
    const big = join(dir(), 'big.jsonl');
    writeFileSync(big, `${JSON.stringify(good)}\n`.repeat(100));
    expect(issuesOf([big], { maxFileBytes: 1000 })[0]?.message).toMatch(/larger than the limit of 1000 bytes/);
  });

  it('reports a line nested 5,000 levels deep by file and line instead of overflowing the stack', () => {
    const path = join(dir(), 'deep.jsonl');
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    writeFileSync(path, `${JSON.stringify(good)}\n${JSON.stringify({ ...good, id: 'b' }).replace('"lemma":"x"', `"lemma":${deep}`)}\n`);
    expect(issuesOf([path])).toEqual([{ file: path, line: 2, message: 'nested more than 64 levels deep; flatten the value' }]);
  });

  it('quotes only a prefix of a huge duplicate id', () => {
    const path = join(dir(), 'dup.jsonl');
    const id = 'x'.repeat(760_000);
    writeFileSync(path, `${JSON.stringify({ ...good, id })}\n${JSON.stringify({ ...good, id })}\n`);
    const [issue] = issuesOf([path]);
    expect(issue?.line).toBe(2);
    expect(issue!.message.length).toBeLessThan(300);
  });

  it('reads a folder that links to itself once', () => {
    const root = dir();
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'a.jsonl'), `${JSON.stringify(good)}\n`);
    symlinkSync(root, join(root, 'sub', 'loop'));
    expect(loadItems([root])).toHaveLength(1);
  });

  it('streams a file of many lines with every line number right', () => {
    const path = join(dir(), 'many.jsonl');
    // Lines straddle the 1 MB read boundary; CRLF endings are accepted.
    const lines = Array.from({ length: 6_000 }, (_, i) => JSON.stringify({ ...good, id: `item-${i}`, notes: 'n'.repeat(i % 97) }));
    writeFileSync(path, lines.join('\r\n') + '\r\n' + '{"broken"\r\n');
    const issues = issuesOf([path]);
    expect(issues).toEqual([expect.objectContaining({ file: path, line: 6_001 })]);
  });
});
