import type { JsonValue, Store } from '../core/index.js';

/** Artifacts of a run whose models were moved to another endpoint on resume, one per model alias. */
const MOVES = 'endpoint-moves';

/** One move of a model's endpoint: a resume sent the remaining trials elsewhere. */
export interface EndpointMove {
  from?: string;
  to: string;
  /** ISO time of the resume that moved it. */
  at: string;
}

/** Where each model of a run is called now, and where it was called before (the stored plan's, then every move). */
export interface RunEndpoints {
  current: Record<string, string>;
  former: Record<string, string[]>;
}

/**
 * A run's endpoints: those it was planned with, then the moves of later resumes (a run started
 * against a server that was down, resumed with `--base-url` at one that runs). The plan and its
 * run id stay as they were; each call record names the endpoint it used.
 */
export async function runEndpoints(store: Store, runId: string, planned: Readonly<Record<string, string>> = {}): Promise<RunEndpoints> {
  const current: Record<string, string> = { ...planned };
  const former: Record<string, string[]> = {};
  for (const { key: alias, value } of await store.listArtifacts(runId, MOVES)) {
    const moves = (value as { moves?: EndpointMove[] }).moves ?? [];
    const used = [planned[alias], ...moves.map(m => m.to)].filter((e): e is string => e !== undefined);
    const now = used.pop();
    if (now !== undefined) current[alias] = now;
    former[alias] = [...new Set(used)].filter(e => e !== now);
  }
  return { current, former };
}

/** Record that the remaining trials of a model go to `to` from now on. */
export async function moveEndpoint(store: Store, runId: string, alias: string, from: string | undefined, to: string): Promise<void> {
  const found = (await store.listArtifacts(runId, MOVES)).find(a => a.key === alias);
  const moves = ((found?.value as { moves?: EndpointMove[] } | undefined)?.moves ?? []).slice();
  moves.push({ ...(from !== undefined ? { from } : {}), to, at: new Date().toISOString() });
  await store.putArtifact(runId, MOVES, alias, JSON.parse(JSON.stringify({ moves })) as JsonValue);
}
