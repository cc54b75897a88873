import { expect, it } from 'vitest';
import { createProgress } from './progress.js';

it('names the run on the line it starts with, before any trial ends (stdout has the id only at the end)', () => {
  const lines: string[] = [];
  const progress = createProgress({ isTTY: false, write: t => lines.push(String(t)) });
  progress({ type: 'planned', runId: 'run-0123456789abcdef', kind: 'suite', trials: 40 });
  progress({ type: 'start', total: 40, done: 10, failed: 2, pending: 28, spentUsd: 0, retried: 0 });
  expect(lines).toEqual(['run run-0123456789abcdef: 28 trial(s) to run; 10 done and 2 failed before.\n']);
});
