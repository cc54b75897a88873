import { TransportTimeout, type PostRequest, type PostResponse } from './http1-client.js';
import { onAbort } from './on-abort.js';
import type { FetchFunction, FetchResponse } from './post-json.js';

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
