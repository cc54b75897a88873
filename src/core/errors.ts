import { quoteValue } from './text-safety.js';

const marker = Symbol.for('paideia.error');

/**
 * Base of every error Paideia throws on purpose. `name` is stable (tests and the CLI switch on it),
 * `cause` keeps the original error, and the symbol marker survives duplicate module copies.
 */
export class PaideiaError extends Error {
  readonly [marker] = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaideiaError';
  }
  static isInstance(error: unknown): error is PaideiaError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** Where in a user's file a problem sits. Any part may be unknown. */
export interface SourceLocation {
  file?: string;
  line?: number;
  /** Dot-path of the field, e.g. `models.teacher.api_base` or `accepted.0`. */
  field?: string;
}

export function formatLocation(loc: SourceLocation): string {
  const parts: string[] = [];
  if (loc.file) parts.push(loc.line ? `${loc.file}:${loc.line}` : loc.file);
  else if (loc.line) parts.push(`line ${loc.line}`);
  // A field path holds keys from the file, which may be of any length.
  if (loc.field) parts.push(`field ${quoteValue(loc.field, 200)}`);
  return parts.join(', ');
}

/** A quoted part of a message longer than this is a value from a file or a server, cut by shortenQuoted. */
const LONG_QUOTED = /"([^"\n]{120,})"/g;
const MAX_MESSAGE_CHARS = 4000;

/**
 * A message with every long quoted value cut to a prefix that says its length, so a 760 KB value
 * in a file is named in an error, not echoed. Messages quote values as "..." by convention.
 */
export function shortenQuoted(message: string): string {
  const out = message.replace(LONG_QUOTED, (_whole, inner: string) => quoteValue(inner));
  return out.length <= MAX_MESSAGE_CHARS ? out : `${quoteValue(out, MAX_MESSAGE_CHARS).slice(1, -1)}`;
}

/** One problem found in user input. A ConfigError carries every problem found, not just the first. */
export interface ConfigIssue extends SourceLocation {
  message: string;
}

/** Bad user input: config, item file, model spec or flag. The CLI exits 2 on it. */
export class ConfigError extends PaideiaError {
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[] | string, options?: { cause?: unknown }) {
    const list = (typeof issues === 'string' ? [{ message: issues }] : issues).map(i => ({ ...i, message: shortenQuoted(i.message) }));
    super(list.map(i => (formatLocation(i) ? `${formatLocation(i)}: ${i.message}` : i.message)).join('\n'), options);
    this.name = 'ConfigError';
    this.issues = list;
  }

  /**
   * Run `check`; the issues of a ConfigError it throws go into `into` (and undefined comes back),
   * so a caller can check every input and tell all their problems at once.
   */
  static collect<T>(into: ConfigIssue[], check: () => T): T | undefined {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      into.push(...error.issues);
      return undefined;
    }
  }
}

/**
 * A session found every open trial of its run held by another live process: nothing to do here
 * now. Bad input as far as a command is concerned (exit 2, with when to try again); a server that
 * started the session knows the run is another process's, not failed.
 */
export class RunHeldError extends ConfigError {
  constructor(readonly runId: string, message: string) {
    super([{ field: 'run', message }]);
    this.name = 'RunHeldError';
  }
}

/** A call to a model provider failed. `isRetryable` decides whether the engine tries again. */
export class ProviderCallError extends PaideiaError {
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  /** Milliseconds the server asked us to wait (Retry-After), when it said so. */
  readonly retryAfterMs: number | undefined;
  /**
   * Short machine-readable kind: `http`, `timeout`, `network`, `malformed`, `empty`, `aborted`, or
   * `too-large` (the body passed the response size limit and was cut; never retried).
   */
  readonly kind: 'http' | 'timeout' | 'network' | 'malformed' | 'empty' | 'aborted' | 'too-large';
  /** The start of the body, for diagnosis (credentials redacted). */
  readonly responseBody: string | undefined;
  /** True when `responseBody` is the kept start of a body that was cut at the size limit. */
  readonly bodyTruncated: boolean;
  constructor(args: {
    message: string;
    kind: ProviderCallError['kind'];
    statusCode?: number;
    isRetryable: boolean;
    retryAfterMs?: number;
    responseBody?: string;
    bodyTruncated?: boolean;
    cause?: unknown;
  }) {
    super(args.message, { cause: args.cause });
    this.name = 'ProviderCallError';
    this.kind = args.kind;
    this.statusCode = args.statusCode;
    this.isRetryable = args.isRetryable;
    this.retryAfterMs = args.retryAfterMs;
    this.responseBody = args.responseBody;
    this.bodyTruncated = args.bodyTruncated ?? false;
  }
}

/** A scorer, judge, learner or provider name that nothing registered. */
export class NoSuchPluginError extends PaideiaError {
  constructor(kind: string, name: string, known: string[]) {
    super(`No ${kind} named "${name}". Known: ${known.sort().join(', ') || '(none)'}.`);
    this.name = 'NoSuchPluginError';
  }
}

/** The run stopped because the next call could have passed the cost cap. */
export class CostCapError extends PaideiaError {
  constructor(readonly capUsd: number, readonly spentUsd: number) {
    super(`Cost cap of $${capUsd.toFixed(4)} reached (spent $${spentUsd.toFixed(4)}); resume with a higher --cost-cap.`);
    this.name = 'CostCapError';
  }
}

/** A run cannot be deleted while workers hold live claims on its trials. */
export class RunInUseError extends PaideiaError {
  /** Who holds what, e.g. `2 trial(s) held by worker w1 (pid 7 on host-a) until 2026-...`. */
  readonly usage: string;
  constructor(readonly runId: string, readonly holders: ReadonlyArray<{ workerId: string; pid: number; host: string; expiresAt: number; trials: number }>) {
    const usage = holders.map(h => `${h.trials} trial(s) held by worker ${h.workerId} (pid ${h.pid} on ${h.host}) until ${new Date(h.expiresAt).toISOString()}`).join('; ');
    super(`run ${runId} is in use: ${usage}. Stop its workers (or wait until their leases run out), or delete it with force`);
    this.name = 'RunInUseError';
    this.usage = usage;
  }
}

/** What went wrong with the store's file: the disk is full, it cannot be written, it is damaged, or another I/O failure. */
export type StoreFault = 'full' | 'read-only' | 'corrupt' | 'io';

/**
 * The store could not be read or written. Everything committed before stays; the CLI prints the
 * message (which says what to do), the run id when there is one, and exits 4.
 */
export class StoreError extends PaideiaError {
  /** The run being written when the store failed, when there was one: the one to resume. */
  runId: string | undefined;
  /** The store's URL (no password), so a resume hint can name it. */
  readonly storeUrl: string | undefined;
  constructor(readonly fault: StoreFault, message: string, options?: { cause?: unknown; runId?: string; storeUrl?: string }) {
    super(message, options);
    this.name = 'StoreError';
    this.runId = options?.runId;
    this.storeUrl = options?.storeUrl;
  }
}

/**
 * A worker's claim on a trial was taken over (it was paused past its lease, or another process
 * took the run): it must stop calling, since another worker now answers those trials.
 */
export class ClaimLostError extends PaideiaError {
  constructor(readonly runId: string, readonly trialId: string) {
    super(`this process no longer holds run ${runId} (trial ${trialId} was taken over by another process, e.g. after this one was paused); it stops here, and everything it stored is kept`);
    this.name = 'ClaimLostError';
  }
}
