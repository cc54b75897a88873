import { isUtf8 } from 'node:buffer';
import { onAbort } from './on-abort.js';
import { ResponseParser } from './http1-response.js';
import { connectionsTo, type Connection, type Exchange, type Origin } from './http1-pool.js';
import { requestHead, type Target } from './http1-request.js';

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

/**
 * POST over HTTP/1.1 on pooled keep-alive connections (net or tls sockets), written as one buffer
 * and read by a small parser. node:http costs ~100 us of CPU per request (ClientRequest, agent
 * bookkeeping, streams, a listener set per request); a model run at concurrency 256 makes that the
 * limit. Here a request is one object, one timer and one write; the socket's listeners are set
 * once, when it connects.
 */
export function post(request: PostRequest, target: Target): Promise<PostResponse> {
  return new Promise<PostResponse>((resolve, reject) => {
    const signal = request.signal;
    if (signal?.aborted) return reject(signal.reason);
    // Built before anything is opened: a bad header rejects the call and leaves nothing behind.
    const wire = requestHead(target, request.headers, Buffer.byteLength(request.body)) + request.body;
    new PostExchange(connectionsTo(target), request, wire, resolve, reject).send();
  });
}

class PostExchange implements Exchange {
  conn: Connection | undefined;
  private readonly parser: ResponseParser;
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private truncated = false;
  private settled = false;
  private readonly timer: NodeJS.Timeout;
  private readonly stopWaiting: () => void;

  constructor(
    private readonly origin: Origin,
    readonly request: PostRequest,
    private readonly wire: string,
    private readonly resolve: (r: PostResponse) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    this.parser = new ResponseParser(bytes => this.body(bytes));
    this.timer = setTimeout(timeOut, request.timeoutMs, this);
    const signal = request.signal;
    this.stopWaiting = onAbort(signal, () => this.fail(signal!.reason instanceof Error ? signal!.reason : new Error('aborted')));
  }

  send(): void {
    const conn = this.origin.take();
    this.conn = conn;
    conn.exchange = this;
    conn.socket.write(this.wire);
  }

  data(bytes: Buffer): void {
    if (this.settled) return;
    let complete: boolean;
    try {
      complete = this.parser.feed(bytes);
    } catch (error) {
      return this.fail(error);
    }
    if (complete || this.truncated) this.finish();
  }

  /** The socket closed (or the server ended it) before this exchange settled. */
  closed(error: unknown): void {
    if (this.settled) return;
    if (error === undefined && this.parser.end()) return this.finish();
    const cut = this.parser.state !== 'head' || this.parser.head !== undefined;
    this.fail(error ?? Object.assign(new Error(cut ? 'the connection closed before the body ended' : 'socket hang up'), { code: 'ECONNRESET' }));
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settle();
    this.conn?.destroy();
    this.reject(error);
  }

  private body(bytes: Buffer): void {
    if (this.truncated) return;
    const limit = this.request.maxResponseBytes;
    if (this.received + bytes.length > limit) {
      this.chunks.push(bytes.subarray(0, limit - this.received));
      this.truncated = true;
      return;
    }
    this.received += bytes.length;
    this.chunks.push(bytes);
  }

  private finish(): void {
    this.settle();
    const head = this.parser.head!;
    // Nothing more of a cut body is wanted; the socket is not reused.
    if (this.truncated || !this.parser.keepAlive) this.conn?.destroy();
    else this.origin.release(this.conn!, head.headers['keep-alive']);
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    // A cut can split a character; only a whole body is judged on its encoding.
    const invalidUtf8 = !this.truncated && !isUtf8(bytes);
    const headers = head.headers;
    this.resolve({
      ok: head.status >= 200 && head.status < 300,
      status: head.status,
      headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
      text: bytes.toString('utf8'),
      ...(this.truncated ? { truncated: true } : {}),
      ...(invalidUtf8 ? { invalidUtf8 } : {}),
    });
  }

  private settle(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.stopWaiting();
    if (this.conn) this.conn.exchange = undefined;
  }
}

function timeOut(exchange: PostExchange): void {
  exchange.fail(new TransportTimeout(exchange.request.timeoutMs));
}
