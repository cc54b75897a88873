import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/run-cli.js';
import { unknownCommandPointer } from './unknown-command.js';

describe('a verb of its own asked of a group', () => {
  it('`paideia validity report` says where validity reports come from, and still exits 2', async () => {
    const r = await runCli(['validity', 'report', 'abc123'], { cwd: mkdtempSync(join(tmpdir(), 'paideia-unknown-')) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'report'/);
    expect(r.stderr).toMatch(/^hint: "report" is a command of its own, not of "validity": .*paideia report <run-id> --experts FILE; CSV files: paideia validity analyze --help/m);
  });

  it('points at the verb with its usage for any group, under npx as npx paideia, and says nothing for a word that is no command', () => {
    const program = new Command('paideia');
    program.command('rescore <run-id>');
    const learning = program.command('learning');
    learning.command('run');
    learning.command('report <id>');
    expect(unknownCommandPointer(program, ['learning', 'rescore', 'x'], {})).toBe('"rescore" is a command of its own, not of "learning": paideia rescore [options] <run-id> (paideia rescore --help)');
    expect(unknownCommandPointer(program, ['learning', 'rescore', '--store', 'sqlite:a.db'], { npm_command: 'exec' })).toMatch(/: npx paideia rescore \[options\] <run-id> \(npx paideia rescore --help\)$/);
    expect(unknownCommandPointer(program, ['learning', 'frobnicate'], {})).toBeUndefined();
    expect(unknownCommandPointer(program, ['learning', 'report', 'x'], {})).toBeUndefined();
    expect(unknownCommandPointer(program, ['rescore'], {})).toBeUndefined();
  });
});
