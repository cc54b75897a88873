import { Hono } from 'hono';
import type { Store } from '../core/index.js';
import type { ChartsAnswer, TauAnswer } from './api-types.js';
import { alignment, runCharts, type AttachedFile, type RunCharts } from './results-charts.js';
import { isSlideOfRun } from './trial-detail-deck.js';
import type { RunEdits } from './run-edits.js';

/** Media types a slide blob may be served as; anything else is sent as bytes to download, never rendered. */
const IMAGE_TYPES = new Set(['image/png']);

const RUNNING_REFRESH_MS = 5000;
/** A finished run's figures are made again this often: expert scores imported by another process (the CLI) change them. */
const FINISHED_REFRESH_MS = 60_000;

/** A run's kind-specific figures, and the slide images its pages show (only blobs of that run). */
export function resultsApi(store: Store, edits: RunEdits): Hono {
  const api = new Hono();
  // A report reads the whole run: made once per state of the run, not once per page view.
  const made = new Map<string, { state: string; charts: Promise<RunCharts> }>();
  api.get('/runs/:id/charts', async c => {
    const run = await store.getRun(c.req.param('id'));
    if (!run) return c.json({ error: `no run "${c.req.param('id')}" in this store` }, 404);
    // A run's record changes only with its status: a running run's figures are made again every few
    // seconds, a finished run's after an edit made here (an expert's score) or once a minute.
    const every = run.status === 'running' ? RUNNING_REFRESH_MS : FINISHED_REFRESH_MS;
    const state = `${run.status}@${run.updatedAt}@${edits.of(run.id)}@${Math.floor(Date.now() / every)}`;
    let entry = made.get(run.id);
    if (!entry || entry.state !== state) {
      entry = { state, charts: runCharts(store, run) };
      made.set(run.id, entry);
      entry.charts.catch(() => made.delete(run.id));
    }
    return c.json((await entry.charts) satisfies ChartsAnswer);
  });

  // The alignment with the files `validity analyze` takes beside the stored ratings, uploaded from the page.
  api.post('/runs/:id/charts/alignment', async c => {
    const run = await store.getRun(c.req.param('id'));
    if (!run) return c.json({ error: `no run "${c.req.param('id')}" in this store` }, 404);
    const body = await c.req.json<Partial<Record<'experts' | 'outcomes' | 'observations', AttachedFile>>>();
    const files: Partial<Record<'experts' | 'outcomes' | 'observations', AttachedFile>> = {};
    for (const key of ['experts', 'outcomes', 'observations'] as const) {
      const f = body[key];
      if (f === undefined || f === null) continue;
      if (typeof f.name !== 'string' || typeof f.text !== 'string') return c.json({ error: `${key}: send { name, text } (the CSV file's name and its text)` }, 400);
      files[key] = { name: f.name, text: f.text };
    }
    return c.json((await alignment(store, run.id, files)) satisfies TauAnswer);
  });

  api.get('/runs/:id/blobs/:hash', async c => {
    const { id, hash } = c.req.param();
    // A blob is content-addressed and shared by every run: only a slide of this run opens here.
    if (!/^[0-9a-f]{16,128}$/.test(hash) || !(await isSlideOfRun(store, id, hash))) return c.json({ error: `no slide image ${hash} in run "${id}"` }, 404);
    const blob = await store.getBlob(hash);
    if (!blob) return c.json({ error: `the slide image ${hash} is not in this store` }, 404);
    const type = IMAGE_TYPES.has(blob.ref.mediaType) ? blob.ref.mediaType : 'application/octet-stream';
    return c.body(Buffer.from(blob.bytes), 200, { 'content-type': type, 'cache-control': 'private, max-age=86400, immutable' });
  });
  return api;
}
