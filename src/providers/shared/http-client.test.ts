import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { post, TransportTimeout, type PostRequest } from './http-client.js';

/** A raw TCP server answering each request with what `answer` writes; counts connections and requests. */
async function rawServer(answer: (socket: Socket, request: string, n: number) => void) {
  const seen = { connections: 0, requests: [] as string[], closed: 0 };
  const server: Server = createServer(socket => {
    seen.connections++;
    sockets.add(socket);
    socket.on('close', () => seen.closed++);
    let buffered = '';
    socket.on('data', d => {
      buffered += d.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const request = buffered.slice(0, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        seen.requests.push(request);
        answer(socket, request, seen.requests.length);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}/v1/chat/completions?x=1`, seen };
}

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const s of servers.splice(0)) await new Promise(resolve => s.close(resolve));
});

const json = (body: string, extra = '') => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const ask = (url: string, more: Partial<PostRequest> = {}) => post({ url, headers: HEADERS, body: '{"q":"é"}', timeoutMs: 5000, maxResponseBytes: 1 << 20, ...more });
const HEADERS = { authorization: 'Bearer sk-test-123456789' };

describe('post over HTTP/1.1 (undici pool)', () => {
  it('writes one well-formed request and reuses the connection for the next', async () => {
    const s = await rawServer(socket => socket.write(json('{"ok":true}')));
    const first = await ask(s.url);
    // undici frees a connection on the turn after its answer ends; a request in that same turn opens another.
    await new Promise(resolve => setImmediate(resolve));
    const second = await ask(s.url);
    expect([first.status, first.ok, first.text, second.text]).toEqual([200, true, '{"ok":true}', '{"ok":true}']);
    expect(first.headers.get('Content-Type')).toBe('application/json');
    expect(s.seen.connections).toBe(1);
    const [head, body] = s.seen.requests[0]!.split('\r\n\r\n');
    const lines = head!.split('\r\n');
    expect(lines[0]).toBe('POST /v1/chat/completions?x=1 HTTP/1.1');
    expect(lines.map(l => l.toLowerCase())).toEqual(expect.arrayContaining([
      `host: ${new URL(s.url).host}`, 'authorization: bearer sk-test-123456789', 'content-type: application/json', 'content-length: 10',
    ]));
    expect(Buffer.from(body!, 'latin1').toString('utf8')).toBe('{"q":"é"}');
  });

  it('opens a new connection after the idle time the server allows (Keep-Alive: timeout=1 leaves none)', async () => {
    const s = await rawServer(socket => socket.write(json('{}', 'keep-alive: timeout=1\r\n')));
    await ask(s.url);
    await ask(s.url);
    expect(s.seen.connections).toBe(2);
  });

  it('reads a chunked answer and closes a connection the server says it will close', async () => {
    const s = await rawServer(socket => socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n'));
    expect((await ask(s.url)).text).toBe('{"a":1}');
    await ask(s.url);
    expect(s.seen.connections).toBe(2);
  });

  it('fails with ECONNRESET when the connection closes in the middle of the body', async () => {
    const s = await rawServer(socket => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 50\r\n\r\n{"half'));
    await expect(ask(s.url)).rejects.toMatchObject({ code: 'ECONNRESET', message: 'the connection closed before the body ended', answeredStatus: 200 });
  });

  it('cuts a body at maxResponseBytes and closes that connection', async () => {
    const s = await rawServer(socket => socket.write(json(`"${'x'.repeat(5000)}"`)));
    const r = await ask(s.url, { maxResponseBytes: 100 });
    expect([r.truncated, r.text.length]).toEqual([true, 100]);
    // The cut connection is closed, not handed to the next request.
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(s.seen.closed).toBe(1);
    expect((await ask(s.url, { maxResponseBytes: 100 })).truncated).toBe(true);
  });

  it('holds to its deadline against a server that drips its answer', async () => {
    const s = await rawServer(socket => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('x')), 20);
    });
    const started = performance.now();
    await expect(ask(s.url, { timeoutMs: 300 })).rejects.toBeInstanceOf(TransportTimeout);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('stops at once when the caller aborts, with the signal reason, and closes the connection', async () => {
    const s = await rawServer(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop now')), 50);
    await expect(ask(s.url, { signal: controller.signal })).rejects.toThrow('stop now');
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(s.seen.closed).toBe(1);
  });

  it('refuses a header value that would inject a header, naming the header and not its value, before connecting', async () => {
    const s = await rawServer(socket => socket.write(json('{}')));
    const bad = { 'x-api-key': 'sk-secret\r\nx-evil: 1' };
    const error = await ask(s.url, { headers: bad }).catch((e: Error & { code?: string }) => e);
    expect(error).toMatchObject({ code: 'UND_ERR_INVALID_ARG', message: 'invalid x-api-key header' });
    expect(s.seen.connections).toBe(0);
  });

  it('leaves the process free to exit while a connection sits idle in the pool', async () => {
    // The server keeps the connection open for a minute; only an unref'd idle socket lets the child exit before its 20 s limit.
    const server = createHttpServer((q, r) => r.end('{}'));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const script = `
      import { post } from './src/providers/shared/http-client.ts';
      const r = await post({ url: ${JSON.stringify(url)}, headers: {}, body: '{}', timeoutMs: 5000, maxResponseBytes: 100 });
      console.log(r.text);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const status = await new Promise(resolve => child.on('close', code => resolve(code)));
    server.closeAllConnections();
    expect([out.trim(), status]).toEqual(['{}', 0]);
  }, 30_000);
  it('speaks HTTPS: a trusted certificate answers over one reused connection, an untrusted one is refused', async () => {
    const cert = 'src/providers/testing/tls/localhost-cert.pem';
    let connections = 0;
    const server = createHttpsServer({ key: readFileSync('src/providers/testing/tls/localhost-key.pem'), cert: readFileSync(cert) }, (q, r) => {
      let body = '';
      q.on('data', d => (body += d));
      q.on('end', () => r.end(JSON.stringify({ got: JSON.parse(body), secure: (q.socket as { encrypted?: boolean }).encrypted === true })));
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    servers.push(server as unknown as Server);
    const url = `https://localhost:${(server.address() as { port: number }).port}/v1/chat/completions`;
    const script = `
      import { post } from './src/providers/shared/http-client.ts';
      const ask = () => post({ url: ${JSON.stringify(url)}, headers: {}, body: '{"q":"é"}', timeoutMs: 5000, maxResponseBytes: 1000 });
      try {
        const a = await ask();
        await new Promise(resolve => setImmediate(resolve));
        const b = await ask();
        console.log(JSON.stringify([a.status, a.text, b.text]));
      } catch (e) { console.log(JSON.stringify(['error', e.code ?? e.message])); }`;
    const child = (env: NodeJS.ProcessEnv) => new Promise<string>(resolve => {
      const c = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000, env: { ...process.env, ...env } });
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.on('close', () => resolve(out.trim()));
    });
    const answer = JSON.stringify({ got: { q: 'é' }, secure: true });
    expect(JSON.parse(await child({ NODE_EXTRA_CA_CERTS: cert }))).toEqual([200, answer, answer]);
    expect(connections).toBe(1);
    const refused = JSON.parse(await child({ NODE_EXTRA_CA_CERTS: '' }));
    expect(refused).toEqual(['error', 'DEPTH_ZERO_SELF_SIGNED_CERT']);
    server.closeAllConnections();
  }, 40_000);
});
