import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './testing/run-cli.js';

describe('the CLI on a damaged store', () => {
  it('prints one message without a stack and exits 4, for run and for read-only commands alike', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-cli-faults-'));
    writeFileSync(join(cwd, 'p.db'), 'garbage, not SQLite '.repeat(500));
    for (const args of [['runs'], ['report', 'run-x', '--format', 'md'], ['run', 'x.jsonl', '--model', 'baseline:gold']]) {
      const r = await runCli([...args, '--store', 'sqlite:p.db'], { cwd });
      expect(r.code).toBe(EXIT_CODES.storeFailed);
      expect(r.stderr).toMatch(/^error: the store sqlite:.*p\.db is damaged/m);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
