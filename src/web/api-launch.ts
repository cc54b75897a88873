import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { ConfigError, type Env, type JsonObject, type RunEvent } from '../core/index.js';
import { configShapeIssues } from '../engine/start.js';
import { BUILT_IN_RUN_KINDS } from '../runs.js';
import type { LiveRuns } from './live.js';
import { launchChoices, type LaunchFolders } from './launch-choices.js';
import { pageIssues } from './api-launch-issues.js';
import { launchPathIssues } from './launch-paths.js';

/** Config fields a page may not set: where model calls (and so the server's keys) go. */
const SERVER_ONLY = /base_?url|^endpoints$/i;

/**
 * Starting runs and following them: every run kind of src/runs.ts with its config's JSON Schema
 * (the page draws its form from it, so a new kind needs no page code), start, stop, resume, and
 * the engine's event stream as server-sent events.
 */
export function launchApi(live: LiveRuns, env: Env, folders: LaunchFolders): Hono {
  const api = new Hono();

  api.get('/launch', c => c.json({
    kinds: BUILT_IN_RUN_KINDS.map(k => ({ name: k.name, schema: pageSchema(k.configSchema) })),
    ...launchChoices(env, folders),
  }));

  api.post('/launch', async c => {
    const body = await c.req.json<{ config?: JsonObject }>();
    const config = body.config ?? {};
    // The server's keys go to the endpoints its environment names, never to one a page chose.
    const redirected = Object.keys(config).filter(k => SERVER_ONLY.test(k));
    if (redirected.length) {
      throw new ConfigError(redirected.map(field => ({ field, message: 'endpoints come from the server\'s environment (OPENAI_BASE_URL, ...), not from the page: a page could send the server\'s keys elsewhere' })));
    }
    const kind = BUILT_IN_RUN_KINDS.find(k => k.name === config['kind']);
    const schema = kind ? pageSchema(kind.configSchema) : undefined;
    // The kinds are shared with the CLI: their problems are said again in the form's own field names.
    const fields = new Set(Object.keys((schema?.['properties'] ?? {}) as object));
    const outside = kind ? launchPathIssues(schema!, config, folders) : [];
    if (outside.length) {
      // Every problem of the config's shape with the paths outside the offered folders, at once.
      const parsed = kind!.configSchema.safeParse(config);
      const shape = parsed.success ? [] : configShapeIssues(parsed.error).filter(i => !outside.some(o => o.field === i.field));
      throw new ConfigError([...outside, ...pageIssues(shape, fields)]);
    }
    try {
      const run = await live.launch(config);
      return c.json({ runId: run.runId });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      throw new ConfigError(pageIssues(error.issues, fields), { cause: error });
    }
  });

  // Stop drains; abort, after a stop, abandons the calls in flight (nothing of them is stored; their trials stay pending).
  for (const [action, done] of [['stop', 'stopping'], ['abort', 'aborted']] as const) {
    api.post(`/runs/:id/${action}`, c => {
      const run = live.get(c.req.param('id'));
      if (!run) return c.json({ error: NOT_HERE }, 404);
      run.progress.stopping = true;
      run.handle[action]();
      return c.json({ [done]: true });
    });
  }

  api.post('/runs/:id/resume', async c => {
    // `retryErrors`: its failed trials are asked again too (as `paideia run --resume ID --retry-errors`).
    const body = await c.req.json<{ retryErrors?: unknown }>().catch(() => ({}) as { retryErrors?: unknown });
    if (body.retryErrors !== undefined && typeof body.retryErrors !== 'boolean') throw new ConfigError([{ field: 'retryErrors', message: 'expected true or false' }]);
    // A run the CLI started may name files anywhere: the page resumes only those in the offered folders.
    const run = await live.resume(c.req.param('id'), body.retryErrors === true, config => {
      const kind = BUILT_IN_RUN_KINDS.find(k => k.name === config['kind']);
      const outside = kind ? launchPathIssues(pageSchema(kind.configSchema), config, folders) : [];
      if (outside.length) throw new ConfigError(outside.map(i => ({ ...i, message: `${i.message.replace(/, or run it with the CLI$/, '')}, or resume it with the CLI` })));
    });
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

/** A stop for a run this server does not run: it may be another process's, stopped where it runs. */
const NOT_HERE = 'this run is not running in this server; a run the command line or a worker runs is stopped there (Ctrl-C in its terminal)';

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

/** A kind's config schema as the launch form draws it: without the fields only the server sets. */
function pageSchema(schema: z.ZodType): JsonObject {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  const props = (json['properties'] ?? {}) as JsonObject;
  for (const k of Object.keys(props)) if (SERVER_ONLY.test(k)) delete props[k];
  return json;
}
