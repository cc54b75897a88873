import type { Env } from '../../core/env.js';
import type { FetchFunction } from './post-json.js';

/** Transport settings every HTTP provider takes; each adds its own model and protocol options. */
export interface HttpProviderSettings {
  /** Model name as the server knows it. */
  model: string;
  /** The endpoint; each provider documents its variable and default. */
  baseURL?: string;
  /** The key; each provider documents its variable. */
  apiKey?: string;
  /** Extra headers on every request (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /** Injected network, so tests and proxies can replace it. Default: undici's keep-alive connection pool (shared/http-client.ts). */
  fetch?: FetchFunction;
  /** Per-call limit, covering connect, wait and body. Default 120000. */
  timeoutMs?: number;
  /**
   * What a call that timed out tells the user to do, given the limit: the setting of the command
   * or file the model was configured by (e.g. `paideia run --timeout`). Default: raise `timeoutMs`.
   */
  timeoutHint?: (timeoutMs: number) => string;
  /**
   * Largest response body read, in bytes; a longer one is cut, and the call fails with kind
   * `too-large` (not retried). Default 4 MiB.
   */
  maxResponseBytes?: number;
  /** Declared by the model's binding (`images: true`): the model accepts image parts. Default false. */
  acceptsImages?: boolean;
  /** Where defaults are read from; `process.env` unless a test injects its own. */
  env?: Env;
}
