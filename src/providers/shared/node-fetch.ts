import http from 'node:http';
import https from 'node:https';
import { isUtf8 } from 'node:buffer';
import type { FetchFunction, FetchResponse } from './post-json.js';

/**
 * A `fetch` over node:http with keep-alive agents: the default transport of the HTTP providers.
 * Node 20's built-in fetch spends several times more CPU per request (web streams, Response and
 * Headers objects, transferable abort signals), which caps a 2-core machine well below what a
 * 64-way run against a 50 ms server should reach. It covers what the providers use: a POST with a
 * string body, status, headers and the body text, and abort through `init.signal`. It stops
 * reading at `init.maxResponseBytes` (closing the connection) and says whether the body was valid
 * UTF-8, so neither a 50 MB answer nor replaced bytes reach the store unannounced.
 */
export function createNodeFetch(): FetchFunction {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: Infinity }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: Infinity }),
  };
  // Every call of a model goes to the same URL: parse it once.
  const urls = new Map<string, URL>();
  return function nodeFetch(input, init) {
    return new Promise<FetchResponse>((resolve, reject) => {
      let url = urls.get(input);
      if (!url) {
        url = new URL(input);
        if (urls.size < 1000) urls.set(input, url);
      }
      const transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
      if (!transport) return reject(new TypeError(`unsupported protocol ${url.protocol} in ${input}`));
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const headers = plainHeaders(init.headers);
      const body = typeof init.body === 'string' ? init.body : undefined;
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const req = transport.request(url, { method: init.method ?? 'GET', headers, agent: agents[url.protocol as 'http:' | 'https:'] }, res => {
        const chunks: Buffer[] = [];
        const limit = init.maxResponseBytes ?? Infinity;
        let received = 0;
        let done = false;
        const finish = (truncated: boolean) => {
          if (done) return;
          done = true;
          signal?.removeEventListener('abort', onAbort);
          const status = res.statusCode ?? 0;
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          // A cut can split a character; only a whole body is judged on its encoding.
          const invalidUtf8 = !truncated && !isUtf8(bytes);
          resolve({
            ok: status >= 200 && status < 300,
            status,
            headers: { get: (name: string) => joinHeader(res.headers[name.toLowerCase()]) },
            text: async () => text,
            ...(truncated ? { truncated } : {}),
            ...(invalidUtf8 ? { invalidUtf8 } : {}),
          });
        };
        res.on('data', (c: Buffer) => {
          if (done) return;
          if (received + c.length > limit) {
            chunks.push(c.subarray(0, limit - received));
            finish(true);
            // Nothing more of this body is wanted; the socket is not reused.
            res.destroy();
            return;
          }
          received += c.length;
          chunks.push(c);
        });
        res.on('error', e => (done ? undefined : fail(e)));
        res.on('aborted', () => (done ? undefined : fail(new Error('the connection closed before the body ended'))));
        res.on('end', () => finish(false));
      });
      function fail(error: unknown) {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      }
      function onAbort() {
        req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', fail);
      req.end(body);
    });
  };
}

function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  if (init instanceof Headers || Array.isArray(init)) new Headers(init).forEach((v, k) => (out[k] = v));
  else for (const [k, v] of Object.entries(init)) out[k.toLowerCase()] = typeof v === 'string' ? v : v.join(', ');
  return out;
}

function joinHeader(v: string | string[] | undefined): string | null {
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

let shared: FetchFunction | undefined;

/** One transport per process, so connections are reused across models and runs. */
export function defaultFetch(): FetchFunction {
  return (shared ??= createNodeFetch());
}
