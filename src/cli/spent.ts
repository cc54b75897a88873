import type { Store } from '../core/index.js';
import { unpricedModels } from '../report/runs-summary.js';

/**
 * What a run's closing line says it spent: `spent $X`, and, when some of its models have no price
 * in the run's table, that their calls cost an unknown amount on top (never a silent $0, as
 * `paideia runs` and the report say it too).
 */
export async function spentText(store: Store, runId: string, spentUsd: number): Promise<string> {
  const run = await store.getRun(runId);
  const unpriced = run ? unpricedModels(run) : [];
  return `spent $${spentUsd.toFixed(4)}${unpriced.length ? ` plus an unknown amount for ${unpriced.join(', ')} (no price)` : ''}`;
}
