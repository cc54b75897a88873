import type Database from 'better-sqlite3';
import type { PermitBucket, PermitGrant } from '../../core/index.js';
import { takeFrom } from '../permit-bucket.js';

/**
 * Shared rate limits in the SQLite file: every process on this machine that opens the file
 * draws from the same rows, under SQLite's write lock (IMMEDIATE), by this machine's clock.
 * `read` commits queued writes first, so a take never joins a group commit's transaction.
 */
export function sqlitePermits(db: () => Database.Database, read: <T>(fn: () => T) => T) {
  let prepared: { db: Database.Database; get: Database.Statement; put: Database.Statement; give: Database.Statement } | undefined;
  const st = () => {
    const d = db();
    if (prepared?.db !== d) {
      prepared = {
        db: d,
        get: d.prepare('SELECT level, at_ms AS atMs FROM rate_buckets WHERE key = ?'),
        put: d.prepare('INSERT INTO rate_buckets (key, level, at_ms) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET level = excluded.level, at_ms = excluded.at_ms'),
        give: d.prepare('UPDATE rate_buckets SET level = MIN(?, level + ?) WHERE key = ?'),
      };
    }
    return prepared;
  };
  return {
    async takePermits(b: PermitBucket, want: number, atLeast: number): Promise<PermitGrant> {
      return read(() => db().transaction(() => {
        const s = st();
        const { grant, next } = takeFrom(s.get.get(b.key) as { level: number; atMs: number } | undefined, b, want, atLeast, Date.now());
        s.put.run(b.key, next.level, next.atMs);
        return grant;
      }).immediate());
    },
    async returnPermits(b: PermitBucket, amount: number): Promise<void> {
      read(() => st().give.run(b.capacity, amount, b.key));
    },
  };
}
