/** Largest status line plus headers accepted, as node's own parser allows (16 KiB) and then some. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Largest chunk-size line (size plus extensions) or trailer section of a chunked body. */
const MAX_CHUNK_LINE_BYTES = 4096;

/** What the head of a response says. Header names are lower-cased; repeated headers are joined with `, `. */
export interface ResponseHead {
  status: number;
  headers: Record<string, string>;
}

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: |$)/;
const DIGITS = /^\d{1,15}$/;

type State = 'head' | 'length' | 'close' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'done';

/**
 * An incremental parser of one HTTP/1.1 response, fed the bytes of a socket as they come. It frames
 * the body by Content-Length, chunked coding or the end of the connection (RFC 9112 §6.3), skips
 * interim 1xx responses, and bounds everything a hostile server could make it buffer. `body` gets
 * the body bytes (never the framing); `keepAlive` says afterwards whether the connection can carry
 * another request.
 */
export class ResponseParser {
  state: State = 'head';
  head: ResponseHead | undefined;
  keepAlive = false;
  /** Bytes arrived but not yet parsed: an incomplete head, chunk line or trailer. */
  private pending: Buffer | undefined;
  private remaining = 0;

  constructor(private readonly body: (bytes: Buffer) => void) {}

  /** Parse `bytes`; returns true once the response is complete. Throws on a malformed response. */
  feed(bytes: Buffer): boolean {
    let buf = this.pending ? Buffer.concat([this.pending, bytes]) : bytes;
    this.pending = undefined;
    let at = 0;
    while (at < buf.length && this.state !== 'done') {
      if (this.state === 'length' || this.state === 'chunk-data' || this.state === 'close') {
        const take = this.state === 'close' ? buf.length - at : Math.min(this.remaining, buf.length - at);
        this.body(at === 0 && take === buf.length ? buf : buf.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0 && this.state === 'length') this.state = 'done';
        else if (this.remaining === 0 && this.state === 'chunk-data') this.state = 'chunk-end';
        continue;
      }
      const end = this.state === 'head' || this.state === 'trailers' ? buf.indexOf('\r\n\r\n', at) : buf.indexOf('\r\n', at);
      if (this.state === 'trailers' && buf[at] === 13 && buf[at + 1] === 10) {
        at += 2;
        this.state = 'done';
        continue;
      }
      if (end < 0) {
        const limit = this.state === 'head' ? MAX_HEAD_BYTES : MAX_CHUNK_LINE_BYTES;
        if (buf.length - at > limit) throw new Error(`the response ${this.state === 'head' ? 'headers' : 'chunk framing'} exceed ${limit} bytes`);
        this.pending = buf.subarray(at);
        return false;
      }
      if (this.state === 'head' && end - at > MAX_HEAD_BYTES) throw new Error(`the response headers exceed ${MAX_HEAD_BYTES} bytes`);
      const line = buf.toString('latin1', at, end);
      at = end + (this.state === 'head' || this.state === 'trailers' ? 4 : 2);
      if (this.state === 'head') this.readHead(line);
      else if (this.state === 'chunk-size') this.readChunkSize(line);
      else if (this.state === 'chunk-end') {
        if (line !== '') throw new Error('a chunk of the response body is longer than its size says');
        this.state = 'chunk-size';
      } else this.state = 'done';
    }
    if (this.state === 'done' && at < buf.length) this.keepAlive = false; // bytes nobody asked for
    return this.state === 'done';
  }

  /** The connection ended: returns true when that ends the body (close-delimited), false when the response is cut. */
  end(): boolean {
    if (this.state === 'close') this.state = 'done';
    return this.state === 'done';
  }

  private readHead(text: string): void {
    let eol = text.indexOf('\r\n');
    if (eol < 0) eol = text.length;
    const match = STATUS_LINE.exec(text.slice(0, eol));
    if (!match) throw new Error(`the response does not start with an HTTP/1.x status line (${JSON.stringify(text.slice(0, Math.min(eol, 40)))})`);
    const status = Number(match[2]);
    const headers = Object.create(null) as Record<string, string>; // no inherited names: a server may send any
    while (eol < text.length) {
      const start = eol + 2;
      eol = text.indexOf('\r\n', start);
      if (eol < 0) eol = text.length;
      const colon = text.indexOf(':', start);
      if (colon <= start || colon > eol) throw new Error(`a response header line is not "name: value" (${JSON.stringify(text.slice(start, Math.min(eol, start + 40)))})`);
      const name = text.slice(start, colon).toLowerCase();
      const value = text.slice(colon + 1, eol).trim();
      const before = headers[name];
      headers[name] = before === undefined ? value : `${before}, ${value}`;
    }
    if (status >= 100 && status < 200) {
      if (status === 101) throw new Error('the server switched protocols (HTTP 101), which a JSON call cannot use');
      return; // An interim response: the real one follows.
    }
    this.head = { status, headers };
    const connection = headers.connection;
    this.keepAlive = match[1] === '1' ? connection === undefined || !/\bclose\b/i.test(connection) : connection !== undefined && /\bkeep-alive\b/i.test(connection);
    const coding = headers['transfer-encoding'];
    const length = headers['content-length'];
    if (status === 204 || status === 304) this.state = 'done';
    else if (coding !== undefined) {
      if (/(?:^|,)\s*chunked\s*$/i.test(coding)) this.state = 'chunk-size';
      else this.closeDelimited();
    } else if (length !== undefined) {
      this.remaining = contentLength(length);
      this.state = this.remaining === 0 ? 'done' : 'length';
    } else this.closeDelimited();
  }

  private closeDelimited(): void {
    this.state = 'close';
    this.keepAlive = false;
  }

  private readChunkSize(line: string): void {
    const size = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(line);
    if (!size) throw new Error(`the response has an invalid chunk size line (${JSON.stringify(line.slice(0, 40))})`);
    this.remaining = parseInt(size[1]!, 16);
    this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
  }
}

/** A Content-Length; repeated, every copy must agree (RFC 9112 §6.3), or the framing cannot be trusted. */
function contentLength(value: string): number {
  if (DIGITS.test(value)) return Number(value);
  const lengths = new Set(value.split(',').map(s => s.trim()));
  const only = lengths.size === 1 ? [...lengths][0]! : '';
  if (!DIGITS.test(only)) throw new Error(`the response has an invalid Content-Length (${JSON.stringify(value.slice(0, 40))})`);
  return Number(only);
}
