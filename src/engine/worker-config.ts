import type { JsonValue, Store } from '../core/index.js';

/** Where a run planned for workers keeps the config they start it from. */
const WORKER_CONFIG = { kind: 'worker', key: 'config' } as const;

/**
 * The run-kind config a worker starts a stored run with (a resume, with the planner's cost cap,
 * concurrency and call options), so `paideia worker` needs nothing but the store and the run id.
 */
export async function saveWorkerConfig(store: Store, runId: string, config: { kind: string } & Record<string, unknown>): Promise<void> {
  await store.putArtifact(runId, WORKER_CONFIG.kind, WORKER_CONFIG.key, JSON.parse(JSON.stringify(config)) as JsonValue);
}

export async function loadWorkerConfig(store: Store, runId: string): Promise<{ kind: string } & Record<string, unknown> | undefined> {
  const found = (await store.listArtifacts(runId, WORKER_CONFIG.kind)).find(a => a.key === WORKER_CONFIG.key);
  return found?.value as ({ kind: string } & Record<string, unknown>) | undefined;
}
