import { Hono } from 'hono';
import type { Store } from '../core/index.js';
import { blindTaskView, createBlindTask, saveBlindScore } from './blind.js';
import type { RunEdits } from './run-edits.js';

/** Paths an expert's share link reaches without the server's token: its page, and its task's API alone. */
export const SHARE_LINK_PATHS = /^\/(score\/[^/]+\/[^/]+|api\/score\/[^/]+\/[^/]+|assets\/[^/]+)$/;

/** Blind expert scoring: make a share link for one expert (with the app's token), and the link's own API. */
export function blindApi(store: Store, edits: RunEdits): Hono {
  const api = new Hono();
  api.post('/runs/:id/blind', async c => {
    const body = await c.req.json<{ rater?: string }>();
    return c.json(await createBlindTask(store, c.req.param('id'), body.rater ?? ''));
  });
  api.get('/score/:run/:secret', async c => {
    const view = await blindTaskView(store, c.req.param('run'), c.req.param('secret'));
    return view ? c.json(view) : c.json({ error: 'this scoring link is not valid; ask for a new one' }, 404);
  });
  api.post('/score/:run/:secret', async c => {
    const body = await c.req.json<{ id: string; values: Record<string, unknown>; comment?: string }>();
    const ok = await saveBlindScore(store, c.req.param('run'), c.req.param('secret'), body);
    // The run's figures (judges against experts) read the new score on the next view.
    if (ok) edits.touch(c.req.param('run'));
    return ok ? c.json({ saved: true }) : c.json({ error: 'this scoring link is not valid; ask for a new one' }, 404);
  });
  return api;
}
