#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { PaideiaError, ConfigError, PAIDEIA_VERSION, StoreError, stripControl } from '../core/index.js';
import { registerDemo } from './commands/demo.js';
import { registerReport } from './commands/report.js';
import { registerRun } from './commands/run.js';
import { registerRuns } from './commands/runs.js';
import { registerSuites } from './commands/suites.js';
import { registerModels } from './commands/models.js';
import { registerRescore } from './commands/rescore.js';
import { registerScenario } from './commands/scenario.js';
import { registerUnits } from './commands/units.js';
import { registerDeck } from './commands/deck.js';
import { registerValidity } from './commands/validity.js';
import { registerWorker } from './commands/worker.js';
import { registerStore } from './commands/store.js';
import { registerLearning } from './commands/learning.js';
import { registerServe } from './commands/serve.js';
import { EXIT_CODES as EXIT } from './exit-codes.js';
import { endQuietlyOnClosedPipes } from './closed-pipe.js';
import { commandHint, commandPrefix, shellWord } from './hint.js';
import { unknownCommandPointer } from './unknown-command.js';

endQuietlyOnClosedPipes();

const program = new Command('paideia')
  .description('Measure how well large language models teach, and whether the scores track learning.')
  .version(PAIDEIA_VERSION)
  .showHelpAfterError()
  .exitOverride();

registerDemo(program);
registerRun(program);
registerReport(program);
registerRescore(program);
registerRuns(program);
registerSuites(program);
registerModels(program);
registerScenario(program);
registerUnits(program);
registerDeck(program);
registerValidity(program);
registerWorker(program);
registerStore(program);
registerLearning(program);
registerServe(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // A failed command must end even if a library left a socket open (pg after a failed login does):
  // the unref'd timer fires only when something else still holds the process.
  setTimeout(() => process.exit(), 2000).unref();
  if (error instanceof CommanderError) {
    const pointer = error.code === 'commander.unknownCommand' ? unknownCommandPointer(program, process.argv.slice(2)) : undefined;
    if (pointer) process.stderr.write(`hint: ${pointer}\n`);
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
}
