import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { runCli } from '../testing/run-cli.js';

const suite = new URL('../__fixtures__/mini-suite.jsonl', import.meta.url).pathname;
/** A printed hint, pasted: its words after `paideia`, unquoted (they hold no spaces here). */
const pasted = (hint: string) => hint.replace(/^paideia /, '').split(' ');

describe('paideia runs delete', () => {
  it('names the run and what it holds, asks for --yes without a terminal, deletes only the runs named, and refuses one in use unless forced', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-runs-delete-'));
    const db = join(cwd, '.paideia', 'paideia.db');
    const first = (await runCli(['run', suite, '-m', 'baseline:gold', '--repeats', '1'], { cwd })).stdout.trim();
    const second = (await runCli(['run', suite, '-m', 'baseline:copy', '--repeats', '1'], { cwd })).stdout.trim();
    expect(first).not.toBe(second);

    const asked = await runCli(['runs', 'delete', first], { cwd });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain(`run ${first} (suite, completed`);
    expect(asked.stderr).toMatch(/models baseline:gold\): 5 trial\(s\) \(5 item\), 0 failed, \$0\.0000 of calls/);
    const hint = /add --yes to delete without asking: (paideia .*)$/m.exec(asked.stderr)?.[1];
    expect(hint).toBe(`paideia runs delete ${first} --yes --store sqlite:${db}`);

    const unknown = await runCli(['runs', 'delete', 'run-nope', first, '--yes'], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run "run-nope"');
    const list = /list the run ids with: (paideia .*)$/m.exec(unknown.stderr)![1]!;
    const listed = await runCli(pasted(list), { cwd: tmpdir() });
    expect(listed.code, listed.stderr).toBe(0);
    // Nothing went: every id is checked before anything is deleted.
    expect(listed.stdout).toContain(first);

    const deleted = await runCli(pasted(hint!), { cwd: tmpdir() });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout.trim()).toBe(first);
    expect(deleted.stderr).toMatch(new RegExp(`deleted run ${first}: 5 trial\\(s\\), 5 call\\(s\\), 5 score\\(s\\), 0 judgment\\(s\\)`));
    const left = JSON.parse((await runCli(['runs', '--format', 'json'], { cwd })).stdout) as Array<{ id: string }>;
    expect(left.map(r => r.id)).toEqual([second]);

    // A worker holding a live claim: refused, with the command that forces it.
    const store = await openStore(`sqlite:${db}`);
    const [trial] = await store.listTrials(second);
    expect(await store.claimTrials(second, { workerId: 'w1', pid: 4242, host: 'lab-2' }, [trial!.id], Date.now() + 600_000)).toEqual([trial!.id]);
    await store.close();
    const inUse = await runCli(['runs', 'delete', second, '--yes'], { cwd });
    expect(inUse.code).toBe(2);
    expect(inUse.stderr).toMatch(/is in use: 1 trial\(s\) held by worker w1 \(pid 4242 on lab-2\)/);
    const force = /to delete it anyway \(its workers can then store nothing more\): (paideia .*)$/m.exec(inUse.stderr)![1]!;
    const forced = await runCli(pasted(force), { cwd: tmpdir() });
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse((await runCli(['runs', '--format', 'json'], { cwd })).stdout)).toEqual([]);
  }, 120_000);
});
