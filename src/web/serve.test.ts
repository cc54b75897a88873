import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError, type Store } from '../core/index.js';
import { startCli } from '../cli/testing/run-cli.js';
import { openStore } from '../store/index.js';
import { CONTENT_SECURITY_POLICY } from './security.js';
import { startApiServer } from './testing/api-server.js';
import type { RunningServer } from './serve.js';

// These tests speak to the API only (startApiServer puts a stand-in page in the assets folder).
let dir: string;
let store: Store;
const TOKEN = 'a-token-of-sixteen-plus';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paideia-serve-'));
  store = await openStore(`sqlite:${join(dir, 'p.db')}`);
});
afterAll(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });

const start = (o: { token?: string; host?: string } = {}) => startApiServer(store, dir, o);

describe('paideia serve', () => {
  let server: RunningServer;
  afterAll(async () => { await server?.close(); });

  it('listens on 127.0.0.1, sends its CSP on every answer and answers only requests addressed to loopback', async () => {
    server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(`${server.url}/runs/some-run/trials/x`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self'(;|$)/);
    expect((await fetch(`${server.url}/api/runs`)).status).toBe(200);
    // DNS rebinding: a foreign name that resolves to 127.0.0.1 is refused.
    expect(await statusWithHost(`${server.url}/api/runs`, 'evil.example')).toBe(421);
    expect(await statusWithHost(`${server.url}/api/runs`, `localhost:${server.port}`)).toBe(200);
  });

  it('refuses cross-origin and non-JSON writes, and a launch that would point the server\'s keys elsewhere', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) => fetch(`${server.url}/api/launch`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
    expect((await post({}, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await fetch(`${server.url}/api/launch`, { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    const notJson = await fetch(`${server.url}/api/launch`, { method: 'POST', body: 'notjson', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: string }).error).toMatch(/not valid JSON/);
    const redirected = await post({ config: { kind: 'suite', suites: ['x'], models: ['openai:gpt-4.1'], baseUrl: 'http://evil.example/v1' } });
    expect(redirected.status).toBe(400);
    expect(((await redirected.json()) as { issues: Array<{ field: string }> }).issues.map(i => i.field)).toEqual(['baseUrl']);
    const bad = await post({ config: { kind: 'suite', models: [] } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/name at least one model/);
    const info = (await (await fetch(`${server.url}/api/launch`)).json()) as { kinds: Array<{ name: string; schema: { properties: Record<string, unknown> } }> };
    expect(info.kinds.map(k => k.name)).toEqual(['suite', 'scenario', 'validity', 'learning']);
    expect(Object.keys(info.kinds[0]!.schema.properties)).not.toContain('baseUrl');
  });

  it('lets a launch name files only in the folders the server offers, and never shows a word of another file', async () => {
    const offered = join(dir, 'offered');
    mkdirSync(join(offered, 'suite'), { recursive: true });
    writeFileSync(join(offered, 'suite/items.jsonl'), '');
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'root:x:0:0:SECRET-CONTENT');
    // a link inside an offered folder that points out of it is outside too
    symlinkSync(secret, join(offered, 'link.json'));
    // The folder is offered twice (for suites and for data): the messages name it once.
    const guarded = await startApiServer(store, dir, { folders: { base: dir, suites: [offered], scenarios: [], data: [offered] } });
    try {
      const post = (config: unknown) => fetch(`${guarded.url}/api/launch`, { method: 'POST', body: JSON.stringify({ config }), headers: { 'content-type': 'application/json' } });
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ kind: 'suite', suites: ['offered/suite'], models: ['baseline:script'], script: secret }, ['script']],
        [{ kind: 'suite', suites: ['offered/suite', '/etc'], models: ['baseline:gold'], prices: 'offered/link.json' }, ['suites.1', 'prices']],
        [{ kind: 'scenario', file: '../../etc/passwd' }, ['file']],
        [{ kind: 'learning', units: ['u'], unitPaths: ['/'], generators: ['g=baseline:outline'], learners: ['l=baseline:examples'] }, ['unitPaths.0']],
        [{ kind: 'suite', suites: ['offered/suite'], models: ['a=openai:x'], endpoints: { a: 'http://evil.example/v1' } }, ['endpoints']],
        // A path outside and problems of the config's shape: all of them in one answer.
        [{ kind: 'suite', suites: ['../../etc'], models: [], repeats: 0, concurrency: -1, bogus: 1 }, ['suites.0', 'repeats', 'concurrency', '(config)']],
      ];
      for (const [config, fields] of cases) {
        const r = await post(config);
        const body = await r.text();
        expect(r.status, body).toBe(400);
        expect((JSON.parse(body) as { issues: Array<{ field: string }> }).issues.map(i => i.field)).toEqual(fields);
        expect(body).not.toContain('SECRET-CONTENT');
        expect(body).not.toContain('root:x');
      }
      const outside = await (await post({ kind: 'suite', suites: ['/etc'], models: ['baseline:gold'] })).json() as { issues: Array<{ message: string }> };
      expect(outside.issues[0]!.message).toBe('"/etc" is not in a folder this server offers (offered); put the file there, or run it with the CLI');
      // An empty form: every field it needs, at once.
      const empty = await (await post({ kind: 'suite' })).json() as { issues: Array<{ field: string }> };
      expect(empty.issues.map(i => i.field)).toEqual(['models', 'suites']);
      expect(await store.listRuns()).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it('with a token, refuses every request without it and takes it as a bearer header, a query once, then a cookie', async () => {
    const guarded = await start({ token: TOKEN, host: '0.0.0.0' });
    try {
      const url = guarded.url.replace('0.0.0.0', '127.0.0.1');
      expect((await fetch(`${url}/api/runs`)).status).toBe(401);
      expect((await fetch(`${url}/runs`)).status).toBe(401);
      expect((await fetch(`${url}/api/runs`, { headers: { authorization: 'Bearer wrong-token-of-sixteen' } })).status).toBe(401);
      expect((await fetch(`${url}/api/runs`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      // a page opened with the token sets the cookie and is loaded again without it in the address
      const first = await fetch(`${url}/runs?kind=suite&token=${TOKEN}`, { redirect: 'manual' });
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/runs?kind=suite');
      const cookie = first.headers.get('set-cookie')!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect((await fetch(`${url}/api/runs`, { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(200);
      expect((await fetch(`${url}/runs?kind=suite`, { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(200);
      // the API takes it as it is (the event stream cannot send a header)
      expect((await fetch(`${url}/api/runs?token=${TOKEN}`, { redirect: 'manual' })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('says a port in use is in use, naming --port, and a folder given as the store a folder', async () => {
    const first = await start();
    try {
      await expect(startApiServer(store, dir, { port: first.port }))
        .rejects.toMatchObject({ issues: [{ field: '--port', message: `port ${first.port} on 127.0.0.1 is in use (another paideia serve?); pick another with --port N, or --port 0 for any free one` }] });
    } finally {
      await first.close();
    }
    await expect(openStore(`sqlite:${dir}`)).rejects.toMatchObject({ issues: [{ field: '--store', message: `${dir} is a folder; name a database file in it, e.g. --store sqlite:${join(dir, 'paideia.db')}` }] });
  });

  it('a store whose server does not answer is said in a 503 as soon as the store knows, a store fault at once; a long read is left to finish', async () => {
    let down: string | undefined;
    let failing = false;
    const held: Array<() => void> = [];
    const stuck: Store = {
      ...store,
      unavailable: () => down,
      listRuns: () => (failing ? Promise.reject(new StoreError('io', 'the PostgreSQL server of the store postgres://x is gone'))
        : new Promise(resolve => { held.push(() => void store.listRuns().then(resolve)); })),
    };
    const slow = await startApiServer(stuck, dir, { healthPollMs: 20 });
    try {
      // A long read: its answer comes when the store gives it, however long.
      const long = fetch(`${slow.url}/api/runs`);
      await new Promise(resolve => setTimeout(resolve, 200));
      held.splice(0).forEach(go => go());
      expect((await long).status).toBe(200);
      // The server goes away while a read waits.
      const waiting = fetch(`${slow.url}/api/runs`);
      await new Promise(resolve => setTimeout(resolve, 100));
      down = 'the PostgreSQL server of the store postgres://x has not answered since 2026-12-06T00:00:00.000Z (ECONNREFUSED); the store retries it for 120 s';
      const refused = await waiting;
      expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([503, `${down}; reload the page once it is back`]);
      down = undefined;
      failing = true;
      const failed = await fetch(`${slow.url}/api/runs`);
      expect([failed.status, ((await failed.json()) as { error: string }).error]).toEqual([503, 'the PostgreSQL server of the store postgres://x is gone']);
    } finally {
      await slow.close();
    }
  });

  it('exits 2 from the CLI when --host goes beyond loopback without --token', async () => {
    const { done } = startCli(['serve', '--host', '0.0.0.0', '--port', '0', '--store', `sqlite:${join(dir, 'cli.db')}`], { cwd: dir });
    const r = await done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--host.*--token/s);
  });
});

/** fetch() sets Host itself; a rebinding page's request carries its own name, sent here by hand. */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, res => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', reject);
    req.end();
  });
}
