import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { ConfigError, PaideiaError, StoreError, type Env, type Store } from '../core/index.js';
import { blindApi, SHARE_LINK_PATHS } from './api-blind.js';
import { launchApi } from './api-launch.js';
import { resultsApi } from './results-api.js';
import { RunEdits } from './run-edits.js';
import { runsApi } from './api-runs.js';
import { scenariosApi } from './api-scenarios.js';
import type { LaunchFolders } from './launch-choices.js';
import { LiveRuns } from './live.js';
import { readableIn } from './launch-paths.js';
import { loopbackHostOnly, requireToken, sameOriginWrites, securityHeaders } from './security.js';
import { environmentRedactor } from './trial-detail.js';

export interface WebAppOptions {
  store: Store;
  /** The built front end (index.html and its assets), made by `npm run build`. */
  assetsDir: string;
  /** Where keys and base URLs come from; never sent to a browser. */
  env: Env;
  folders: LaunchFolders;
  /** Every request must carry it (required when listening beyond loopback). */
  token?: string;
  /** Listening on loopback: requests must be addressed to it (no DNS rebinding). */
  loopbackPort?: () => number;
  /** How often a read waiting on the store asks whether its server answers (default HEALTH_POLL_MS). */
  healthPollMs?: number;
}

/** The web app: JSON API over the Store interface under /api, and the built pages for every other path. */
export function createWebApp(o: WebAppOptions): { app: Hono; live: LiveRuns } {
  const index = join(o.assetsDir, 'index.html');
  if (!existsSync(index)) throw new PaideiaError(`the web app is not built (no ${index}); build it with: npm run build`);
  const live = new LiveRuns(o.store, o.env, readableIn(o.folders));
  const app = new Hono();
  app.use('*', securityHeaders);
  if (o.loopbackPort) app.use('*', loopbackHostOnly(o.loopbackPort));
  // An expert's share link carries its own secret, scoped to one scoring task; everything else needs the token.
  if (o.token) {
    const guard = requireToken(o.token);
    app.use('*', (c, next) => (SHARE_LINK_PATHS.test(c.req.path) ? next() : guard(c, next)));
  }
  app.use('/api/*', sameOriginWrites);
  app.use('/api/*', storeAnswersSoon(o.store, o.healthPollMs ?? HEALTH_POLL_MS));
  app.onError((error, c) => {
    if (error instanceof ConfigError) return c.json({ error: error.message, issues: error.issues }, 400);
    // The store failed (its server gone past its retries, a full disk): said, and not the page's fault.
    if (error instanceof StoreError) return c.json({ error: error.message }, 503);
    // c.req.json() on a body that is not JSON: the client's mistake, said as such.
    if (error instanceof SyntaxError) return c.json({ error: `the request body is not valid JSON (${error.message}); send one JSON object` }, 400);
    return c.json({ error: error instanceof Error ? error.message : String(error) }, 500);
  });
  const api = new Hono();
  const edits = new RunEdits();
  api.route('/', resultsApi(o.store, edits));
  api.route('/', runsApi(o.store, live, environmentRedactor(o.env)));
  api.route('/', launchApi(live, o.env, o.folders));
  api.route('/', scenariosApi(o.env, o.folders));
  api.route('/', blindApi(o.store, edits));
  api.all('*', c => c.json({ error: `no API route ${c.req.method} ${c.req.path}` }, 404));
  app.route('/api', api);
  app.use('/assets/*', serveStatic({ root: o.assetsDir }));
  // Every page is the one app; it reads its deep link (/runs/<id>/trials/<trial>) from the URL.
  const page = readFileSync(index, 'utf8');
  app.get('*', c => c.html(page));
  return { app, live };
}

/** How often a read waiting on the store asks whether the store's server answers. */
const HEALTH_POLL_MS = 250;

/**
 * A PostgreSQL store retries a server that went away for two minutes: a page reading it then
 * waited that long on nothing. A read (not a run's event stream, which waits by design) is
 * answered 503 as soon as the store says its server does not answer; the read goes on and its
 * answer is dropped. A read that is merely long (a large run's results) is left to finish.
 */
function storeAnswersSoon(store: Store, pollMs: number): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' || c.req.path.endsWith('/events') || !store.unavailable) return next();
    let timer: NodeJS.Timeout | undefined;
    let why: string | undefined;
    const gone = new Promise<'gone'>(resolve => {
      const look = () => {
        why = store.unavailable?.();
        if (why) resolve('gone');
        else timer = setTimeout(look, pollMs);
      };
      timer = setTimeout(look, pollMs);
    });
    const done = next().then(() => 'done' as const);
    const first = await Promise.race([done, gone]).finally(() => clearTimeout(timer));
    if (first === 'gone') {
      // Its error, if it fails later, is the store's own, said by the next read: not unhandled.
      done.catch(() => undefined);
      return c.json({ error: `${why}; reload the page once it is back` }, 503);
    }
    return undefined;
  };
}
