import type { Store } from '../core/index.js';
import { buildSummaryData } from '../report/index.js';
import { renderTerminalSummary } from '../report/terminal.js';
import { tests } from './wiring.js';

/**
 * The score table a run ends with, on stderr: stdout carries only the run id, which scripts read.
 * Nothing is printed when nothing was scored or run.
 */
export async function printTerminalSummary(store: Store, runId: string): Promise<void> {
  const data = await buildSummaryData(store, runId, { tests });
  if (!data.cells.length) return;
  process.stderr.write(`\n${renderTerminalSummary(data)}\n`);
}
