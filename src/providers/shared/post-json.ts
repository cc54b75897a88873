import { ProviderCallError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { onAbort } from './on-abort.js';
import { parseRetryAfter } from './retry-after.js';

/** The part of a fetch Response the providers read; the global `Response` has it. */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: Pick<Headers, 'get'>;
  text(): Promise<string>;
}

/** A `fetch` compatible with the global one; injected so tests and proxies can replace the network. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<FetchResponse>;

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
 * errors identically.
 */
export async function postJson(args: PostJsonArgs): Promise<JsonObject> {
  const { signal: callerSignal, label } = args;
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
    });
    // The body can stall after the headers arrive; the same signal covers reading it.
    // Servers echo keys back in errors ("Incorrect API key provided: sk-..."); nothing stored or
    // printed may hold one.
    text = redactSecrets(await response.text(), args.headers);
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
      message: `${label} could not be reached: ${redactSecrets(describeNetworkError(error), args.headers)}.`,
      kind: 'network',
      isRetryable: true,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    stopWaiting();
  }

  if (!response.ok) throw httpError(args, response.status, response.headers, text);

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
      message: `${label} answered HTTP 200 with an error${status ? ` (code ${status})` : ''}: ${serverMessage(body, text)}`,
      kind: 'http',
      statusCode: status,
      isRetryable: status === undefined || isRetryableStatus(status),
      responseBody: text.slice(0, MAX_BODY_CHARS),
    });
  }
  return body;
}

function httpError(args: PostJsonArgs, status: number, headers: Pick<Headers, 'get'>, text: string): ProviderCallError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const detail = serverMessage(parsed, text);
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

/** Header values that carry credentials. */
const SECRET_HEADERS = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key'];

/** The text with every credential sent in the headers (and its bare token) replaced by [redacted]. */
export function redactSecrets(text: string, headers: Record<string, string>): string {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.includes(name.toLowerCase()) || !value) continue;
    secrets.add(value);
    const token = value.replace(/^(Bearer|Basic|Token)\s+/i, '');
    // Short tokens would redact ordinary words; real keys are long.
    if (token.length >= 8) secrets.add(token);
  }
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('[redacted]');
  return out;
}
