import { isDeepStrictEqual } from 'node:util';
import { ConfigError, type JsonValue, type Store } from '../core/index.js';

/**
 * Where a run keeps the config it was last started with. The names date from when only runs
 * planned for workers kept one; stores written then are read the same way.
 */
const RUN_CONFIG = { kind: 'worker', key: 'config' } as const;

export type StoredRunConfig = { kind: string } & Record<string, unknown>;

/**
 * Keep the run-kind config that continues a run (its kind's `resumeConfig`: paths made absolute,
 * nothing planned twice), so `paideia run --resume ID` and `paideia worker` need nothing but the
 * store and the run id. Written only when it changed: every worker batch starts the run again.
 */
export async function saveRunConfig(store: Store, runId: string, config: StoredRunConfig): Promise<void> {
  const value = JSON.parse(JSON.stringify(config)) as JsonValue;
  if (isDeepStrictEqual(await loadRunConfig(store, runId), value)) return;
  await store.putArtifact(runId, RUN_CONFIG.kind, RUN_CONFIG.key, value);
}

export async function loadRunConfig(store: Store, runId: string): Promise<StoredRunConfig | undefined> {
  const found = (await store.listArtifacts(runId, RUN_CONFIG.kind)).find(a => a.key === RUN_CONFIG.key);
  return found?.value as StoredRunConfig | undefined;
}

/**
 * A config that continues a stored run must still describe that run: run ids hash what a run is
 * asked to do, so a file edited since would otherwise start a new run unasked.
 */
export function checkContinues(resume: string | undefined, runId: string, what: string): void {
  if (resume === undefined || resume === runId) return;
  throw new ConfigError([{
    field: 'resume',
    message: `run ${resume} cannot be continued: ${what} now describes another run (${runId}), so a file it was planned from has changed (or a model's endpoint). Restore it to continue ${resume}, or start the new run with the command that made ${resume}, without --resume`,
  }]);
}
