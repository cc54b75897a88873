import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.js';
import { startWebServer } from '../src/web/serve.js';

/**
 * Child process of web.bench: over the stored run in `<db>` (made by spine-worker), the web app's
 * trial pages (cold: the first page, read for its own trials while the index is built, then the build's end as a filtered page
 * sees it; warm; a regex search) and, side by side, what loading the
 * whole run costs (every trial and call read from the store). Heap sizes after a full GC. Prints JSON.
 */
const db = process.argv[2]!;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const heapMB = () => { gc(); gc(); return process.memoryUsage().heapUsed / 2 ** 20; };
const store = await openStore(`sqlite:${db}`);
const runId = (await store.listRuns())[0]!.id;
const assets = mkdtempSync(join(tmpdir(), 'paideia-bench-web-'));
mkdirSync(assets, { recursive: true });
writeFileSync(join(assets, 'index.html'), '<!doctype html><title>bench</title>');
const server = await startWebServer({ store, port: 0, assetsDir: assets, env: {}, folders: { base: assets, suites: [], scenarios: [] } });
const seconds = async (path: string) => {
  const t0 = performance.now();
  const res = await fetch(`${server.url}${path}`);
  const body = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${body}`);
  return { s: (performance.now() - t0) / 1000, bytes: body.length, body };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const base = heapMB();
const page = `/api/runs/${runId}/trials?limit=50`;
const t0cold = performance.now();
const cold = await seconds(page);
const total = (JSON.parse(cold.body) as { total: number }).total;
// A filter needs the whole index: asked right after the first page, it answers once the build is done.
await seconds(`${page}&show=passes&limit=1`);
const built = (performance.now() - t0cold) / 1000;
const indexMB = heapMB() - base;
const warm: number[] = [];
const search: number[] = [];
for (let i = 0; i < 5; i++) warm.push((await seconds(`${page}&offset=${i * 20000}`)).s);
for (let i = 0; i < 5; i++) search.push((await seconds(`${page}&q=${encodeURIComponent(`focal${1000 + i}\\b`)}&show=failures`)).s);
await server.close();

// Side by side: the whole run read from the store, as a page that loaded everything would need.
const before = heapMB();
const t0 = performance.now();
const [trials, calls] = await Promise.all([store.listTrials(runId), store.listCalls(runId)]);
const allSeconds = (performance.now() - t0) / 1000;
const allMB = heapMB() - before;
if (trials.length !== total) throw new Error(`index has ${total} trials, store ${trials.length}`);
process.stdout.write(JSON.stringify({ total, cold: cold.s, built, pageBytes: cold.bytes, warm: median(warm), search: median(search), indexMB, allSeconds, allMB, calls: calls.length }));
await store.close();
