import { Hono } from 'hono';
import { commandHint } from '../core/command-hint.js';
import { RunInUseError, type RunRecord, type Store } from '../core/index.js';
import { SCENARIO_RUN } from '../scenarios/index.js';
import { runInterrupted, summarizeRuns, unpricedModels } from '../report/runs-summary.js';
import { countTrials } from '../report/trial-counts.js';
import type { DeleteAnswer, RunDetail, RunInUseAnswer, RunListEntry, RunState } from './api-types.js';
import { continueConfig, type LiveRuns } from './live.js';
import { trialDetail, type Redact } from './trial-detail.js';
import { RunIndex } from './run-index.js';
import { parseTrialQuery } from './trial-query.js';
import { queryTrialsFully } from './trial-query-text.js';
import { renderRunBundle } from './bundle.js';
import { runResults, scoresSoFar } from './results.js';

/** How stale a running run's trial rows may be when a page asks (its calls land as they happen). */
const LIVE_REFRESH_MS = 1000;

/** JSON over the Store interface: runs, one run's results and trials, one trial in full; deleting a run. */
export function runsApi(store: Store, live: LiveRuns, redact: Redact): Hono {
  const api = new Hono();
  const indexes = new Map<string, RunIndex>();
  const indexOf = (run: RunRecord) => {
    const index = indexes.get(run.id) ?? indexes.set(run.id, new RunIndex(store, run.id)).get(run.id)!;
    return { index, args: [`${run.status}@${run.updatedAt}`, run.status === 'running' || live.running(run.id) !== undefined, LIVE_REFRESH_MS] as const };
  };

  api.get('/runs', async c => {
    const [summaries, records] = await Promise.all([summarizeRuns(store), store.listRuns()]);
    const kindOf = new Map(records.map(r => [r.id, r]));
    return c.json(summaries.map(s => {
      const record = kindOf.get(s.id);
      // A session of this server's that has ended says nothing more than the store (another process may have finished the run since).
      const progress = live.running(s.id)?.progress;
      const modelSpecs = (record?.config.models ?? []).map(m => ({ alias: m.alias, spec: m.spec }));
      return { ...s, kind: record?.kind ?? 'suite', modelSpecs, updatedAt: record?.updatedAt ?? s.createdAt, live: progress ?? null };
    }) satisfies RunListEntry[]);
  });

  // What a page that shows a run not running here needs to notice a change made elsewhere (a
  // resume in another tab or the CLI): cheap, unlike the run's detail.
  api.get('/runs/:id/state', async c => {
    const run = await store.getRun(c.req.param('id'));
    if (!run) return c.json({ error: `no run "${c.req.param('id')}" in this store` }, 404);
    return c.json({ status: run.status, updatedAt: run.updatedAt, interrupted: await runInterrupted(store, run), live: live.running(run.id) !== undefined } satisfies RunState);
  });

  api.get('/runs/:id', async c => {
    // Whether a live run has finished is read before the stored status: a run that ends while the
    // store is read is then still followed (its events end at once), never shown as "running" and
    // finished, which a page would draw as running for ever.
    const l = live.get(c.req.param('id'));
    const finished = Boolean(l && (l.outcome || l.error));
    const run = await store.getRun(c.req.param('id'));
    if (!run) return c.json({ error: `no run "${c.req.param('id')}" in this store` }, 404);
    // The same count as `paideia runs` and the run list: every trial of every step kind.
    const [results, counts, soFar] = await Promise.all([runResults(store, run.id), countTrials(store, run.id), scoresSoFar(store, run.id)]);
    return c.json({
      id: run.id, kind: run.kind, status: run.status, note: run.note ?? null, createdAt: run.createdAt, updatedAt: run.updatedAt,
      models: run.config.models.map(m => ({ alias: m.alias, spec: m.spec })), repeats: run.config.repeats,
      spentUsd: await store.spentUsd(run.id), costIncomplete: unpricedModels(run).length > 0, counts, results, scoresSoFar: soFar,
      live: l ? { progress: l.progress, warnings: l.warnings, finished, error: finished ? l.error ?? null : null } : null,
      interrupted: await runInterrupted(store, run),
      resumable: (await continueConfig(store, run.id)) !== undefined,
      // Blind scoring shares a scenario run's judged dialogues; other kinds get an expert file from
      // `paideia validity template` (the page offers no link that would only fail).
      judged: run.kind === SCENARIO_RUN && (await store.listJudgments(run.id)).length > 0,
    } satisfies RunDetail);
  });

  api.get('/runs/:id/trials', async c => {
    const query = parseTrialQuery(new URL(c.req.url).searchParams);
    const run = await store.getRun(c.req.param('id'));
    if (!run) return c.json({ error: `no run "${c.req.param('id')}" in this store` }, 404);
    const { index, args } = indexOf(run);
    // A plain page needs no index: while the first one is built it is drawn from its trials' calls.
    const plain = query.show === 'all' && !query.model && !query.q;
    const page = plain ? await index.page(...args, query.offset, query.limit) : await queryTrialsFully(index, await index.list(...args), query);
    return c.json({ total: page.total, offset: query.offset, limit: query.limit, rows: page.rows.map(r => ({ ...r, input: r.input.slice(0, 300), output: r.output.slice(0, 300) })) });
  });

  // A write like the others (security.ts: JSON, same origin). A run this server is running is
  // refused: stop it first. One a worker holds live claims on is refused with who holds it until
  // when, unless `?force=1` (as `paideia runs delete --force`): its workers can then store nothing more.
  api.delete('/runs/:id', async c => {
    const id = c.req.param('id');
    const force = c.req.query('force') === '1';
    if (live.running(id)) return c.json({ error: `run ${id} is running in this server; stop it (Stop (drain) on its page) and delete it once it has stopped` }, 409);
    try {
      const deleted = await store.deleteRun(id, { force });
      if (!deleted) return c.json({ error: `no run "${id}" in this store` }, 404);
      indexes.delete(id);
      live.forget(id);
      return c.json({ deleted } satisfies DeleteAnswer);
    } catch (error) {
      if (error instanceof RunInUseError) {
        return c.json({
          error: `run ${id} is in use: ${error.usage}. Stop its workers (or wait until their leases run out), then delete it; to delete it anyway (its workers can then store nothing more), send DELETE /api/runs/${id}?force=1 (the page's Delete anyway) or run: ${commandHint(['runs', 'delete', id, '--force', '--yes'], store.url)}`,
          inUse: { holders: error.holders.map(h => ({ workerId: h.workerId, pid: h.pid, host: h.host, trials: h.trials, expiresAt: new Date(h.expiresAt).toISOString() })) },
        } satisfies RunInUseAnswer, 409);
      }
      throw error;
    }
  });

  api.get('/runs/:id/bundle.html', async c => {
    const html = await renderRunBundle(store, c.req.param('id'), redact);
    if (html === undefined) return c.json({ error: `no run "${c.req.param('id')}" in this store` }, 404);
    c.header('Content-Disposition', `attachment; filename="paideia-${c.req.param('id').replace(/[^\w.-]/g, '_')}.html"`);
    return c.html(html);
  });

  api.get('/runs/:id/trials/:trial', async c => {
    const [detail, run] = await Promise.all([trialDetail(store, c.req.param('id'), c.req.param('trial'), redact), store.getRun(c.req.param('id'))]);
    if (!detail || !run) return c.json({ error: 'no such trial in this run' }, 404);
    // The runs list's rule, per trial: its model or one of its judges has no price.
    const unpriced = new Set(unpricedModels(run));
    const { trial, judges } = detail as { trial: { modelAlias: string }; judges: Array<{ trial: { modelAlias: string } }> };
    const costIncomplete = [trial.modelAlias, ...judges.map(j => j.trial.modelAlias)].some(alias => unpriced.has(alias));
    return c.json({ ...(detail as object), costIncomplete });
  });
  return api;
}
