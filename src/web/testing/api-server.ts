import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../core/index.js';
import { startWebServer, type RunningServer, type ServeOptions } from '../serve.js';

/**
 * The web server over a store for tests that speak to its API only: a stand-in page in
 * `<dir>/assets` (the server checks its front end exists), no suites or scenarios offered, an
 * empty environment and any free port unless `o` says otherwise.
 */
export function startApiServer(store: Store, dir: string, o: Partial<Omit<ServeOptions, 'store'>> = {}): Promise<RunningServer> {
  const assetsDir = join(dir, 'assets');
  mkdirSync(assetsDir, { recursive: true });
  writeFileSync(join(assetsDir, 'index.html'), '<!doctype html><title>t</title>');
  return startWebServer({ store, port: 0, assetsDir, env: {}, folders: { base: dir, suites: [], scenarios: [] }, ...o });
}
