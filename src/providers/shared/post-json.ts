import type { CallWarning } from '../../core/chat-model.js';
import { ProviderCallError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { onAbort } from './on-abort.js';
import { redactorFor, type Redactor } from './redact.js';
import { parseRetryAfter } from './retry-after.js';

export { redactSecrets } from './redact.js';

/** The part of a fetch Response the providers read; the global `Response` has it. */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: Pick<Headers, 'get'>;
  text(): Promise<string>;
  /** Set by the default transport when it stopped reading at `maxResponseBytes`: `text()` is the cut. */
  readonly truncated?: boolean;
  /** Set by the default transport when the body was not valid UTF-8 (`text()` then holds U+FFFD). */
  readonly invalidUtf8?: boolean;
}

/** What postJson asks of the transport beyond a RequestInit. Other fetches may ignore it: postJson checks the length again. */
export interface FetchInit extends RequestInit {
  /** Stop reading the body after this many bytes and report it `truncated`. */
  maxResponseBytes?: number;
}

/** A `fetch` compatible with the global one; injected so tests and proxies can replace the network. */
export type FetchFunction = (input: string, init: FetchInit) => Promise<FetchResponse>;

/** Default cap on a response body: far above any chat answer, far below what exhausts memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface PostJsonArgs {
  fetch: FetchFunction;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Names the endpoint in messages, e.g. `OpenAI-compatible API at https://api.openai.com/v1`. */
  label: string;
  /** How to fix a rejected key, appended to 401 messages. */
  keyHint: string;
  /** Largest body accepted; a longer one is cut and the call fails with kind `too-large`. Default DEFAULT_MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
}

/** The parsed body and what the caller should know about it (e.g. it was not valid UTF-8). */
export interface PostJsonResult {
  body: JsonObject;
  warnings: CallWarning[];
}

/** Statuses worth trying again: the request may succeed unchanged later. Every 5xx is (529 = overloaded). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/** Stored error bodies are for diagnosis, not archives. */
const MAX_BODY_CHARS = 8000;

/**
 * POST a JSON body and return the parsed JSON object, or throw a ProviderCallError whose `kind`
 * says what went wrong. Every failure path of both wire protocols goes through here, so they map
 * errors identically, and every string that leaves it (body, message) has the credentials of the
 * request redacted in all their spellings.
 */
