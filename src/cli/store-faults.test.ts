import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
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

describe('the CLI on a store in a folder it cannot write', () => {
  it('lists runs and reports from a cleanly closed store, as the read-only message promises; a run is refused with exit 4', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-cli-ro-'));
    const folder = join(cwd, 'ro');
    mkdirSync(folder);
    const store = `sqlite:${join(folder, 'p.db')}`;
    const made = await runCli(['run', join(import.meta.dirname, '__fixtures__/mini-suite.jsonl'), '-m', 'baseline:gold', '--repeats', '1', '--store', store], { cwd });
    expect(made.code, made.stderr).toBe(0);
    const runId = made.stdout.trim();
    chmodSync(join(folder, 'p.db'), 0o444);
    chmodSync(folder, 0o555);
    chmodSync(cwd, 0o755);
    // Root writes anywhere: as root, the commands run as nobody, to whom the folder is read-only.
    const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    const options = { cwd, env: { HOME: cwd }, ...(as ? { as } : {}) };
    const runs = await runCli(['runs', '--store', store], options);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toContain(runId);
    const report = await runCli(['report', runId, '--format', 'md', '--out', '-', '--store', store], options);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/baseline:gold/);
    expect(readdirSync(folder)).toEqual(['p.db']);
    const run = await runCli(['run', '--resume', runId, '--store', store], options);
    expect(run.code).toBe(EXIT_CODES.storeFailed);
    expect(run.stderr).toMatch(/cannot be written/);
    // A new store in that folder: nothing to read, so only where to make one is said.
    const fresh = await runCli(['run', 'data/samples/irish', '-m', 'baseline:gold', '--store', `sqlite:${join(folder, 'new.db')}`], options);
    expect(fresh.code).toBe(EXIT_CODES.storeFailed);
    expect(fresh.stderr).toMatch(/the store sqlite:\S+new\.db cannot be made \(.*\): its folder or the disk is read-only\. Name a store in a folder you can write with --store sqlite:<path>/);
    expect(fresh.stderr).not.toMatch(/only read and still work/);

    // Not closed cleanly: its last commits are in a -wal file that cannot be read without a -shm beside it.
    const open = new Database(join(cwd, 'open.db'));
    open.pragma('journal_mode = WAL');
    open.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1)');
    const unclean = join(cwd, 'unclean');
    mkdirSync(unclean);
    for (const f of ['open.db', 'open.db-wal']) copyFileSync(join(cwd, f), join(unclean, f));
    open.close();
    chmodSync(unclean, 0o555);
    const refused = await runCli(['runs', '--store', `sqlite:${join(unclean, 'open.db')}`], options);
    expect(refused.code).toBe(EXIT_CODES.storeFailed);
    expect(refused.stderr).toContain(`was not closed cleanly (its -wal file holds commits not yet in the file)`);
    expect(refused.stderr).not.toMatch(/still work/);
    // What it says to do works, done as written by the same user.
    const advice = /\(cp -r (\S+) COPY && chmod u\+w COPY\), then name the copy with --store sqlite:COPY\/(\S+);/.exec(refused.stderr)!;
    expect(advice[1]).toBe(unclean);
    const writable = mkdtempSync(join(tmpdir(), 'paideia-cli-copy-'));
    chmodSync(writable, 0o777);
    const copy = join(writable, 'COPY');
    const copied = spawnSync('sh', ['-c', `cp -r ${advice[1]} ${copy} && chmod u+w ${copy}`], as ? { uid: as.uid, gid: as.gid } : {});
    expect(copied.status, String(copied.stderr)).toBe(0);
    const read = await runCli(['runs', '--store', `sqlite:${copy}/${advice[2]}`], options);
    expect(read.code, read.stderr).toBe(0);

    // An empty -wal holds nothing: the store reads as a clean one.
    chmodSync(folder, 0o755);
    writeFileSync(join(folder, 'p.db-wal'), '');
    chmodSync(folder, 0o555);
    const empty = await runCli(['runs', '--store', store], options);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toContain(runId);
  });
});
