/**
 * Error codes of a connection that never reached a server: nothing listens at the address, or
 * its name does not resolve. A server that answers (even with a 500) is never one of these.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** The unreachable code an error carries (providers keep the socket error in `cause`), if any. */
export function unreachableCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface ReachabilityOptions {
  /** Aborts every endpoint's signal too (the run's own abort). */
  signal?: AbortSignal;
  /** Told once, when an endpoint is found dead. */
  onDead(endpoint: string, error: string): void;
  /** Unreachable attempts in a row, before the endpoint ever answered, that make it dead (default 3). */
  attemptsBeforeAnswer?: number;
  /** Calls in a row that spent their retries unreachable, after it answered, that make it dead (default 3). */
  callsAfterAnswer?: number;
}

/**
 * A circuit breaker per endpoint. A run against a server that is not listening would otherwise
 * retry every trial with backoff for minutes and then store each as failed; instead the endpoint
 * is declared dead early, calls to it in flight or in backoff are aborted (they stay pending,
 * for a resume) and the run stops. An endpoint that has answered (a 500 or 429 is an answer)
 * keeps the normal retries and is declared dead only after several calls in a row found nothing
 * listening.
 */
export function createReachability(o: ReachabilityOptions) {
  const before = o.attemptsBeforeAnswer ?? 3;
  const after = o.callsAfterAnswer ?? 3;
  const states = new Map<string, { answered: boolean; attempts: number; calls: number; controller: AbortController }>();
  let dead: { endpoint: string; error: string } | undefined;
  const stateOf = (endpoint: string) => {
    let s = states.get(endpoint);
    if (!s) {
      const controller = new AbortController();
      // One linked controller per endpoint, not one per call: per-call signal combinators cost.
      if (o.signal?.aborted) controller.abort(o.signal.reason);
      else o.signal?.addEventListener('abort', () => controller.abort(o.signal!.reason), { once: true });
      states.set(endpoint, (s = { answered: false, attempts: 0, calls: 0, controller }));
    }
    return s;
  };
  const trip = (endpoint: string, error: unknown) => {
    const s = stateOf(endpoint);
    if (s.controller.signal.aborted && dead) return;
    const message = unreachableCode(error) ?? (error as Error)?.message ?? String(error);
    dead ??= { endpoint, error: message };
    s.controller.abort(new Error(`no server answers at ${endpoint}`));
    o.onDead(endpoint, message);
  };
  const failed = (endpoint: string, error: unknown, final: boolean) => {
    const s = stateOf(endpoint);
    // Calls aborted because the endpoint is dead (or the run aborted) say nothing more about it.
    if (s.controller.signal.aborted) return;
    if (!unreachableCode(error)) {
      // Something answered: the server is there, its errors take the normal retries.
      s.answered = true;
      s.attempts = s.calls = 0;
      return;
    }
    s.attempts++;
    if (final) s.calls++;
    if (!s.answered ? s.attempts >= before || final : s.calls >= after) trip(endpoint, error);
  };
  return {
    /** The signal calls to this endpoint run under: the run's abort, or the endpoint found dead. */
    signal: (endpoint: string): AbortSignal => stateOf(endpoint).controller.signal,
    /** The first endpoint found dead, and the error that showed it. */
    get dead() {
      return dead;
    },
    isDead: (endpoint: string) => dead !== undefined && states.get(endpoint)?.controller.signal.aborted === true && !o.signal?.aborted,
    /** An attempt failed and will be retried. */
    attemptFailed: (endpoint: string, error: unknown) => failed(endpoint, error, false),
    /** A call failed for good (retries spent, or not retryable). */
    callFailed: (endpoint: string, error: unknown) => failed(endpoint, error, true),
    answered(endpoint: string) {
      const s = stateOf(endpoint);
      s.answered = true;
      s.attempts = s.calls = 0;
    },
  };
}

export type Reachability = ReturnType<typeof createReachability>;

/** The note a stopped run is stored with: why it stopped, in words a `paideia runs` reader can act on. */
export function stopNote(s: { stoppedBy?: string; unreachable?: { endpoint: string } | undefined }, costCapUsd?: number): string | undefined {
  if (s.stoppedBy === 'cost-cap') return `cost cap $${costCapUsd} reached`;
  if (s.stoppedBy === 'unreachable') return `failed to connect: no model server answers at ${s.unreachable?.endpoint ?? '(unknown)'}; resumable`;
  return s.stoppedBy ? 'interrupted' : undefined;
}
