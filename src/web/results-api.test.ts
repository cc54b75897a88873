import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../core/index.js';
import { startRun } from '../runs.js';
import { openStore } from '../store/index.js';
import { startApiServer } from './testing/api-server.js';
import type { RunningServer } from './serve.js';

// The shipped scripted scenario, run for real, served by the web app over its store.
let dir: string;
let store: Store;
let server: RunningServer;
let runId: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paideia-results-api-'));
  store = await openStore(`sqlite:${join(dir, 'p.db')}`);
  runId = (await startRun({ kind: 'scenario', file: 'scenarios/knowledge-explanation.yaml' }, { store }).done).runId;
  server = await startApiServer(store, dir);
});
afterAll(async () => { await server.close(); await store.close(); rmSync(dir, { recursive: true, force: true }); });

type Tau = { alignment: Array<{ rater: string; item: string; tauExperts: { n: number } | null }>; notes: string[] };
const charts = async () => ((await (await fetch(`${server.url}/api/runs/${runId}/charts`)).json()) as { tau: Tau }).tau;
const post = async (path: string, body: unknown) => {
  const r = await fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  expect(r.status, await r.clone().text()).toBe(200);
  return r.json() as Promise<Record<string, unknown>>;
};

describe('GET /api/runs/<id>/charts', () => {
  it('reads the scores an expert saves from a share link at the next view, not after a restart', async () => {
    const before = await charts();
    expect(before.alignment.every(a => a.tauExperts === null)).toBe(true);
    expect(before.notes.join('\n')).toMatch(/no expert ratings/);
    const { path } = (await post(`/api/runs/${runId}/blind`, { rater: 'anna.k' })) as { path: string };
    const task = (await (await fetch(`${server.url}/api${path}`)).json()) as { items: Array<{ id: string }>; columns: Array<{ column: string; type: string; min: number; max: number }> };
    // four dialogues scored with different values, so a tau with experts can be computed
    for (const [i, item] of task.items.slice(0, 4).entries()) {
      await post(`/api${path}`, { id: item.id, values: Object.fromEntries(task.columns.map(c => [c.column, String(c.type === 'bool' ? i % 2 : Math.round(c.min + ((c.max - c.min) * i) / 3))])) });
    }
    const after = await charts();
    expect(after.alignment.some(a => (a.tauExperts?.n ?? 0) > 0), JSON.stringify(after)).toBe(true);
  });
});
