import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { Env, JsonObject, RunEvent } from '../core/index.js';
import { BUILT_IN_RUN_KINDS } from '../runs.js';
import type { LiveRuns } from './live.js';
import { launchChoices, type LaunchFolders } from './launch-choices.js';

/**
 * Starting runs and following them: every run kind of src/runs.ts with its config's JSON Schema
 * (the page draws its form from it, so a new kind needs no page code), start, stop, resume, and
 * the engine's event stream as server-sent events.
 */
export function launchApi(live: LiveRuns, env: Env, folders: LaunchFolders): Hono {
  const api = new Hono();

  api.get('/launch', c => c.json({
    kinds: BUILT_IN_RUN_KINDS.map(k => ({ name: k.name, schema: z.toJSONSchema(k.configSchema, { io: 'input', unrepresentable: 'any' }) })),
    ...launchChoices(env, folders),
  }));

  api.post('/launch', async c => {
    const body = await c.req.json<{ config?: JsonObject }>();
    const run = await live.launch(body.config ?? {});
    return c.json({ runId: run.runId });
  });

  api.post('/runs/:id/stop', c => {
    const run = live.get(c.req.param('id'));
    if (!run) return c.json({ error: 'this run is not running in this server' }, 404);
    run.progress.stopping = true;
    run.handle.stop();
    return c.json({ stopping: true });
  });

  api.post('/runs/:id/resume', async c => {
    const run = await live.resume(c.req.param('id'));
    return c.json({ runId: run.runId });
  });

  // One reader of the run's RunEvent stream per page; it ends when the run does.
  api.get('/runs/:id/events', c => {
    const run = live.get(c.req.param('id'));
    if (!run) return c.json({ error: 'this run is not running in this server' }, 404);
    return streamSSE(c, async stream => {
      const events = run.handle.events();
      stream.onAbort(() => void events.return?.());
      await stream.writeSSE({ event: 'progress', data: JSON.stringify(run.progress) });
      for await (const e of events) await stream.writeSSE({ event: e.type, data: JSON.stringify(eventView(e, run.progress)) });
      const outcome = await run.handle.done.then(o => ({ outcome: o }), (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }));
      await stream.writeSSE({ event: 'end', data: JSON.stringify(outcome) });
    });
  });
  return api;
}

/** What a page needs of an event: trial events carry the trial's identity, not its whole record. */
function eventView(e: RunEvent, progress: JsonObject | object): JsonObject {
  const p = progress as JsonObject;
  if (e.type === 'trial') {
    const t = e.trial;
    return {
      type: e.type, progress: p, status: e.status, costUsd: e.costUsd, spentUsd: e.spentUsd,
      trial: { id: t.id, itemId: t.itemId, model: t.modelAlias, test: t.test, judge: t.target !== undefined },
      scores: (e.scores ?? []).map(s => ({ scorer: s.scorer.name, value: s.value })),
    };
  }
  if (e.type === 'retry') return { type: e.type, progress: p, trial: { id: e.trial.id, model: e.trial.modelAlias }, attempt: e.attempt, delayMs: e.delayMs, error: e.error };
  return { ...(e as unknown as JsonObject), progress: p };
}
