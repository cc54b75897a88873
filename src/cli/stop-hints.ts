// What the resume line of a stopped session carries, so that it goes on when pasted: a raised cap,
// --retry-errors after a server went away, the base URL the environment gave.
import type { Env, RunOutcome, RunRecord } from '../core/index.js';

/**
 * The `--cost-cap` a resume hint names after a session stopped at its cap: at least $1, twice the
 * old cap and twice the spend, and always room above the spend for the call the cap refused, so
 * the command runs on when pasted. Rounded up to a cent. Nothing when the cap did not stop it.
 */
export function raisedCapArgs(outcome: Pick<RunOutcome, 'stoppedBy' | 'spentUsd' | 'refusedUsd'>, capUsd: number | undefined): string[] {
  if (outcome.stoppedBy !== 'cost-cap') return [];
  const need = Math.max(1, 2 * (capUsd ?? 0), 2 * outcome.spentUsd, outcome.spentUsd + (outcome.refusedUsd ?? 0));
  // Up to a cent, never below what is needed: 16.9 stays 16.9 (not 16.91 by float error), 4.1500000005 is 4.16.
  let cents = Math.round(need * 100);
  if (cents / 100 < need) cents += 1;
  return ['--cost-cap', String(cents / 100)];
}

/**
 * What the call a cap refused was reserved at, and what lowers that (`lower`: the flag or setting
 * of the command), when the session stopped at its cap: a cap below one call's worst case stops a
 * run before anything is spent, and says nothing useful without it.
 */
export function refusedCallLine(outcome: Pick<RunOutcome, 'stoppedBy' | 'refusedUsd'>, lower: string): string {
  if (outcome.stoppedBy !== 'cost-cap' || !outcome.refusedUsd) return '';
  return `the call it refused was reserved at up to $${outcome.refusedUsd.toFixed(4)} (its prompt and the most tokens it may write, at the model's price); ${lower} lowers that\n`;
}

/**
 * `--retry-errors` for the resume hint of a session its model server stopped (nothing answers at
 * an endpoint) when trials failed: the calls that spent their retries on the server before it was
 * found gone are stored as failed, and a plain resume would end with them still failed.
 */
export function retryAfterUnreachableArgs(outcome: Pick<RunOutcome, 'stoppedBy'>, failed: number): string[] {
  return outcome.stoppedBy === 'unreachable' && failed > 0 ? ['--retry-errors'] : [];
}

/**
 * The `--base-url` of a resume line: the one given, else, when OPENAI_BASE_URL gave the endpoint,
 * the one endpoint the run called its openai: models at. A run whose id names its endpoints is
 * otherwise looked for at api.openai.com in a shell without the variable. None when the run's
 * openai: models were called at several (no one --base-url can say them), or when a file or the
 * default gave it (it says itself).
 */
export function resumeBaseUrl(run: RunRecord | undefined, given: string | undefined, env: Env): string | undefined {
  if (given !== undefined) return given;
  if (!env.OPENAI_BASE_URL) return undefined;
  const ends = new Set(run?.config.models.filter(m => m.provider === 'openai').map(m => run.config.endpoints?.[m.alias]));
  const [only] = ends;
  return ends.size === 1 ? only : undefined;
}
