import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';

const UNIT = fileURLToPath(new URL('../../../data/units/chickasaw-case-and-person.yaml', import.meta.url));

describe('paideia units', () => {
  it('validate prints every problem as file:line, field and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'units-cli-'));
    const text = readFileSync(UNIT, 'utf8').replace('band: basic', 'band: intermediate').replace(/  credit: ".*"\n/, '  credit: " "\n');
    writeFileSync(join(dir, 'bad.yaml'), text);
    const r = await runCli(['units', 'validate', dir], { cwd: dir });
    expect(r.code).toBe(2);
    const line = (s: string) => text.slice(0, text.indexOf(s)).split('\n').length;
    expect(r.stderr).toBe([
      `error: ${join(dir, 'bad.yaml')}:${line('credit: " "')}, field "provenance.credit": missing credit: name the olympiad or author who made the puzzle`,
      '',
    ].join('\n'));
    writeFileSync(join(dir, 'bad.yaml'), text.replace('credit: " "', 'credit: UKLO'));
    const r2 = await runCli(['units', 'validate', dir], { cwd: dir });
    expect(r2.stderr).toBe(`error: ${join(dir, 'bad.yaml')}:${line('band: intermediate')}, field "difficulty.band": is "intermediate" but the rubric scores total a "basic" unit (4-6 basic, 7-9 intermediate, 10-12 advanced)\n`);
  });

  it('list, validate and outline the shipped units', async () => {
    const cwd = tmpdir();
    const list = await runCli(['units', 'list', '--format', 'json'], { cwd });
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout) as Array<{ id: string; difficulty: string }>;
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(rows.find(r => r.id === 'chickasaw-case-and-person')?.difficulty).toBe('basic');
    expect(await runCli(['units', 'validate'], { cwd })).toMatchObject({ code: 0, stdout: `ok: ${rows.length} units valid\n` });
    const json = await runCli(['units', 'outline', 'chickasaw-case-and-person', '--format', 'json'], { cwd });
    expect(JSON.parse(json.stdout)).toMatchObject({ unit: 'chickasaw-case-and-person', transferDesign: { sourceItems: 1, near: { items: 5 }, far: { items: 3 } } });
    const md = await runCli(['units', 'outline', 'chickasaw-case-and-person'], { cwd });
    expect(md.stdout).toMatch(/^# Chickasaw: who does what to whom\n/);
    const missing = await runCli(['units', 'outline', 'klingon'], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: field "id": no unit "klingon"; known: /);
  });
});
