import {
  ProviderCallError, canonicalJsonPair, keepJson, sha256Hex, type CallRecord, type ChatModel, type ChatRequest, type ChatResult, type JsonValue,
  type GenerateOptions, type StoredError, type Store, type TokenUsage, type Trial, type WriteFence,
} from '../core/index.js';
import { hasImages, isRetryable, resolveImages, withoutImageData } from '../providers/index.js';
import type { Budget } from './budget.js';
import type { Reachability } from './reachability.js';

/** How a run prices calls, from the prices stored with it. */
export interface CostModel {
  /** Actual cost of a finished call that reported its token usage. */
  costOf(modelAlias: string, usage: TokenUsage): number;
  /** Upper estimate of a call before it is made, for the cost cap. */
  estimate(modelAlias: string, request: ChatRequest): number;
}

/** The parts of a request its cache key is made of (its context is not: it only says where it was asked). */
const HASHED = new Set(['messages', 'params', 'tools', 'toolChoice', 'hints']);

/**
 * The cache key of a request: who answers it (model and endpoint), what is asked, and what makes it
 * distinct. An image counts by its blob's hash, not its bytes. The request as stored is serialised
 * in the same pass and kept with it, so the store writes that text instead of serialising it again.
 */
export function requestHash(spec: string, endpoint: string | undefined, request: ChatRequest, distinct?: JsonValue): string {
  const stored = withoutImageData(request);
  const { whole, keyed } = canonicalJsonPair(stored, HASHED, { model: spec, endpoint, distinct });
  keepJson(stored, whole);
  return sha256Hex(keyed, 16);
}

export interface CallPathOptions {
  store: Store;
  budget: Budget;
  cost: CostModel;
  /** Answer from earlier identical requests (default true). */
  useCache?: boolean;
  /** Aborts calls in flight (they leave nothing stored; a resume asks again). */
  signal?: AbortSignal;
  /**
   * A drain: calls in flight finish, but one that fails is not tried again; it leaves nothing
   * stored and its trial pending, as an interrupted call (it was not the trial's failure).
   */
  stopSignal?: AbortSignal;
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
  const inFlight = new Map<string, Shared>();
  // The trial that made the call awaits its write (with the trial's result), but not at once: it
  // may first hand its slot on (a turn of the loop) or, with no cap, reserve nothing that would
  // wait on it. A write refused meanwhile (ClaimLostError: the run was deleted with --force, or
  // another process took the trial over) must not count as unhandled and crash the process:
  // marked handled here, it still rejects for the trial, which stops the run with it.
  const save = (record: CallRecord) => {
    const stored = o.store.saveCall(record, o.fence);
    stored.catch(() => undefined);
    return stored;
  };

