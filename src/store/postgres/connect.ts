import { createRequire } from 'node:module';
import type pg from 'pg';

// pg is loaded when a PostgreSQL store is opened, not by every command that imports the store.
const require = createRequire(import.meta.url);
let loaded: typeof pg | undefined;
const pgModule = (): typeof pg => (loaded ??= require('pg') as typeof pg);
import { ConfigError, StoreError } from '../../core/index.js';
import { sqlIdent } from './ident.js';

/** `postgres://user:secret@host/db` as it may be shown: without the password. */
export function publicUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '';
  return u.toString().replace(/^(postgres(?:ql)?:\/\/[^:@/]*):?@/, '$1@');
}

/**
 * A URL string that may not parse, with what stands between the user's `:` and the last `@`
 * (the password, whatever characters it holds) replaced by `***`.
 */
export function maskPassword(url: string): string {
  const m = /^([a-z][\w+.-]*:\/\/[^:/?#@]*):(.*)@/is.exec(url);
  return m ? `${m[1]}:***@${url.slice(m[0].length)}` : url;
}

/** Check the URL before connecting: a typo is bad input (exit 2), named with the flag. */
export function checkUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // A URL that does not parse is mostly one whose password holds # / ? or :, so it is shown
    // with the password masked, as every other message shows the URL without it.
    const masked = maskPassword(url);
    const why = masked === url ? '' : '; a password with @ : / ? # or % in it must be percent-encoded (# as %23, / as %2F), or left out of the URL and set in PGPASSWORD';
    throw new ConfigError([{ field: '--store', message: `"${masked}" is not a URL; expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, e.g. postgres://paideia@127.0.0.1:5432/paideia${why}` }]);
  }
  if (!u.hostname || u.pathname.length < 2) {
    throw new ConfigError([{ field: '--store', message: `${publicUrl(url)} names no ${u.hostname ? 'database' : 'host'}; expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` }]);
  }
  return u;
}

// int8 (sequence numbers, expiry times) as numbers, as the SQLite store returns them.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pgModule().types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export function createPool(url: string, o: { readOnly: boolean; max: number }): pg.Pool {
  const pool = new (pgModule().Pool)({
    connectionString: url, max: o.max, types, connectionTimeoutMillis: 10_000, application_name: 'paideia',
    ...(o.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
  });
  // An idle connection cut by a server restart is an event, not a crash: the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * A connection of the pool for a transaction. The pool listens for errors on its idle connections
 * only: a checked-out one that the server cuts between two queries (a restart: 57P01) would emit
 * an 'error' nobody hears, which ends the process. Heard here, the cut fails the next query
 * instead, which withRetry runs again on a new connection. `release(true)` drops the connection.
 */
export async function checkout(pool: pg.Pool): Promise<{ client: pg.PoolClient; release(drop?: boolean): void }> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  return {
    client,
    release(drop) {
      client.off('error', ignore);
      client.release(drop);
    },
  };
}

const CONNECTION = /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND)$/;

/**
 * Errors a retry can cure: the server restarting or unreachable for a while, a connection cut,
 * a serialisation failure or deadlock between workers.
 */
export function isTransient(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (CONNECTION.test(code) && code !== 'ENOTFOUND') return true;
  if (/^(08|57P0[1-3]|40001|40P01|53300)/.test(code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|terminating connection|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(message);
}

/** What a store knows of its server between retries: since when it has not answered, and why. */
export interface ServerHealth {
  failing(error: unknown): void;
  answered(): void;
  /** How long the server has not answered (0 while it answers). */
  downForMs(): number;
}

/**
 * Run `fn` again on transient errors, backing off (100 ms doubling to 2 s) for up to `forMs` from
 * its start, and, with `health`, from when the server stopped answering: the store's operations
 * one after another (a write, then the run's claims released, its status set) would each wait the
 * whole window again, and a process ended minutes after it.
 */
export async function withRetry<T>(fn: () => Promise<T>, forMs: number, health?: ServerHealth): Promise<T> {
  const start = Date.now();
  for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
    try {
      const out = await fn();
      health?.answered();
      return out;
    } catch (error) {
      if (!isTransient(error)) throw error;
      health?.failing(error);
      if (Date.now() - start + wait > forMs || (health && health.downForMs() + wait > forMs)) throw error;
      await new Promise(resolve => setTimeout(resolve, wait));
    }
  }
}

/**
 * What opening the store failed on, said so that it can be fixed: a server that is not there,
 * a refused login, a missing database or missing rights. Exit 2 (bad input), never a stack.
 */
export function openError(url: string, error: unknown): Error {
  const shown = publicUrl(url);
  const u = new URL(url);
  const user = decodeURIComponent(u.username) || process.env.PGUSER || 'the current user';
  const db = decodeURIComponent(u.pathname.slice(1));
  const code = String((error as { code?: unknown }).code ?? '');
  const detail = (error as Error).message;
  const say = (message: string) => new ConfigError([{ field: '--store', message }], { cause: error });
  if (code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || /timeout/i.test(detail)) {
    return say(`cannot reach PostgreSQL at ${u.host} (${code || detail}); start the server (e.g. pg_ctlcluster 15 main start) or correct host and port in ${shown}`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return say(`unknown host "${u.hostname}" in ${shown}; correct the host name`);
  if (code === '28P01' || code === '28000') {
    return say(`PostgreSQL refused the login of ${user} (${detail}); give the right user and password in the URL (postgres://USER:PASSWORD@${u.host}/${db}) or in PGPASSWORD, or allow the user in pg_hba.conf`);
  }
  if (/SASL|password must be a string|no password was provided/i.test(detail)) {
    return say(`PostgreSQL asks ${user} for a password and none was given (printed commands leave passwords out of URLs); set it with: export PGPASSWORD=..., or put it in the URL (postgres://USER:PASSWORD@${u.host}/${db})`);
  }
  if (code === '3D000') {
    // Most users a database is made for may not create databases themselves (createuser's
    // default): the second command, as a superuser, makes it theirs.
    const at = `-h ${u.hostname} -p ${u.port || 5432}`;
    return say(`database "${db}" does not exist on ${u.host}; create it with: createdb ${at} -U ${user} ${db} (if ${user} may not create databases, as a superuser: createdb ${at} -U postgres -O ${user} ${db})`);
  }
  if (code === '42501' && /for (table|sequence)/.test(detail)) {
    // The tables exist (another user made them): this one needs the right to use them, not to create.
    // Names bare where SQL allows: a message's long stretch between two quotes reads as a quoted value, and is cut.
    const role = sqlIdent(user);
    return say(`${user} may not read or write Paideia's tables in database ${db} (${detail}); as their owner run: GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}; GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role};`);
  }
  if (code === '42501') {
    return say(`${user} may not create Paideia's tables in database "${db}" (${detail}); as the database owner run: GRANT CREATE ON SCHEMA public TO "${user}"; or run paideia once as a user who may`);
  }
  if (error instanceof StoreError || error instanceof ConfigError) return error;
  return new StoreError('io', `the store ${shown} could not be opened (${code} ${detail}); check the server and run the command again`, { cause: error });
}
