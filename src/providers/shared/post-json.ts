import type { CallWarning } from '../../core/chat-model.js';
import { ProviderCallError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { postViaFetch, type FetchFunction } from './fetch-transport.js';
import { post, TransportTimeout, type PostResponse } from './http-client.js';
import { abortedError, describeNetworkError, httpError, isRetryableStatus, malformed, MAX_BODY_CHARS, serverMessage, tooLarge } from './post-errors.js';
import { redactorFor } from './redact.js';

export { redactSecrets } from './redact.js';
export { abortedError, emptyResponse, isRetryableStatus } from './post-errors.js';
export type { FetchFunction, FetchInit, FetchResponse } from './fetch-transport.js';

/** Default cap on a response body: far above any chat answer, far below what exhausts memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface PostJsonArgs {
  /** Replaces the network; default: undici's keep-alive connection pool (http-client.ts). */
  fetch?: FetchFunction | undefined;
  url: string;
  /** The same object on every call of a model: the transport builds its header lines once per object. */
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** How to give a slow model longer, in the timeout message. Default: raise `timeoutMs`. */
  timeoutHint?: string | undefined;
  signal?: AbortSignal | undefined;
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
  /** Read only: most answers share one empty list. */
  warnings: ReadonlyArray<CallWarning>;
}

const NO_WARNINGS: ReadonlyArray<CallWarning> = Object.freeze([]);

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
  let response: PostResponse;
  try {
    const request = { url: args.url, headers: args.headers, body: JSON.stringify(args.body), timeoutMs: args.timeoutMs, signal: callerSignal, maxResponseBytes };
    response = args.fetch ? await postViaFetch(args.fetch, request) : await post(request);
  } catch (error) {
    if (callerSignal?.aborted) throw abortedError(label, error);
    if (error instanceof TransportTimeout) {
      throw new ProviderCallError({
        message: `${label} did not answer within ${args.timeoutMs} ms (${args.timeoutHint ?? 'raise timeoutMs if the model is slow'}).`,
        kind: 'timeout',
        isRetryable: true,
        cause: error,
      });
    }
    // The server was reached and began to answer: a cut answer, not an address nothing listens at.
    const answered = (error as { answeredStatus?: unknown } | null)?.answeredStatus;
    throw new ProviderCallError({
      message: typeof answered === 'number'
        ? `${label} began to answer (HTTP ${answered}) but closed the connection before the answer ended: ${redact(describeNetworkError(error))}.`
        : `${label} could not be reached: ${redact(describeNetworkError(error))}.`,
      kind: 'network',
      isRetryable: true,
      cause: error,
    });
  }
  // Servers echo keys back in errors ("Incorrect API key provided: sk-..."), escaped or not;
  // nothing stored or printed may hold one, so the text is redacted before it is decoded.
  const text = redact(response.text);

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
  if (!response.invalidUtf8) return { body, warnings: NO_WARNINGS };
  return { body, warnings: [{ type: 'other', setting: 'encoding', message: `${label} sent a body that is not valid UTF-8; the bytes that are not were stored as U+FFFD.` }] };
}
