import { describe, expect, it } from 'vitest';
import { ResponseParser } from './http1-response.js';

/** Feed `wire` in pieces of `step` bytes; returns the parser, the body read and whether it completed. */
function parse(wire: string | Buffer, step = Infinity) {
  const bytes = typeof wire === 'string' ? Buffer.from(wire, 'latin1') : wire;
  const body: Buffer[] = [];
  const parser = new ResponseParser(b => body.push(Buffer.from(b)));
  let complete = false;
  for (let at = 0; at < bytes.length && !complete; at += step) complete = parser.feed(bytes.subarray(at, Math.min(bytes.length, at + step)));
  return { parser, complete, body: Buffer.concat(body).toString('latin1') };
}

const OK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 7\r\n\r\n{"a":1}';

describe('ResponseParser', () => {
  it('frames a body by Content-Length, whole or fed one byte at a time, and keeps the connection', () => {
    for (const step of [Infinity, 1, 5]) {
      const { parser, complete, body } = parse(OK, step);
      expect([complete, body, parser.keepAlive, parser.head?.status]).toEqual([true, '{"a":1}', true, 200]);
      expect(parser.head?.headers['content-type']).toBe('application/json');
    }
  });

  it('reads a chunked body with extensions and trailers, fed byte by byte', () => {
    const wire = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nx-trailer: 1\r\n\r\n';
    for (const step of [Infinity, 1, 3]) {
      const { parser, complete, body } = parse(wire, step);
      expect([complete, body, parser.keepAlive]).toEqual([true, 'Wikipedia in\r\n\r\nchunks.', true]);
    }
    expect(parse('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n', 1).body).toBe('ab');
  });

  it('skips an interim 100 Continue and reads the final response', () => {
    const { parser, body } = parse(`HTTP/1.1 100 Continue\r\n\r\n${OK}`, 2);
    expect([parser.head?.status, body]).toEqual([200, '{"a":1}']);
  });

  it('reads a body without length to the end of the connection, and never reuses that connection', () => {
    const { parser, complete, body } = parse('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nall of it');
    expect([complete, body, parser.keepAlive]).toEqual([false, 'all of it', false]);
    expect(parser.end()).toBe(true);
  });

  it('says a body cut short by the end of the connection is not complete', () => {
    const { parser, complete } = parse('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly this');
    expect([complete, parser.end()]).toEqual([false, false]);
  });

  it('does not reuse a connection the server closes, an HTTP/1.0 one, or one with bytes after the response', () => {
    expect(parse(OK.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')).parser.keepAlive).toBe(false);
    expect(parse(OK.replace('HTTP/1.1', 'HTTP/1.0')).parser.keepAlive).toBe(false);
    expect(parse(OK.replace('HTTP/1.1', 'HTTP/1.0').replace('\r\n\r\n', '\r\nconnection: keep-alive\r\n\r\n')).parser.keepAlive).toBe(true);
    expect(parse(`${OK}HTTP/1.1 200 OK\r\n`).parser.keepAlive).toBe(false);
  });

  it('joins repeated headers and reads a 204 as having no body', () => {
    const { parser, complete } = parse('HTTP/1.1 204 No Content\r\nx-a: 1\r\nX-A: 2\r\n\r\n');
    expect([complete, parser.head?.headers['x-a']]).toEqual([true, '1, 2']);
    // Header names are the server's to choose: none of them meets an inherited property.
    const odd = parse('HTTP/1.1 204 No Content\r\nconstructor: 1\r\n\r\n').parser.head!.headers;
    expect([odd.constructor, odd.toString]).toEqual(['1', undefined]);
  });

  it('rejects what a hostile or broken server may send', () => {
    expect(() => parse('SMTP ready\r\n\r\n')).toThrow(/HTTP\/1.x status line/);
    expect(() => parse('HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n')).toThrow(/invalid Content-Length/);
    expect(() => parse('HTTP/1.1 200 OK\r\ncontent-length: 3\r\ncontent-length: 4\r\n\r\nabcd')).toThrow(/invalid Content-Length/);
    expect(() => parse('HTTP/1.1 200 OK\r\nno colon here\r\n\r\n')).toThrow(/not "name: value"/);
    expect(() => parse('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n')).toThrow(/invalid chunk size/);
    expect(() => parse('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n')).toThrow(/longer than its size/);
    expect(() => parse('HTTP/1.1 101 Switching Protocols\r\n\r\n')).toThrow(/switched protocols/);
  });

  it('stops buffering headers past 64 KiB, whether they come at once or trickle in', () => {
    const huge = `HTTP/1.1 200 OK\r\nx-pad: ${'p'.repeat(70 * 1024)}`;
    expect(() => parse(huge)).toThrow(/headers exceed 65536 bytes/);
    expect(() => parse(`${huge}\r\n\r\n`)).toThrow(/headers exceed 65536 bytes/);
    expect(() => parse(huge, 4096)).toThrow(/headers exceed 65536 bytes/);
    expect(() => parse(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1;${'e'.repeat(5000)}`)).toThrow(/chunk framing exceed 4096 bytes/);
  });
});
