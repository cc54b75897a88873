import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const launcher = new URL('../../bin/paideia.js', import.meta.url).pathname;

/** A checkout holding only the launcher (and, when built, a CLI entry that echoes its arguments). */
function checkout(built: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'paideia-launcher-'));
  mkdirSync(join(root, 'bin'));
  copyFileSync(launcher, join(root, 'bin', 'paideia.js'));
  chmodSync(join(root, 'bin', 'paideia.js'), 0o755);
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
  if (built) {
    mkdirSync(join(root, 'dist', 'src', 'cli'), { recursive: true });
    writeFileSync(join(root, 'dist', 'src', 'cli', 'main.js'), 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
  }
  return root;
}

describe('the paideia bin', () => {
  it('before a build says how to build, naming the checkout (exit 2)', () => {
    const root = checkout(false);
    const r = spawnSync(join(root, 'bin', 'paideia.js'), ['runs'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`paideia is not built yet: run "npm ci && npm run build" in ${root}/`);
  });

  it('after a build runs the built CLI with the arguments given', () => {
    const root = checkout(true);
    const r = spawnSync(join(root, 'bin', 'paideia.js'), ['run', '--resume', 'run-1'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['run', '--resume', 'run-1']);
  });
});
