import { TransportTimeout, type PostRequest, type PostResponse } from './http-client.js';
import { onAbort } from './on-abort.js';

/** The part of a fetch Response the providers read; the global `Response` has it. */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: Pick<Headers, 'get'>;
  text(): Promise<string>;
  /** Set by a transport that stopped reading at `maxResponseBytes`: `text()` is the cut. */
  readonly truncated?: boolean;
  /** Set by a transport that found the body not valid UTF-8 (`text()` then holds U+FFFD). */
  readonly invalidUtf8?: boolean;
}

/** What postJson asks of the transport beyond a RequestInit. Other fetches may ignore it: postJson checks the length again. */
export interface FetchInit extends RequestInit {
  /** Stop reading the body after this many bytes and report it `truncated`. */
  maxResponseBytes?: number;
}

/** A `fetch` compatible with the global one; injected so tests and proxies can replace the network. */
export type FetchFunction = (input: string, init: FetchInit) => Promise<FetchResponse>;

/**
 * A POST through an injected `fetch` (tests, proxies, the global one), with the deadline and the
 * caller's signal joined into one AbortController. The default transport needs no controller.
 */
export async function postViaFetch(fetch: FetchFunction, request: PostRequest): Promise<PostResponse> {
  // A plain timer and one controller: AbortSignal.timeout/any cost far more per request.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new TransportTimeout(request.timeoutMs));
  }, request.timeoutMs);
  const caller = request.signal;
  const stopWaiting = onAbort(caller, () => controller.abort(caller!.reason));
  try {
    const response: FetchResponse = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: request.body,
      signal: controller.signal,
      maxResponseBytes: request.maxResponseBytes,
    });
    // The body can stall after the headers arrive; the same signal covers reading it.
    const text = await response.text();
    return {
      ok: response.ok, status: response.status, headers: response.headers, text,
      ...(response.truncated ? { truncated: true } : {}), ...(response.invalidUtf8 ? { invalidUtf8: true } : {}),
    };
  } catch (error) {
    throw timedOut ? new TransportTimeout(request.timeoutMs) : error;
  } finally {
    clearTimeout(timer);
    stopWaiting();
  }
}
