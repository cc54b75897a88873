// Hints are printed from every layer (store copy, worker, report): they live in core.
export { commandHint, commandPrefix, shellWord } from '../core/command-hint.js';
