import { ProviderCallError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import type { Redactor } from './redact.js';
import { parseRetryAfter } from './retry-after.js';

/** Stored error bodies are for diagnosis, not archives. */
export const MAX_BODY_CHARS = 8000;

/** Statuses worth trying again: the request may succeed unchanged later. Every 5xx is (529 = overloaded). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/** What an HTTP error message names: the endpoint, and how to fix a rejected key. */
export interface ErrorContext {
  url: string;
  label: string;
  keyHint: string;
}

export function tooLarge(label: string, maxBytes: number, text: string, status: number): ProviderCallError {
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

export function httpError(args: ErrorContext, status: number, headers: Pick<Headers, 'get'>, text: string, redact: Redactor): ProviderCallError {
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
export function serverMessage(parsed: unknown, text: string): string {
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

export function malformed(label: string, why: string, text: string, status: number, cause?: unknown): ProviderCallError {
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
export function describeNetworkError(error: unknown): string {
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
