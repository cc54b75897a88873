import net from 'node:net';
import tls from 'node:tls';
import type { Target } from './http1-request.js';

/** What a connection hands its socket's events to while a request is on it. */
export interface Exchange {
  data(bytes: Buffer): void;
  /** The socket ended or closed; `error` when it failed. */
  closed(error: unknown): void;
}

/**
 * How long an idle connection is kept when the server does not say (`Keep-Alive: timeout=N`):
 * below node's own server default of 5 s, so we do not write into a socket the server is closing.
 */
const DEFAULT_IDLE_MS = 4000;

/** One keep-alive socket and the request on it, if any. */
export class Connection {
  exchange: Exchange | undefined;
  idleSince = 0;
  idleMs = DEFAULT_IDLE_MS;
  dead = false;

  constructor(readonly socket: net.Socket) {
    // Set once per socket, not per request: every event goes to the exchange of the moment.
    socket.on('data', (bytes: Buffer) => {
      if (this.exchange) this.exchange.data(bytes);
      else this.destroy(); // bytes nobody asked for: the connection's framing can no longer be trusted
    });
    socket.on('end', () => this.end(undefined));
    socket.on('error', (error: Error) => this.end(error));
    socket.on('close', () => this.end(undefined));
  }

  destroy(): void {
    this.dead = true;
    this.socket.destroy();
  }

  private end(error: unknown): void {
    this.dead = true;
    const exchange = this.exchange;
    this.exchange = undefined;
    exchange?.closed(error);
    if (!this.socket.destroyed) this.socket.destroy();
  }
}

/** The idle connections to one origin, most recently used last. */
export class Origin {
  private readonly idle: Connection[] = [];
  private session: Buffer | undefined;

  constructor(private readonly target: Target) {}

  /** An idle connection that is still good, or a new one. */
  take(): Connection {
    const now = performance.now();
    for (let conn = this.idle.pop(); conn; conn = this.idle.pop()) {
      if (conn.dead) continue;
      if (now - conn.idleSince >= conn.idleMs) {
        conn.destroy();
        continue;
      }
      conn.socket.ref();
      return conn;
    }
    return new Connection(this.connect());
  }

  /** Back to the pool once its response was read whole; `keepAlive` is the server's hint, if any. */
  release(conn: Connection, keepAlive: string | undefined): void {
    if (conn.dead) return;
    const hint = keepAlive === undefined ? undefined : /\btimeout=(\d+)/.exec(keepAlive);
    if (hint) conn.idleMs = Math.min(DEFAULT_IDLE_MS * 15, Number(hint[1]) * 1000 - 1000);
    conn.idleSince = performance.now();
    // An idle connection must not keep the process alive.
    conn.socket.unref();
    this.idle.push(conn);
    // Drop the dead ones now and then, so a pool that was once wide does not hold them for ever.
    if (this.idle.length > 64 && this.idle[0]!.dead) this.compact();
  }

  private compact(): void {
    const alive = this.idle.filter(c => !c.dead);
    this.idle.length = 0;
    this.idle.push(...alive);
  }

  private connect(): net.Socket {
    const { host, port } = this.target;
    if (!this.target.secure) return net.connect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 1000 });
    const { servername } = this.target;
    const socket = tls.connect({ host, port, ALPNProtocols: ['http/1.1'], ...(servername ? { servername } : {}), ...(this.session ? { session: this.session } : {}) });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1000);
    // Resume the TLS session on the next connection: saves a full handshake.
    socket.on('session', (session: Buffer) => (this.session = session));
    return socket;
  }
}

const origins = new Map<string, Origin>();

/** The connections of one process to `target`'s origin, shared by every model that calls it. */
export function connectionsTo(target: Target): Origin {
  let origin = origins.get(target.origin);
  if (!origin) {
    origin = new Origin(target);
    origins.set(target.origin, origin);
  }
  return origin;
}
