#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { PaideiaError, ConfigError, PAIDEIA_VERSION, StoreError, stripControl } from '../core/index.js';
import { EXIT_CODES as EXIT } from './exit-codes.js';
import { endQuietlyOnClosedPipes } from './closed-pipe.js';
import { commandHint, commandPrefix, shellWord } from './hint.js';
import { subcommandGuess, unknownCommandPointer } from './unknown-command.js';

endQuietlyOnClosedPipes();

const program = new Command('paideia')
  .description('Measure how well large language models teach, and whether the scores track learning.')
  .version(PAIDEIA_VERSION)
  .showHelpAfterError()
  .exitOverride();
// Commander's error output (an unknown command, a suggestion, the help after it) is held until it
// is known whether Paideia has a pointer of its own: `paideia scenario runs` would otherwise say
// "Did you mean run?" and print the scenario group's help above a hint that runs is a command of
// its own. Set before the commands are made, which inherit it.
const heldErrors: string[] = [];
program.configureOutput({ writeErr: text => void heldErrors.push(text) });
const releaseErrors = () => process.stderr.write(heldErrors.splice(0).join(''));

// Each command's module is loaded only when it is the one asked for: together they import some 600
// modules (the web app, every run kind, the statistics), a third of a second before any work.
// With no command named (help, --version, a mistyped one) all are loaded, so help lists them all.
type Register = (program: Command) => void;
const COMMANDS: Record<string, () => Promise<Register>> = {
  demo: async () => (await import('./commands/demo.js')).registerDemo,
  run: async () => (await import('./commands/run.js')).registerRun,
  report: async () => (await import('./commands/report.js')).registerReport,
  rescore: async () => (await import('./commands/rescore.js')).registerRescore,
  runs: async () => (await import('./commands/runs.js')).registerRuns,
  suites: async () => (await import('./commands/suites.js')).registerSuites,
  models: async () => (await import('./commands/models.js')).registerModels,
  scenario: async () => (await import('./commands/scenario.js')).registerScenario,
  units: async () => (await import('./commands/units.js')).registerUnits,
  deck: async () => (await import('./commands/deck.js')).registerDeck,
  validity: async () => (await import('./commands/validity.js')).registerValidity,
  worker: async () => (await import('./commands/worker.js')).registerWorker,
  store: async () => (await import('./commands/store.js')).registerStore,
  learning: async () => (await import('./commands/learning.js')).registerLearning,
  serve: async () => (await import('./commands/serve.js')).registerServe,
};
// `paideia help scenario run` is asked as `paideia scenario run --help`: commander's help command
// takes one word (it showed the group's) and says nothing of a word that is no command (`paideia
// help nothing` printed the help and exited 2), which is then an unknown command, with a guess.
// The words before the first flag name the command; the flags after are dropped (help runs nothing).
const leadingWords = (args: string[]) => { const i = args.findIndex(a => a.startsWith('-')); return i < 0 ? args : args.slice(0, i); };
let operands = leadingWords(process.argv.slice(3));
let helpOf = process.argv[2] === 'help' && operands.length > 0;
if (helpOf) process.argv.splice(2, Infinity, ...operands, ...(Object.hasOwn(COMMANDS, operands[0]!) ? ['--help'] : []));
// Only a command named first is loaded alone: after a flag (`--help run`), the program's own help
// or error lists every command.
const named = process.argv[2];
const loaded = new Set(named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS));
const registerCommands = async (names: Iterable<string>) => {
  for (const register of await Promise.all([...names].map(name => COMMANDS[name]!()))) register(program);
};
await registerCommands(loaded);
// `paideia scenario help rnu`, a group's own help command, is asked as `paideia help scenario rnu`.
const group = program.commands.find(c => c.name() === named);
if (!helpOf && group?.commands.length && process.argv[3] === 'help') {
  operands = [named!, ...leadingWords(process.argv.slice(4))];
  helpOf = true;
  process.argv.splice(2, Infinity, ...operands, '--help');
}
// `paideia help scenario nothing`: the group's help would answer a word it does not have (exit 0);
// without --help it is an unknown command of the group, with a guess.
// A word past a command without subcommands is an argument of it: its help stands (help never runs anything).
if (helpOf && process.argv.at(-1) === '--help') {
  let command: Command | undefined = program;
  for (const word of operands) {
    if (!command?.commands.length) break;
    command = command.commands.find(c => c.name() === word || c.aliases().includes(word));
  }
  if (!command) process.argv.pop();
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // A failed command must end even if a library left a socket open (pg after a failed login does):
  // the unref'd timer fires only when something else still holds the process.
  setTimeout(() => process.exit(), 2000).unref();
  if (error instanceof CommanderError) {
    // `paideia validity report`: the pointer names the command of its own, which must be loaded to be found.
    if (error.code === 'commander.unknownCommand') await registerCommands(Object.keys(COMMANDS).filter(name => !loaded.has(name)));
    const pointer = error.code === 'commander.unknownCommand' ? unknownCommandPointer(program, process.argv.slice(2)) : undefined;
    // With a pointer, commander's first line stands and the pointer replaces its guess and help.
    if (pointer) {
      heldErrors.length = 0;
      process.stderr.write(`${error.message.split('\n')[0]}\nhint: ${pointer}\n`);
    } else releaseErrors();
    const guess = error.code === 'commander.excessArguments' ? subcommandGuess(program, process.argv.slice(2)) : undefined;
    if (guess) process.stderr.write(`hint: ${guess}\n`);
    process.exitCode = error.exitCode === 0 ? 0 : EXIT.badInput;
  } else if (error instanceof ConfigError) {
    // Setup errors print without a stack: the message says what to fix and where. Messages quote
    // files and servers, so escape sequences in them are defused before they reach a terminal.
    process.stderr.write(`error: ${stripControl(error.message)}\n`);
    process.exitCode = EXIT.badInput;
  } else if (error instanceof StoreError) {
    process.stderr.write(`error: ${stripControl(error.message)}\n`);
    const resume = error.storeUrl ? commandHint(['run', '--resume', error.runId ?? ''], error.storeUrl) : [...commandPrefix(), 'run', '--resume', error.runId ?? ''].map(shellWord).join(' ');
    if (error.runId) process.stderr.write(`run ${error.runId} keeps everything stored before the failure; once the store is fixed, resume it with: ${resume}\n`);
    process.exitCode = EXIT.storeFailed;
  } else if (PaideiaError.isInstance(error)) {
    process.stderr.write(`error: ${stripControl(error.message)}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  }
} finally {
  // Anything commander said that no branch above printed.
  releaseErrors();
}
