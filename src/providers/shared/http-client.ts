import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type { Dispatcher, Pool } from 'undici';
import { onAbort } from './on-abort.js';

/** One POST as postJson makes it; `headers` is the model's own object, the same on every call. */
export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Deadline of the whole exchange: connect, wait and body. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Stop reading after this many body bytes: the result is `truncated` and the connection closed. */
  maxResponseBytes: number;
}

/** The answer, read whole. */
export interface PostResponse {
  ok: boolean;
  status: number;
  headers: Pick<Headers, 'get'>;
  text: string;
  truncated?: boolean;
  invalidUtf8?: boolean;
}

/** The transport gave up at the request's deadline. */
export class TransportTimeout extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'TransportTimeout';
  }
}

/** Where a URL's requests go, parsed once per URL: every call of a model goes to one URL. */
interface Target {
  pool: Pool;
  path: string;
}

// undici is loaded when a model that calls over HTTP is made, not by every command that imports a
// provider (a report, a list of runs): it is a third of the CLI's start-up.
const require = createRequire(import.meta.url);
let PoolClass: typeof Pool | undefined;

/**
 * Load the HTTP transport now (~75 ms of the main thread). A model that will call over HTTP does
 * this when it is made: loaded by its first request instead, it held up every other request of
 * the run's first wave until it was done.
 */
export function loadTransport(): void {
  PoolClass ??= (require('undici') as typeof import('undici')).Pool;
}

const newPool = (origin: string, options: Pool.Options): Pool => {
  loadTransport();
  return new PoolClass!(origin, options);
};

const targets = new Map<string, Target>();
const pools = new Map<string, Pool>();

function targetOf(url: string): Target {
  const known = targets.get(url);
  if (known) return known;
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`unsupported protocol ${u.protocol} in ${url}`);
  let pool = pools.get(u.origin);
  // Idle keep-alive sockets close after 4 s unless the server says otherwise: below node's own
  // server default of 5 s, so a request is not written into a socket the server is closing.
  if (!pool) pools.set(u.origin, (pool = newPool(u.origin, { keepAliveTimeout: 4_000, headersTimeout: 0, bodyTimeout: 0 })));
  const target = { pool, path: `${u.pathname}${u.search}` };
  if (targets.size < 1000) targets.set(url, target);
  return target;
}

/** Headers as undici takes them, built once per header object (a model sends the same on every call). */
const prepared = new WeakMap<Record<string, string>, Record<string, string>>();
function headersOf(headers: Record<string, string>): Record<string, string> {
  let h = prepared.get(headers);
  if (!h) {
    h = {};
    let contentType = false;
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      // Framing is the transport's: a caller's own would contradict the body it sends.
      if (lower === 'host' || lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') continue;
      if (lower === 'content-type') contentType = true;
      h[lower] = value;
    }
    if (!contentType) h['content-type'] = 'application/json';
    prepared.set(headers, h);
  }
  return h;
}

/**
 * POST over undici's connection pool (HTTP/1.1 keep-alive, its llhttp parser) through its
 * lowest-level `dispatch` API: no streams, no AbortController, one timer per call. A run at
 * concurrency 256 pays this per call, so it is kept to what the answer needs.
 */
export function post(request: PostRequest): Promise<PostResponse> {
  return new Promise<PostResponse>((resolve, reject) => {
    const signal = request.signal;
    if (signal?.aborted) return reject(signal.reason);
    let target: Target;
    try {
      target = targetOf(request.url);
    } catch (error) {
      return reject(error);
    }
    new PostHandler(request, resolve, reject).dispatch(target);
  });
}

class PostHandler implements Dispatcher.DispatchHandler {
  private abort: ((reason?: Error) => void) | undefined;
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private status = 0;
  private rawHeaders: Buffer[] = [];
  private settled = false;
  private readonly timer: NodeJS.Timeout;
  private readonly stopWaiting: () => void;

  constructor(
    readonly request: PostRequest,
    private readonly resolve: (r: PostResponse) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    this.timer = setTimeout(timeOut, request.timeoutMs, this);
    const signal = request.signal;
    this.stopWaiting = onAbort(signal, () => this.fail(signal!.reason instanceof Error ? signal!.reason : new Error('aborted')));
  }

  dispatch(target: Target): void {
    try {
      target.pool.dispatch({ path: target.path, method: 'POST', headers: headersOf(this.request.headers), body: this.request.body }, this);
    } catch (error) {
      this.fail(error);
    }
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abort = abort;
    if (this.settled) abort();
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    this.status = status;
    this.rawHeaders = rawHeaders;
    return true;
  }

  onData(bytes: Buffer): boolean {
    if (this.settled) return false;
    const limit = this.request.maxResponseBytes;
    if (this.received + bytes.length > limit) {
      this.chunks.push(bytes.subarray(0, limit - this.received));
      this.finish(true);
      // Nothing more of a cut body is wanted: the connection is closed, not reused.
      this.abort?.(new Error('response cut at maxResponseBytes'));
      return false;
    }
    this.received += bytes.length;
    this.chunks.push(bytes);
    return true;
  }

  onComplete(): void {
    this.finish(false);
  }

  onError(error: Error): void {
    this.fail(plainSocketError(error, this.status));
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settle();
    this.abort?.(error instanceof Error ? error : new Error(String(error)));
    this.reject(error);
  }

  private finish(truncated: boolean): void {
    if (this.settled) return;
    this.settle();
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const raw = this.rawHeaders;
    const response: PostResponse = {
      ok: this.status >= 200 && this.status < 300,
      status: this.status,
      headers: { get: (name: string) => headerValue(raw, name) },
      text: bytes.toString('utf8'),
    };
    if (truncated) response.truncated = true;
    // A cut can split a character; only a whole body is judged on its encoding.
    else if (!isUtf8(bytes)) response.invalidUtf8 = true;
    this.resolve(response);
  }

  private settle(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.stopWaiting();
  }
}

/**
 * undici says "other side closed" (UND_ERR_SOCKET) for a connection the server dropped; messages
 * and retries speak node's language (ECONNRESET), naming whether the answer had begun: then the
 * error carries the HTTP status it began with (`answeredStatus`).
 */
function plainSocketError(error: Error, status: number): Error {
  if ((error as { code?: string }).code !== 'UND_ERR_SOCKET') return error;
  if (status === 0) return Object.assign(new Error('socket hang up', { cause: error }), { code: 'ECONNRESET' });
  return Object.assign(new Error('the connection closed before the body ended', { cause: error }), { code: 'ECONNRESET', answeredStatus: status });
}

function timeOut(handler: PostHandler): void {
  handler.fail(new TransportTimeout(handler.request.timeoutMs));
}

/** A header of the answer (raw name/value pairs), repeated ones joined as fetch joins them; read only when asked. */
function headerValue(raw: Buffer[], name: string): string | null {
  const wanted = name.toLowerCase();
  let out: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toString('latin1').toLowerCase() !== wanted) continue;
    const v = raw[i + 1]!.toString('latin1');
    out = out === null ? v : `${out}, ${v}`;
  }
  return out;
}
