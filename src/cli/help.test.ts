import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/run-cli.js';

describe('help advertises only what works', () => {
  it('run and worker offer a postgres:// store; one that cannot be reached is bad input saying what to do', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-help-'));
    for (const command of ['run', 'worker', 'demo', 'report', 'runs', 'rescore']) {
      const r = await runCli([command, '--help'], { cwd });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('--store');
    }
    for (const command of ['run', 'worker']) expect((await runCli([command, '--help'], { cwd })).stdout).toMatch(/postgres:\/\//);
    // Port 9 (discard) has no PostgreSQL.
    const refused = await runCli(['runs', '--store', 'postgres://paideia@127.0.0.1:9/paideia'], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cannot reach PostgreSQL at 127\.0\.0\.1:9.*start the server/);
    const typo = await runCli(['runs', '--store', 'postgres://'], { cwd });
    expect([typo.code, typo.stderr]).toEqual([2, expect.stringMatching(/--store.*names no host/)]);
  });
});

describe('the program\'s help lists every command however it is asked for', () => {
  it('with a flag before a command name (`--help run`, `-h run`), as with none', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-help-all-'));
    const listed = (out: string) => out.split('\n').filter(l => /^ {2}[a-z]+ /.test(l)).map(l => l.trim().split(/\s/)[0]).sort();
    const all = listed((await runCli(['--help'], { cwd })).stdout);
    expect(all).toEqual(expect.arrayContaining(['demo', 'learning', 'report', 'run', 'scenario', 'serve', 'validity', 'worker']));
    for (const args of [['--help', 'run'], ['-h', 'run']]) {
      const r = await runCli(args, { cwd });
      expect([r.code, listed(r.stdout)]).toEqual([0, all]);
    }
  });
});
