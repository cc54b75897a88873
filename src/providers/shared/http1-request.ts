import { isIP } from 'node:net';

/** Where a URL's requests go, parsed once per URL. */
export interface Target {
  secure: boolean;
  /** For the socket: no brackets around an IPv6 address. */
  host: string;
  port: number;
  /** `host[:port]` as the Host header says it. */
  hostHeader: string;
  /** Path and query. */
  path: string;
  /** TLS server name; none for an IP address. */
  servername: string | undefined;
  /** Connections are pooled per origin. */
  origin: string;
}

const targets = new Map<string, Target>();

/** The target of `url`; a URL that is not http(s) is a TypeError. Every call of a model goes to one URL. */
export function targetOf(url: string): Target {
  const known = targets.get(url);
  if (known) return known;
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`unsupported protocol ${u.protocol} in ${url}`);
  const secure = u.protocol === 'https:';
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const target: Target = {
    secure, host, port: Number(u.port) || (secure ? 443 : 80), hostHeader: u.host, path: `${u.pathname}${u.search}`,
    servername: isIP(host) ? undefined : host, origin: `${u.protocol}//${u.host}`,
  };
  if (targets.size < 1000) targets.set(url, target);
  return target;
}

/** A header name is a token (RFC 9110 §5.1); a value holds no CR, LF or NUL (no header injection). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\r\n\0]/;

/** Header lines of one header set, checked and built once per set (a model sends the same on every call). */
const blocks = new WeakMap<Record<string, string>, string>();

function headerBlock(headers: Record<string, string>): string {
  let block = blocks.get(headers);
  if (block !== undefined) return block;
  block = '';
  let contentType = false;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    // Framing is the transport's: a caller's own would contradict the body it sends.
    if (lower === 'host' || lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') continue;
    // The value is never quoted: it may be a key.
    if (!TOKEN.test(name)) throw Object.assign(new TypeError(`Header name must be a valid HTTP token ["${name}"]`), { code: 'ERR_INVALID_HTTP_TOKEN' });
    if (BAD_VALUE.test(value)) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' });
    if (lower === 'content-type') contentType = true;
    block += `${lower}: ${value}\r\n`;
  }
  if (!contentType) block += 'content-type: application/json\r\n';
  blocks.set(headers, block);
  return block;
}

/** The request line and headers of a POST of `length` body bytes to `target`. */
export function requestHead(target: Target, headers: Record<string, string>, length: number): string {
  return `POST ${target.path} HTTP/1.1\r\nhost: ${target.hostHeader}\r\n${headerBlock(headers)}content-length: ${length}\r\nconnection: keep-alive\r\n\r\n`;
}
