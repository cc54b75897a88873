import { existsSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { startWebServer, type ServeOptions } from '../../web/serve.js';
import { packageRoot } from '../../core/package-root.js';

interface ServeFlags { store: string; port: string; host: string; token?: string }

/** What `serve` offers to launch: the working folder's suites, scenarios and data, then those Paideia ships. */
export function servedFolders(cwd: string): ServeOptions['folders'] {
  const both = (sub: string) => [resolve(cwd, sub), resolve(packageRoot(), sub)];
  return { base: cwd, suites: both('data/samples'), scenarios: both('scenarios'), data: both('data') };
}

export function registerServe(program: Command): void {
  program.command('serve')
    .description('the web app: launch and follow runs, read results down to each raw call, edit scenarios, score blind')
    .option('--store <url>', 'store URL', DEFAULT_STORE_URL)
    .option('--port <n>', 'port (0: any free one)', '8787')
    .option('--host <host>', 'address to listen on; beyond 127.0.0.1 it needs --token', '127.0.0.1')
    .option('--token <secret>', 'every request must carry it (?token= once in the browser, or Authorization: Bearer)')
    .action(async (f: ServeFlags) => {
      const port = Number(f.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError([{ field: '--port', message: `expected a port number 0-65535, got "${f.port}"` }]);
      if (f.token !== undefined && f.token.length < 16) throw new ConfigError([{ field: '--token', message: 'use a secret of at least 16 characters, e.g. --token "$(openssl rand -hex 16)"' }]);
      const fresh = f.store.startsWith('sqlite:') && f.store !== 'sqlite::memory:' && !existsSync(resolve(f.store.slice('sqlite:'.length)));
      const store = await openStore(f.store);
      // A mistyped --store would otherwise look like a store with no runs.
      if (fresh) process.stderr.write(`no store at ${resolve(f.store.slice('sqlite:'.length))} yet: serving a new, empty one (runs launched here are stored in it)\n`);
      const server = await startWebServer({
        store, port, host: f.host, ...(f.token ? { token: f.token } : {}), env: process.env,
        assetsDir: resolve(packageRoot(), 'dist/web'),
        folders: servedFolders(process.cwd()),
      }).catch(async (e: unknown) => { await store.close(); throw e; });
      const query = f.token ? `/?token=${encodeURIComponent(f.token)}` : '';
      process.stdout.write(`${server.url}${query}\n`);
      // 0.0.0.0 is where it listens, not an address another machine can open: name the ones it can.
      if (f.host === '0.0.0.0' || f.host === '::') {
        const here = Object.values(networkInterfaces()).flat().filter(a => a && !a.internal && (f.host === '::' || a.family === 'IPv4')).map(a => a!.address);
        if (here.length) process.stderr.write(`from other machines, open ${here.map(a => `http://${a.includes(':') ? `[${a}]` : a}:${server.port}${query}`).join(' or ')}\n`);
      }
      const stop = () => {
        process.stderr.write('stopping: runs started here finish their calls in flight and are kept for resume\n');
        void server.close().then(() => store.close());
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
