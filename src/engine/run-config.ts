import { isDeepStrictEqual } from 'node:util';
import { ConfigError, type JsonValue, type Store } from '../core/index.js';
import { publicEndpoint } from '../providers/shared/endpoint.js';

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
 * With `update`, a config the run keeps already changes only in those keys (the settings a
 * resume was given), so a resume that names no cap does not take the planner's cap from the
 * run's workers; a key `config` lacks is dropped.
 */
export async function saveRunConfig(store: Store, runId: string, config: StoredRunConfig, update?: ReadonlyArray<string>): Promise<void> {
  const next = withoutCredentials(JSON.parse(JSON.stringify(config)) as Record<string, JsonValue>);
  const stored = await loadRunConfig(store, runId);
  let value: Record<string, unknown> = next;
  if (stored && update) {
    value = { ...stored };
    for (const key of update) {
      if (Object.hasOwn(next, key)) value[key] = next[key];
      else delete value[key];
    }
  }
  if (isDeepStrictEqual(stored, value)) return;
  await store.putArtifact(runId, RUN_CONFIG.kind, RUN_CONFIG.key, value as JsonValue);
}

/**
 * Keys never reach the store: a base URL that carries a user, a password, a query or a fragment
 * (where keys sometimes travel) is kept without them, so a resume or a worker is given such a URL
 * again (--base-url) or its key from the environment.
 */
function withoutCredentials(config: Record<string, JsonValue>): Record<string, JsonValue> {
  const storable = (url: JsonValue): JsonValue => {
    if (typeof url !== 'string') return url;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return url; // not a URL: the run refused it before anything was planned
    }
    return parsed.username || parsed.password || parsed.search || parsed.hash ? publicEndpoint(url) : url;
  };
  for (const key of ['baseUrl', 'judgeBaseUrl']) if (key in config) config[key] = storable(config[key]!);
  const endpoints = config.endpoints;
  if (endpoints && typeof endpoints === 'object' && !Array.isArray(endpoints)) {
    config.endpoints = Object.fromEntries(Object.entries(endpoints).map(([alias, url]) => [alias, storable(url)]));
  }
  return config;
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
