import { ConfigError, type Store } from '../core/index.js';
import { commandHint } from './hint.js';

/**
 * A run that stopped because its claims went and that the store no longer holds: deleted
 * (`paideia runs delete --force`) while this process ran it. Nothing of it is left to report or
 * resume, so the command says so instead of printing a resume hint or failing on the missing run.
 */
export async function deletedRunError(store: Store, runId: string, stoppedBy: string | undefined): Promise<ConfigError | undefined> {
  if (stoppedBy !== 'claim-lost' || (await store.getRun(runId))) return undefined;
  return new ConfigError(`run ${runId} is no longer in ${store.url}: it was deleted while this process ran it (paideia runs delete --force?), with everything it had stored; start it again with the command that made it. List the runs with: ${commandHint(['runs'], store.url)}`);
}
