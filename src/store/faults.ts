import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError, type StoreFault } from '../core/errors.js';
import type { Store } from '../core/store.js';
import { sqlIdent } from './postgres/ident.js';

const SQLITE_FAULTS: Array<[RegExp, StoreFault]> = [
  [/^SQLITE_FULL/, 'full'],
  [/^SQLITE_READONLY|^SQLITE_PERM|^SQLITE_AUTH/, 'read-only'],
  [/^SQLITE_CORRUPT|^SQLITE_NOTADB/, 'corrupt'],
  [/^SQLITE_IOERR|^SQLITE_CANTOPEN|^SQLITE_BUSY|^SQLITE_LOCKED|^SQLITE_PROTOCOL/, 'io'],
];
/** Every SQLite code that is a fault of the file, as a pattern's source (the commit thread takes it as text). */
export const SQLITE_FAULT_CODES = SQLITE_FAULTS.map(([pattern]) => pattern.source).join('|');
// PostgreSQL's SQLSTATEs, and a server still away once the store's own retries gave up.
const POSTGRES_FAULTS: Array<[RegExp, StoreFault]> = [
  [/^53100$/, 'full'],
  [/^25006$|^42501$/, 'read-only'],
  [/^XX001$|^XX002$/, 'corrupt'],
  [/^08|^57P0[1-3]$|^53300$|^ECONNREFUSED$|^ECONNRESET$|^ETIMEDOUT$/, 'io'],
];
const FS_FAULTS: Record<string, StoreFault> = { ENOSPC: 'full', EDQUOT: 'full', EROFS: 'read-only', EACCES: 'read-only', EPERM: 'read-only', EIO: 'io' };

/** Why the store failed, when the error is a store fault (SQLite or file system) and not a bug. */
export function faultOf(error: unknown): StoreFault | undefined {
  if (error instanceof StoreError) return error.fault;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  return [...SQLITE_FAULTS, ...POSTGRES_FAULTS].find(([pattern]) => pattern.test(code))?.[1] ?? FS_FAULTS[code];
}

/** One message per fault: what happened, what is kept, what to do. */
export function storeError(fault: StoreFault, url: string, error: unknown): StoreError {
  const code = (error as { code?: string }).code ?? '';
  const detail = `${code} ${(error as Error).message ?? ''}`.trim().slice(0, 200);
  if (/^postgres(ql)?:/.test(url)) return new StoreError(fault, postgresMessage(fault, url, code, detail), { cause: error, storeUrl: url });
  // A store not made yet has nothing to read: only where to make one helps.
  const file = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : undefined;
  if (fault === 'read-only' && file !== undefined && file !== ':memory:' && !existsSync(file)) {
    return new StoreError(fault, `the store ${url} cannot be made (${detail}): its folder or the disk is read-only. Name a store in a folder you can write with --store sqlite:<path>, e.g. --store sqlite:${join(tmpdir(), 'paideia.db')}.`, { cause: error, storeUrl: url });
  }
  const message = {
    full: `the disk holding the store ${url} is full (${detail}). Everything stored before this point is kept; free some space, then run the same command again to resume.`,
    'read-only': `the store ${url} cannot be written (${detail}): the file, its folder or the disk is read-only. report, runs and scenario report only read and still work; to run, make it writable or name another store with --store sqlite:<path>.`,
    corrupt: `the store ${url} is damaged (${detail}); Paideia will not read or write it. Restore it from a backup, or save what is readable with: sqlite3 <file> ".recover" | sqlite3 recovered.db, then use --store sqlite:recovered.db.`,
    io: `the store ${url} could not be read or written (${detail}). Everything committed before is kept; check the disk and that no other program holds the file, then run the same command again to resume.`,
  }[fault];
  return new StoreError(fault, message, { cause: error, storeUrl: url });
}

/** The same for a PostgreSQL store: a server, a user's privileges and the server's disk, not a file. */
function postgresMessage(fault: StoreFault, url: string, code: string, detail: string): string {
  const u = new URL(url);
  const user = sqlIdent(decodeURIComponent(u.username) || process.env.PGUSER || 'postgres');
  if (code === '42501') {
    return `the PostgreSQL store ${url} refused ${user} (${detail}): the user may not read or write Paideia's tables. As their owner run: `
      + `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${user}; GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${user}; `
      + 'then run the same command again (SELECT alone lets report and runs read).';
  }
  return {
    full: `the PostgreSQL server of the store ${url} is out of disk space (${detail}). Everything committed before is kept; free space on the server, then run the same command again to resume.`,
    'read-only': `the PostgreSQL store ${url} only allows reads (${detail}: a standby server, or default_transaction_read_only). report and runs still work; to run, point --store at the primary server.`,
    corrupt: `the PostgreSQL server of the store ${url} reports damaged data (${detail}); see the server's log, and restore the database from a backup.`,
    io: `the PostgreSQL server of the store ${url} could not be reached or failed (${detail}) and did not come back within the store's two minutes of retries. Everything committed before is kept; start the server (or correct host and port), then run the same command again to resume.`,
  }[fault];
}

/** Store methods that write a run's rows. */
const WRITES = /^(open|set|save|put|swap|record|claim|append)/;

/**
 * The store with every fault of its file turned into a StoreError that names the run it was
 * writing, so the CLI can say which run to resume. Other errors pass through unchanged.
 */
export function guardStore(store: Store): Store {
  let runId: string | undefined;
  const guard = (error: unknown): unknown => {
    const fault = faultOf(error);
    if (!fault) return error;
    const e = error instanceof StoreError ? error : storeError(fault, store.url, error);
    if (runId && e.runId === undefined) e.runId = runId;
    return e;
  };
  const rethrow = (error: unknown): never => {
    throw guard(error);
  };
  // Not an async function: a run makes a few store calls per trial, and each await would cost
  // promises and ticks of its own. A throw before the store's promise exists rejects all the same.
  const wrap = <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) => {
    const writes = WRITES.test(name);
    return (...args: A): Promise<R> => {
      // The run a write concerns: its first argument (an id, or a record or list of records with one).
      if (writes) {
        const first = args[0] as { id?: unknown; runId?: unknown } | Array<{ runId?: unknown }> | string | undefined;
        const named = typeof first === 'string' ? first : Array.isArray(first) ? first[0]?.runId : name === 'openRun' ? first?.id : first?.runId;
        if (typeof named === 'string') runId = named;
      }
      try {
        return Promise.resolve(fn(...args)).then(undefined, rethrow);
      } catch (error) {
        return Promise.reject(guard(error));
      }
    };
  };
  const guarded: Record<string, unknown> = {};
  for (const key of Object.keys(store) as Array<keyof Store>) {
    const value = store[key];
    // unavailable() answers at once, and reads nothing that could fail.
    guarded[key] = typeof value === 'function' && key !== 'unavailable' ? wrap(key, (value as (...a: unknown[]) => Promise<unknown>).bind(store)) : value;
  }
  return guarded as unknown as Store;
}
