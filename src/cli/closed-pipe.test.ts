import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from './testing/run-cli.js';

const suite = new URL('./__fixtures__/mini-suite.jsonl', import.meta.url).pathname;

/** Run a command whose reader has gone away before it writes a byte (`... | head -0`). */
async function withClosedStdout(args: string[], cwd: string) {
  const { child, done } = startCli(args, { cwd });
  child.stdout!.destroy();
  return done;
}

describe('a closed stdout ends a command quietly', () => {
  it('report -o -, runs, models and scenario schema exit 0 with no stack when the pipe is closed', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-pipe-'));
    const run = await runCli(['run', suite, '-m', 'baseline:gold', '--repeats', '1'], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const runId = run.stdout.trim();
    for (const args of [['report', runId, '-o', '-'], ['report', runId, '--format', 'json', '-o', '-'], ['runs'], ['models'], ['scenario', 'schema']]) {
      const r = await withClosedStdout(args, cwd);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    }
  });
});
