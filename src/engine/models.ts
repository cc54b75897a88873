import { commandPrefix } from '../core/command-hint.js';
import { ConfigError, type ChatModel, type ChatResult, type Env, type ModelSpec, type Store } from '../core/index.js';
import { createChatModel } from '../providers/index.js';
import { rateLimitMiddleware, retryMiddleware, sharedSlotsMiddleware, wrapChatModel, type ChatModelMiddleware } from '../providers/middleware/index.js';
import { eachCall } from './history.js';

export interface ModelWiring {
  /** Where providers read keys and base URLs; default `process.env`. */
  env?: Env;
  baseURL?: string;
  apiKey?: string;
  scriptFile?: string;
  seed: number;
  requestsPerMinute?: number;
  /** Input + output tokens per minute per model, with requestsPerMinute. */
  tokensPerMinute?: number;
  /** Calls in flight per model across every worker of the store. */
  maxInFlight?: number;
  maxAttempts: number;
  timeoutMs?: number;
  /** How a timed-out call says to give the model longer: the flag of the command that runs it (timeoutFlagHint). */
  timeoutHint?: (timeoutMs: number) => string;
  store: Store;
  /** Stored endpoints of a resumed run, by alias: they win over flags and variables. */
  endpoints?: Record<string, string>;
}

/**
 * Answers of a stored run, for `replay:<run-id>` (or `replay:<run-id>@<alias>` when the run had
 * several models): matched by item, repeat and step, never by calling a model.
 */
async function replayIndex(store: Store, target: string): Promise<Map<string, ChatResult>> {
  const [runId, alias] = target.split('@') as [string, string | undefined];
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: '--model', message: `replay: no run "${runId}" in ${store.url}` }]);
  const aliases = run.config.models.map(m => m.alias);
  const chosen = alias ?? aliases[0];
  if (!chosen || !aliases.includes(chosen)) throw new ConfigError([{ field: '--model', message: `replay: run ${runId} has models ${aliases.join(', ')}; name one as replay:${runId}@<alias>` }]);
  if (!alias && aliases.length > 1) throw new ConfigError([{ field: '--model', message: `replay: run ${runId} has several models (${aliases.join(', ')}); name one as replay:${runId}@<alias>` }]);
  const trials = new Map((await store.listTrials(runId)).filter(t => t.modelAlias === chosen).map(t => [t.id, t]));
  const index = new Map<string, ChatResult>();
  for await (const c of eachCall(store, runId)) {
    const t = trials.get(c.trialId);
    if (t && c.status === 'ok' && c.result) index.set(`${t.itemId}\u0000${t.repeat}\u0000${c.step}`, c.result);
  }
  return index;
}

/**
 * What a call that timed out says to do when the command that runs it has a `--timeout` flag
 * (`paideia run`, `paideia validity run`, `paideia scenario run`): a limit twice as long.
 */
export function timeoutFlagHint(command: string): (timeoutMs: number) => string {
  return ms => `if the model is slow, give ${[...commandPrefix(), command].join(' ')} a longer one: --timeout ${ms * 2}`;
}

/** Build every model of a run, wrapped with retries (honouring Retry-After) and an optional rate limit shared through the store. */
export async function buildModels(specs: ModelSpec[], w: ModelWiring): Promise<Map<string, ChatModel>> {
  const out = new Map<string, ChatModel>();
  for (const spec of specs) {
    const replay = spec.provider === 'replay' ? await replayIndex(w.store, spec.model) : undefined;
    const base = createChatModel(spec, {
      env: w.env ?? process.env, seed: w.seed,
      ...(w.baseURL ? { baseURL: w.baseURL } : {}), ...(w.apiKey ? { apiKey: w.apiKey } : {}),
      ...(w.endpoints?.[spec.alias] ? { endpoint: w.endpoints[spec.alias] } : {}),
      ...(w.scriptFile ? { scriptFile: w.scriptFile } : {}), ...(w.timeoutMs ? { timeoutMs: w.timeoutMs } : {}),
      ...(w.timeoutHint ? { timeoutHint: w.timeoutHint } : {}),
      ...(replay ? { replayLookup: async ctx => replay.get(`${ctx?.itemId}\u0000${ctx?.repeat}\u0000${ctx?.turn}`) } : {}),
    });
    const middleware = [retryMiddleware({ maxAttempts: w.maxAttempts }), ...sharedLimits(spec.spec, base.endpoint, w)];
    out.set(spec.alias, base.isBaseline ? base : wrapChatModel(base, ...middleware));
  }
  return out;
}

/** Rate limits and the cap on calls in flight of a run, held in its store. */
export interface SharedLimitSettings {
  store: Store;
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  maxInFlight?: number;
}

/**
 * The middleware that holds a model's limits across every worker of the store, keyed by model
 * and endpoint; it goes inside the retries. An attempt holds its slot while it waits for a rate
 * permit, so permits go out as used.
 */
export function sharedLimits(specText: string, endpoint: string | undefined, l: SharedLimitSettings): ChatModelMiddleware[] {
  const key = `${specText} ${endpoint ?? ''}`.trim();
  const out: ChatModelMiddleware[] = [];
  if (l.maxInFlight) out.push(sharedSlotsMiddleware({ store: l.store, key: `in-flight ${key}`, max: l.maxInFlight }));
  if (l.requestsPerMinute) {
    out.push(rateLimitMiddleware({
      requestsPerMinute: l.requestsPerMinute, ...(l.tokensPerMinute ? { tokensPerMinute: l.tokensPerMinute } : {}),
      shared: { store: l.store, key },
    }));
  }
  return out;
}
