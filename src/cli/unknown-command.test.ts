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

  it('`paideia scenario runs` gives the pointer alone: no "Did you mean run?" and no group help above it that contradict it', async () => {
    const r = await runCli(['scenario', 'runs'], { cwd: mkdtempSync(join(tmpdir(), 'paideia-unknown-')) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: unknown command 'runs'\nhint: "runs" is a command of its own, not of "scenario": paideia runs (paideia runs --help)\n`);
    // A word that is no command of Paideia's keeps commander's suggestion and the group's help.
    const typo = await runCli(['scenario', 'rnu'], { cwd: mkdtempSync(join(tmpdir(), 'paideia-unknown-')) });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^error: unknown command 'rnu'\n\(Did you mean run\?\)\n\nUsage: paideia scenario /);
    expect(typo.stderr).not.toMatch(/hint:/);
  });

  it('`paideia runs delte` guesses the subcommand meant, as commander does for groups that do not run on their own', async () => {
    const r = await runCli(['runs', 'delte', 'x'], { cwd: mkdtempSync(join(tmpdir(), 'paideia-unknown-')) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: too many arguments for 'runs'/);
    expect(r.stderr).toMatch(/^hint: "delte" is no command of "runs"; did you mean paideia runs delete\? \(paideia runs delete --help\)$/m);
    // A word near no subcommand gets no guess, nor does a subcommand given an argument too many.
    expect((await runCli(['runs', 'zzzzzz'], { cwd: mkdtempSync(join(tmpdir(), 'paideia-unknown-')) })).stderr).not.toMatch(/hint:/);
    const extra = await runCli(['runs', 'bundle', 'a', 'b'], { cwd: mkdtempSync(join(tmpdir(), 'paideia-unknown-')) });
    expect(extra.code).toBe(2);
    expect(extra.stderr).not.toMatch(/hint:/);
  });

  it('`paideia help scenario run` shows the help of `scenario run`, as `paideia scenario run --help` does', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-help-'));
    const nested = await runCli(['help', 'scenario', 'run'], { cwd });
    const direct = await runCli(['scenario', 'run', '--help'], { cwd });
    expect(nested.code).toBe(0);
    expect(nested.stdout).toMatch(/^Usage: paideia scenario run \[options\] <file>/);
    expect(nested.stdout).toBe(direct.stdout);
    // One word still shows that command's help.
    expect((await runCli(['help', 'scenario'], { cwd })).stdout).toMatch(/^Usage: paideia scenario \[options\] \[command\]/);
    // A word that is no command is said to be one, with commander's guess.
    const unknown = await runCli(['help', 'scenarios'], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown command 'scenarios'\n\(Did you mean scenario\?\)/);
    // So is a word that is no command of a group: not the group's help with exit 0.
    const sub = await runCli(['help', 'scenario', 'rnu'], { cwd });
    expect([sub.code, sub.stdout]).toEqual([2, '']);
    expect(sub.stderr).toMatch(/^error: unknown command 'rnu'\n\(Did you mean run\?\)/);
    // A word past a command of no subcommands is its argument: its help, nothing run.
    const past = await runCli(['help', 'scenario', 'run', 'nothing.yaml'], { cwd });
    expect([past.code, past.stdout]).toEqual([0, direct.stdout]);
    // Flags after the words are dropped: the help of the command the words name.
    for (const args of [['help', 'scenario', 'run', 'x.yaml', '--resume', 'y'], ['help', 'scenario', 'run', '--help']]) {
      const r = await runCli(args, { cwd });
      expect([r.code, r.stdout], args.join(' ')).toEqual([0, direct.stdout]);
    }
    // A group's own help command reads as `paideia help`.
    const own = await runCli(['scenario', 'help', 'rnu'], { cwd });
    expect([own.code, own.stdout]).toEqual([2, '']);
    expect(own.stderr).toMatch(/^error: unknown command 'rnu'\n\(Did you mean run\?\)/);
    expect((await runCli(['scenario', 'help', 'run'], { cwd })).stdout).toBe(direct.stdout);
  });

  it('points at the verb with its usage for any group, under npx as npx paideia, and says nothing for a word that is no command', () => {
    const program = new Command('paideia');
    program.command('rescore <run-id>');
    const learning = program.command('learning');
    learning.command('run');
    learning.command('report <id>');
    expect(unknownCommandPointer(program, ['learning', 'rescore', 'x'], {})).toBe('"rescore" is a command of its own, not of "learning": paideia rescore <run-id> (paideia rescore --help)');
    expect(unknownCommandPointer(program, ['learning', 'rescore', '--store', 'sqlite:a.db'], { npm_command: 'exec' })).toMatch(/: npx paideia rescore <run-id> \(npx paideia rescore --help\)$/);
    expect(unknownCommandPointer(program, ['learning', 'frobnicate'], {})).toBeUndefined();
    expect(unknownCommandPointer(program, ['learning', 'report', 'x'], {})).toBeUndefined();
    expect(unknownCommandPointer(program, ['rescore'], {})).toBeUndefined();
  });
});
