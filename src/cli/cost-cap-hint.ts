import type { RunOutcome } from '../core/index.js';

/**
 * The `--cost-cap` a resume hint names after a session stopped at its cap: at least $1, twice the
 * old cap and twice the spend, and always room above the spend for the call the cap refused, so
 * the command runs on when pasted. Rounded up to a cent. Nothing when the cap did not stop it.
 */
export function raisedCapArgs(outcome: Pick<RunOutcome, 'stoppedBy' | 'spentUsd' | 'refusedUsd'>, capUsd: number | undefined): string[] {
  if (outcome.stoppedBy !== 'cost-cap') return [];
  const need = Math.max(1, 2 * (capUsd ?? 0), 2 * outcome.spentUsd, outcome.spentUsd + (outcome.refusedUsd ?? 0));
  // Less a hair before rounding up, so 16.9 stays 16.9 rather than becoming 16.91 by float error.
  return ['--cost-cap', String(Math.ceil(need * 100 - 1e-6) / 100)];
}