  return async function callModel(a: CallArgs): Promise<CallOutcome> {
    // Baselines answer instantly and for free: a cache lookup would only cost time.
    const cacheable = o.useCache !== false && !a.model.isBaseline;
    let mine: Shared | undefined;
    if (cacheable) {
      const shared = inFlight.get(a.hash);
      // The first asker registers before any await, so identical requests that arrive meanwhile
      // wait for its answer instead of calling too (deterministically, whatever the timing).
      if (!shared) inFlight.set(a.hash, (mine = sharedCall()));
      const hit = shared ? await shared.answer : await o.store.findCachedResult(a.hash);
      if (hit) {
        settle(a.hash, mine, hit);
        return ok(record(a, 'ok', 0, 0, 0, true, hit), hit);
      }
      // A shared call that failed is not shared: this asker makes (and records) its own.
      if (shared) inFlight.set(a.hash, (mine = sharedCall()));
    }

    const reach = a.endpoint !== undefined ? o.reachability : undefined;
    const dead = () => reach?.isDead(a.endpoint!) === true;
    const estimate = o.cost.estimate(a.alias, a.request);
    const hold = dead() ? undefined : await o.budget.reserve(estimate);
    if (!hold) {
      settle(a.hash, mine, undefined);
      return { type: 'stopped', reason: o.signal?.aborted ? 'interrupt' : dead() ? 'unreachable' : 'cost-cap' };
    }
    const signal = reach ? reach.signal(a.endpoint!) : o.signal;
    const started = performance.now();
    let attempts = 1;
    let result: ChatResult;
    try {
      const options: GenerateOptions = {
        onRetry: ({ attempt, delayMs, error }) => {
          attempts = attempt + 1;
          reach?.attemptFailed(a.endpoint!, error);
          o.onRetry?.({ trial: a.trial, attempt, delayMs, error: (error as Error).message });
        },
      };
      if (signal) options.signal = signal;
      if (o.stopSignal) options.retryUntil = o.stopSignal;
      // A request without images is sent as it is: no read of blobs, and no await for one.
      const sent = hasImages(a.request) ? await resolveImages(a.request, hash => o.store.getBlob(hash)) : a.request;
      result = await a.model.generate(sent, options);
    } catch (error) {
      o.budget.settle(hold, 0);
      settle(a.hash, mine, undefined);
      // An interrupted call is not a failure: nothing is stored, and a resume asks again.
      if (o.signal?.aborted) return { type: 'stopped', reason: 'interrupt' };
      // A failure the drain kept from being tried again: pending for a resume, not failed.
      if (o.stopSignal?.aborted && isRetryable(error)) return { type: 'stopped', reason: 'interrupt' };
      reach?.callFailed(a.endpoint!, error);
      // Nothing listens at the endpoint: not the trial's failure either; it stays pending for a resume.
      if (dead()) return { type: 'stopped', reason: 'unreachable' };
      const failed = record(a, 'error', attempts, performance.now() - started, 0, false, undefined);
      failed.error = storedError(error);
      return { type: 'error', record: failed, stored: save(failed) };
    }
    reach?.answered(a.endpoint!);
    // A response without token counts is charged its pre-call estimate, never $0.
    const costUsd = result.usage ? o.cost.costOf(a.alias, result.usage) : estimate;
    const outcome = ok(record(a, 'ok', attempts, performance.now() - started, costUsd, false, result), result);
    o.budget.settle(hold, costUsd, outcome.stored);
    settle(a.hash, mine, result);
    return outcome;
  };

  function ok(record: CallRecord, result: ChatResult): CallOutcome & { type: 'ok' } {
    return { type: 'ok', record, result, stored: save(record) };
  }

  // Tell those waiting on this asker's call what it got (undefined: ask yourselves), once.
  function settle(hash: string, mine: Shared | undefined, result: ChatResult | undefined): void {
    if (!mine || mine.settled) return;
    mine.settled = true;
    mine.resolve(result);
    if (inFlight.get(hash) === mine) inFlight.delete(hash);
  }
}

/** A call in flight that identical requests wait on. */
interface Shared {
  answer: Promise<ChatResult | undefined>;
  resolve: (r: ChatResult | undefined) => void;
  settled: boolean;
}

function sharedCall(): Shared {
  let resolve!: Shared['resolve'];
  const answer = new Promise<ChatResult | undefined>(r => (resolve = r));
  return { answer, resolve, settled: false };
}

/** A call record, built in one go (the hot path makes one per call). Stored requests name images by blob, never bytes. */
function record(a: CallArgs, status: 'ok' | 'error', attempts: number, latencyMs: number, costUsd: number, cached: boolean, result: ChatResult | undefined): CallRecord {
  const r: CallRecord = {
    runId: a.trial.runId, trialId: a.trial.id, step: a.step, requestHash: a.hash, request: withoutImageData(a.request), status,
    attempts, latencyMs, costUsd, cached, createdAt: now(),
  };
  if (result) r.result = result;
  if (a.alias !== a.trial.modelAlias) r.model = a.alias;
  if (a.endpoint !== undefined) r.endpoint = a.endpoint;
  return r;
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

// Many calls end within the same millisecond: each ISO timestamp is written once.
let nowMs = -1;
let nowIso = '';
function now(): string {
  const ms = Date.now();
  if (ms !== nowMs) {
    nowMs = ms;
    nowIso = new Date(ms).toISOString();
  }
  return nowIso;
}
