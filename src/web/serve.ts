import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { ConfigError } from '../core/index.js';
import { createWebApp, type WebAppOptions } from './app.js';

export interface ServeOptions extends Omit<WebAppOptions, 'loopbackPort'> {
  /** 0: any free port. */
  port: number;
  /** Default 127.0.0.1; anything beyond loopback needs a token. */
  host?: string;
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT` (the host it listens on). */
  url: string;
  port: number;
  /** Stop accepting requests, drain the runs it started, close. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** True when the host is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A port that cannot be had is the user's to change: say so, not a stack trace. */
function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  const why = e.code === 'EADDRINUSE' ? `port ${port} on ${host} is in use (another paideia serve?)`
    : e.code === 'EACCES' ? `port ${port} on ${host} needs privileges this user lacks`
    : e.code === 'EADDRNOTAVAIL' ? `${host} is not an address of this machine` : undefined;
  if (!why) return e;
  return new ConfigError([{ field: e.code === 'EADDRNOTAVAIL' ? '--host' : '--port', message: `${why}; pick another with --port N, or --port 0 for any free one${e.code === 'EADDRNOTAVAIL' ? ', and a --host this machine has (127.0.0.1)' : ''}` }], { cause: e });
}

/** Start the web app on a host and port; refuses a host beyond loopback without a token. */
export async function startWebServer(o: ServeOptions): Promise<RunningServer> {
  const host = o.host ?? '127.0.0.1';
  if (!isLoopback(host) && !o.token) {
    throw new ConfigError([{ field: '--host', message: `listening on ${host} lets other machines in; give a secret with --token <T> (every request must then carry it), or leave --host out for 127.0.0.1` }]);
  }
  let port = o.port;
  const { app, live } = createWebApp({ ...o, ...(isLoopback(host) ? { loopbackPort: () => port } : {}) });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: o.port, hostname: host }, () => resolve(s));
    s.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, host, o.port)));
  });
  port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`, port,
    async close() {
      await live.stopAll();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
