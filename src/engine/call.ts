import {
  ProviderCallError, contentHash, type CallRecord, type ChatModel, type ChatRequest, type ChatResult, type JsonValue,
  type StoredError, type Store, type TokenUsage, type Trial, type WriteFence,
} from '../core/index.js';
import { resolveImages, withoutImageData } from '../providers/index.js';
import type { Budget } from './budget.js';
import type { Reachability } from './reachability.js';

/** How a run prices calls, from the prices stored with it. */
export interface CostModel {
  /** Actual cost of a finished call that reported its token usage. */
  costOf(modelAlias: string, usage: TokenUsage): number;
  /** Upper estimate of a call before it is made, for the cost cap. */
  estimate(modelAlias: string, request: ChatRequest): number;
}

/**
 * The cache key of a request: who answers it (model and endpoint), what is asked, and what makes it
 * distinct. An image counts by its blob's hash, not its bytes.
 */
export function requestHash(spec: string, endpoint: string | undefined, request: ChatRequest, distinct?: JsonValue): string {
  return contentHash({
    model: spec, endpoint, messages: withoutImageData(request).messages, params: request.params, tools: request.tools,
    toolChoice: request.toolChoice, hints: request.hints, distinct,
  });
}

export interface CallPathOptions {
  store: Store;
  budget: Budget;
  cost: CostModel;
  /** Answer from earlier identical requests (default true). */
  useCache?: boolean;
  /** Aborts calls in flight (they leave nothing stored; a resume asks again). */
  signal?: AbortSignal;
  /** The claim every stored record is written under. */
  fence?: WriteFence;
  onRetry?: (e: { trial: Trial; attempt: number; delayMs: number; error: string }) => void;
  /** Finds endpoints nothing listens at, so a dead server stops the run instead of failing every trial. */
  reachability?: Reachability;
}

export interface CallArgs {
  trial: Trial;
  step: number;
  /** Alias of the model asked (the trial's own, or a judge's). */
  alias: string;
  spec: string;
  /** Where the model is called (none for in-process models such as baselines). */
  endpoint?: string | undefined;
  model: ChatModel;
  request: ChatRequest;
  hash: string;
}

export type CallOutcome =
  | { type: 'ok'; record: CallRecord; result: ChatResult; stored: Promise<void> }
  | { type: 'error'; record: CallRecord; stored: Promise<void> }
  | { type: 'stopped'; reason: 'cost-cap' | 'interrupt' | 'unreachable' };

/**
 * The one call path: cache -> budget -> (rate limit / retry middleware inside the model) ->
 * generate -> price -> store the call record. Every model request any step makes goes through
 * here, so every HTTP request is a stored call and the cost cap counts all of them.
 */
