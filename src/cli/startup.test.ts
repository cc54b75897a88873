import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY, TSX_LOADER } from './testing/run-cli.js';

// Packages a command loads only when it uses them: each took a share of every command's start-up
// (jsdom alone over a second) when the CLI imported them through the commands that need them.
const LOADED_ON_USE = ['jsdom', 'pg', 'undici', 'playwright-core'];

/** The npm packages a CLI command loaded through require (CommonJS packages, imported or required). */
function packagesLoaded(cwd: string, args: string[]): string[] {
  const probe = join(cwd, 'probe.cjs');
  writeFileSync(probe, `process.on('exit', () => {
  const names = new Set();
  for (const f of Object.keys(require.cache)) { const m = /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)[\\\\/]/.exec(f); if (m) names.add(m[1]); }
  process.stderr.write('LOADED ' + JSON.stringify([...names]) + '\\n');
});\n`);
  const r = spawnSync(process.execPath, ['--require', probe, '--import', TSX_LOADER, CLI_ENTRY, ...args], { cwd, encoding: 'utf8', env: { ...process.env, npm_command: '' } });
  expect(r.status, r.stderr).toBe(0);
  const line = /^LOADED (.*)$/m.exec(r.stderr);
  expect(line, r.stderr).not.toBeNull();
  return JSON.parse(line![1]!) as string[];
}

describe('start-up', () => {
  it('--version, a baseline run with its summary, and runs load neither jsdom, pg, undici nor playwright-core', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-startup-'));
    const items = fileURLToPath(new URL('../../data/samples/irish/grammar_forms.jsonl', import.meta.url));
    const commands = [['--version'], ['run', items, '-m', 'baseline:gold', '--repeats', '1', '--store', 'sqlite:./s.db'], ['runs', '--store', 'sqlite:./s.db']];
    for (const args of commands) {
      const loaded = packagesLoaded(cwd, args);
      // The probe sees what the CLI imports: commander and better-sqlite3 are CommonJS too.
      expect(loaded).toEqual(expect.arrayContaining(['commander']));
      expect(loaded.filter(p => LOADED_ON_USE.includes(p))).toEqual([]);
    }
  });
});
