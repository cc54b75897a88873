import type { Command } from 'commander';
import { closest } from '../core/config/zod-issues.js';
import { commandPrefix } from './hint.js';

/** What a verb of its own does for a group that lacks it (`paideia validity report`, say), told with the CLI as started. */
const FOR_GROUP: Record<string, Record<string, (paideia: string) => string>> = {
  validity: {
    report: p => `a stored run's judges against your experts: ${p} report <run-id> --experts FILE; CSV files: ${p} validity analyze --help`,
  },
};

/**
 * A pointer for `paideia GROUP VERB` when VERB is not a command of GROUP but one of its own (report,
 * rescore, runs work on every kind of run), or undefined. Commander has said the command is unknown.
 */
export function unknownCommandPointer(program: Command, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const [groupName, verb] = args;
  if (groupName === undefined || verb === undefined || verb.startsWith('-')) return undefined;
  const group = program.commands.find(c => c.name() === groupName || c.aliases().includes(groupName));
  if (!group || group.commands.some(c => c.name() === verb || c.aliases().includes(verb))) return undefined;
  const own = program.commands.find(c => c.name() === verb);
  if (!own) return undefined;
  const prefix = commandPrefix(env).join(' ');
  // The command with the arguments it needs: "[options]" and "[command]" left out, so that it reads as typed.
  const needs = own.usage().replace(/\[options\]|\[command\]/g, '').trim();
  const what = FOR_GROUP[group.name()]?.[verb]?.(prefix) ?? `${prefix} ${own.name()}${needs ? ` ${needs}` : ''}`;
  return `"${verb}" is a command of its own, not of "${group.name()}": ${what} (${prefix} ${own.name()} --help)`;
}

/**
 * A guess for `paideia GROUP WORD` when the group runs on its own and WORD is no argument it takes
 * but near one of its subcommands (`paideia runs delte`): commander says only "too many arguments".
 */
export function subcommandGuess(program: Command, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const [groupName, word] = args;
  if (groupName === undefined || word === undefined || word.startsWith('-')) return undefined;
  const group = program.commands.find(c => c.name() === groupName || c.aliases().includes(groupName));
  // The word is a subcommand: the extra argument was that subcommand's (`scenario run f --resume x`), not a typo.
  if (!group || group.commands.some(c => c.name() === word || c.aliases().includes(word))) return undefined;
  const guess = closest(word, group.commands.map(c => c.name()));
  if (!guess) return undefined;
  const prefix = commandPrefix(env).join(' ');
  return `"${word}" is no command of "${group.name()}"; did you mean ${prefix} ${group.name()} ${guess}? (${prefix} ${group.name()} ${guess} --help)`;
}