export function createCallPath(o: CallPathOptions): (a: CallArgs) => Promise<CallOutcome> {
  // Identical requests in flight share one call: the first asks, the others wait for its answer.
  const inFlight = new Map<string, Promise<ChatResult | undefined>>();
  const save = (record: CallRecord) => o.store.saveCall(record, o.fence);

  return async function callModel(a: CallArgs): Promise<CallOutcome> {
    // Stored requests name images by blob; the bytes are read back from the store only to send them.
    const base = { runId: a.trial.runId, trialId: a.trial.id, step: a.step, requestHash: a.hash, request: withoutImageData(a.request), ...(a.alias !== a.trial.modelAlias ? { model: a.alias } : {}), ...(a.endpoint !== undefined ? { endpoint: a.endpoint } : {}) };
    // Baselines answer instantly and for free: a cache lookup would only cost time.
    const cacheable = o.useCache !== false && !a.model.isBaseline;
    let settleShared: ((r: ChatResult | undefined) => void) | undefined;
    const share = (r: ChatResult | undefined) => {
      if (!settleShared) return;
      settleShared(r);
      settleShared = undefined;
      inFlight.delete(a.hash);
    };
    if (cacheable) {
      const shared = inFlight.get(a.hash);
      // The first asker registers before any await, so identical requests that arrive meanwhile
      // wait for its answer instead of calling too (deterministically, whatever the timing).
      if (!shared) inFlight.set(a.hash, new Promise(resolve => (settleShared = resolve)));
      const hit = shared ? await shared : await o.store.findCachedResult(a.hash);
      if (hit) {
        share(hit);
        return ok({ ...base, status: 'ok', result: hit, attempts: 0, latencyMs: 0, costUsd: 0, cached: true, createdAt: now() }, hit);
      }
      // A shared call that failed is not shared: this asker makes (and records) its own.
      if (shared) inFlight.set(a.hash, new Promise(resolve => (settleShared = resolve)));
    }

    const reach = a.endpoint !== undefined ? o.reachability : undefined;
    const dead = () => reach?.isDead(a.endpoint!) === true;
    const estimate = o.cost.estimate(a.alias, a.request);
    const hold = dead() ? undefined : await o.budget.reserve(estimate);
    if (!hold) {
      share(undefined);
      return { type: 'stopped', reason: o.signal?.aborted ? 'interrupt' : dead() ? 'unreachable' : 'cost-cap' };
    }
    const signal = reach ? reach.signal(a.endpoint!) : o.signal;
    const started = performance.now();
    let attempts = 1;
    let result: ChatResult;
    try {
      result = await a.model.generate(await resolveImages(a.request, hash => o.store.getBlob(hash)), {
        ...(signal ? { signal } : {}),
        onRetry: ({ attempt, delayMs, error }) => {
          attempts = attempt + 1;
          reach?.attemptFailed(a.endpoint!, error);
          o.onRetry?.({ trial: a.trial, attempt, delayMs, error: (error as Error).message });
        },
      });
    } catch (error) {
      o.budget.settle(hold, 0);
      share(undefined);
      // An interrupted call is not a failure: nothing is stored, and a resume asks again.
      if (o.signal?.aborted) return { type: 'stopped', reason: 'interrupt' };
      reach?.callFailed(a.endpoint!, error);
      // Nothing listens at the endpoint: not the trial's failure either; it stays pending for a resume.
      if (dead()) return { type: 'stopped', reason: 'unreachable' };
      const record: CallRecord = {
        ...base, status: 'error', error: storedError(error), attempts, latencyMs: performance.now() - started,
        costUsd: 0, cached: false, createdAt: now(),
      };
      return { type: 'error', record, stored: save(record) };
    }
    reach?.answered(a.endpoint!);
    // A response without token counts is charged its pre-call estimate, never $0.
    const costUsd = result.usage ? o.cost.costOf(a.alias, result.usage) : estimate;
    const record: CallRecord = { ...base, status: 'ok', result, attempts, latencyMs: performance.now() - started, costUsd, cached: false, createdAt: now() };
    const outcome = ok(record, result);
    o.budget.settle(hold, costUsd, outcome.stored);
    share(result);
    return outcome;
  };

  function ok(record: CallRecord, result: ChatResult): CallOutcome & { type: 'ok' } {
    return { type: 'ok', record, result, stored: save(record) };
  }
}

function storedError(error: unknown): StoredError {
  const e = error instanceof ProviderCallError ? error : undefined;
  return {
    name: (error as Error)?.name ?? 'Error', message: (error as Error)?.message ?? String(error),
    ...(e ? { kind: e.kind } : {}), ...(e?.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
    // A cut body is kept as such (its start, flagged), so the record says what arrived.
    ...(e?.bodyTruncated ? { bodyTruncated: true, responseBody: (e.responseBody ?? '').slice(0, MAX_STORED_BODY_CHARS) } : {}),
  };
}

/** The start of a cut body is for diagnosis, not an archive. */
const MAX_STORED_BODY_CHARS = 2000;

const now = () => new Date().toISOString();
