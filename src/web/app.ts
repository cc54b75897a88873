import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { ConfigError, PaideiaError, type Env, type Store } from '../core/index.js';
import { blindApi, SHARE_LINK_PATHS } from './api-blind.js';
import { launchApi } from './api-launch.js';
import { resultsApi } from './results-api.js';
import { RunEdits } from './run-edits.js';
import { runsApi } from './api-runs.js';
import { scenariosApi } from './api-scenarios.js';
import type { LaunchFolders } from './launch-choices.js';
import { LiveRuns } from './live.js';
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
}

/** The web app: JSON API over the Store interface under /api, and the built pages for every other path. */
export function createWebApp(o: WebAppOptions): { app: Hono; live: LiveRuns } {
  const index = join(o.assetsDir, 'index.html');
  if (!existsSync(index)) throw new PaideiaError(`the web app is not built (no ${index}); build it with: npm run build`);
  const live = new LiveRuns(o.store, o.env);
  const app = new Hono();
  app.use('*', securityHeaders);
  if (o.loopbackPort) app.use('*', loopbackHostOnly(o.loopbackPort));
  // An expert's share link carries its own secret, scoped to one scoring task; everything else needs the token.
  if (o.token) {
    const guard = requireToken(o.token);
    app.use('*', (c, next) => (SHARE_LINK_PATHS.test(c.req.path) ? next() : guard(c, next)));
  }
  app.use('/api/*', sameOriginWrites);
  app.onError((error, c) => {
    if (error instanceof ConfigError) return c.json({ error: error.message, issues: error.issues }, 400);
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