export async function postJson(args: PostJsonArgs): Promise<PostJsonResult> {
  const { signal: callerSignal, label } = args;
  const maxResponseBytes = args.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const redact = redactorFor(args.headers);
  if (callerSignal?.aborted) throw abortedError(label, callerSignal.reason);
  // One controller per call with a plain timer: AbortSignal.timeout/any cost far more per request.
  const controller = new AbortController();
  const signal = controller.signal;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${args.timeoutMs} ms`));
  }, args.timeoutMs);
  const stopWaiting = onAbort(callerSignal, () => controller.abort(callerSignal!.reason));

  let response: FetchResponse;
  let text: string;
  try {
    response = await args.fetch(args.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...args.headers },
      body: JSON.stringify(args.body),
      signal,
      maxResponseBytes,
    });
    // The body can stall after the headers arrive; the same signal covers reading it.
    // Servers echo keys back in errors ("Incorrect API key provided: sk-..."), escaped or not;
    // nothing stored or printed may hold one, so the text is redacted before it is decoded.
    text = redact(await response.text());
  } catch (error) {
    if (callerSignal?.aborted) throw abortedError(label, error);
    if (timedOut) {
      throw new ProviderCallError({
        message: `${label} did not answer within ${args.timeoutMs} ms (raise timeoutMs if the model is slow).`,
        kind: 'timeout',
        isRetryable: true,
        cause: error,
      });
    }
    throw new ProviderCallError({
      message: `${label} could not be reached: ${redact(describeNetworkError(error))}.`,
      kind: 'network',
      isRetryable: true,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    stopWaiting();
  }

  // A transport that ignores maxResponseBytes still cannot hand a longer body further on.
  if (response.truncated || text.length > maxResponseBytes) throw tooLarge(label, maxResponseBytes, text, response.status);
  if (!response.ok) throw httpError(args, response.status, response.headers, text, redact);

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw malformed(label, `the body is not JSON (${(error as Error).message})`, text, response.status, error);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw malformed(label, 'the body is not a JSON object', text, response.status);
  }
  const body = parsed as JsonObject;
  // OpenRouter (and Anthropic, for some failures) report errors inside a 200 body.
  if (body.error !== undefined && body.error !== null) {
    const code = typeof body.error === 'object' && !Array.isArray(body.error) ? body.error.code : undefined;
    const status = typeof code === 'number' && code >= 400 ? code : undefined;
    throw new ProviderCallError({
      message: `${label} answered HTTP 200 with an error${status ? ` (code ${status})` : ''}: ${redact(serverMessage(body, text))}`,
      kind: 'http',
      statusCode: status,
      isRetryable: status === undefined || isRetryableStatus(status),
      responseBody: text.slice(0, MAX_BODY_CHARS),
    });
  }
  const warnings: CallWarning[] = [];
  if (response.invalidUtf8) {
    warnings.push({ type: 'other', setting: 'encoding', message: `${label} sent a body that is not valid UTF-8; the bytes that are not were stored as U+FFFD.` });
  }
  return { body, warnings };
}

function tooLarge(label: string, maxBytes: number, text: string, status: number): ProviderCallError {
  return new ProviderCallError({
    message: `${label} sent a response larger than the limit of ${maxBytes} bytes (maxResponseBytes); it was cut and the call counts as failed.`,
    kind: 'too-large',
    statusCode: status,
    // The same request would bring the same body and the same cost again.
    isRetryable: false,
    responseBody: text.slice(0, MAX_BODY_CHARS),
    bodyTruncated: true,
  });
}

function httpError(args: PostJsonArgs, status: number, headers: Pick<Headers, 'get'>, text: string, redact: Redactor): ProviderCallError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  // Decoded strings are redacted again: belt and braces over the raw-text pass.
  const detail = redact(serverMessage(parsed, text));
  const advice =
    status === 401 ? ` ${args.keyHint}`
    : status === 403 ? ' The key is valid but lacks permission for this model or endpoint.'
    : status === 404 ? ` Check the model name and the base URL (${args.url}).`
    : '';
  const retryAfterMs = parseRetryAfter(headers);
  return new ProviderCallError({
    message: `${args.label} returned HTTP ${status}: ${detail}.${advice}`,
    kind: 'http',
    statusCode: status,
    isRetryable: isRetryableStatus(status),
    retryAfterMs,
    responseBody: text.slice(0, MAX_BODY_CHARS),
  });
}

/** The human-readable message in an error body, whichever of the common shapes it uses. */
function serverMessage(parsed: unknown, text: string): string {
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const body = parsed as Record<string, unknown>;
    const error = body.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object') {
      const message = (error as Record<string, unknown>).message;
      if (typeof message === 'string') return message;
    }
    if (typeof body.message === 'string') return body.message;
    if (typeof body.detail === 'string') return body.detail;
  }
  const trimmed = text.trim();
  return trimmed ? trimmed.slice(0, 300) : '(empty body)';
}

function malformed(label: string, why: string, text: string, status: number, cause?: unknown): ProviderCallError {
  return new ProviderCallError({
    message: `${label} sent a malformed response: ${why}.`,
    kind: 'malformed',
    statusCode: status,
    isRetryable: true,
    responseBody: text.slice(0, MAX_BODY_CHARS),
    cause,
  });
}

export function abortedError(label: string, cause?: unknown): ProviderCallError {
  return new ProviderCallError({ message: `Call to ${label} was aborted by the caller.`, kind: 'aborted', isRetryable: false, cause });
}

/** undici hides the useful part (ECONNREFUSED, "other side closed") in `cause`. */
function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string') parts.push(e.code);
    else if (typeof e.message === 'string' && e.message) parts.push(e.message);
    current = e.cause;
  }
  return parts.length ? [...new Set(parts)].join(': ') : String(error);
}

/** Shared bounds check for results: a 200 that carries no answer is retryable, not a blank answer. */
export function emptyResponse(label: string, why: string, body: JsonObject): ProviderCallError {
  return new ProviderCallError({
    message: `${label} answered with no content: ${why}.`,
    kind: 'empty',
    isRetryable: true,
    responseBody: JSON.stringify(body).slice(0, MAX_BODY_CHARS),
  });
}
