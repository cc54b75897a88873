import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/run-cli.js';

describe('help advertises only what works', () => {
  it('no command offers a postgres:// store, which the store refuses', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-help-'));
    for (const command of ['run', 'demo', 'report', 'runs', 'rescore']) {
      const r = await runCli([command, '--help'], { cwd });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('--store');
      expect(r.stdout).not.toMatch(/postgres/i);
    }
    const refused = await runCli(['runs', '--store', 'postgres://localhost/paideia'], { cwd });
    expect(refused.code).toBe(2);
  });
});
