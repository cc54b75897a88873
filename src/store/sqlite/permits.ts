import type Database from 'better-sqlite3';
import type { PermitBucket, PermitGrant } from '../../core/index.js';
import { slotChange, takeFrom } from '../permit-bucket.js';

/**
 * Shared rate limits and caps on calls in flight in the SQLite file: every process on this machine that opens the file
 * draws from the same rows, under SQLite's write lock (IMMEDIATE), by this machine's clock.
 * `read` commits queued writes first, so a take never joins a group commit's transaction.
 */
export function sqlitePermits(db: () => Database.Database, read: <T>(fn: () => T) => Promise<T>) {
  let prepared: Record<'get' | 'put' | 'give' | 'expire' | 'held' | 'hold' | 'drop', Database.Statement> & { db: Database.Database } | undefined;
  const st = () => {
    const d = db();
    if (prepared?.db !== d) {
      prepared = {
        db: d,
        get: d.prepare('SELECT level, at_ms AS atMs FROM rate_buckets WHERE key = ?'),
        put: d.prepare('INSERT INTO rate_buckets (key, level, at_ms) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET level = excluded.level, at_ms = excluded.at_ms'),
        give: d.prepare('UPDATE rate_buckets SET level = MIN(?, level + ?) WHERE key = ?'),
        expire: d.prepare('DELETE FROM rate_slots WHERE key = ? AND expires_at <= ?'),
        held: d.prepare('SELECT COALESCE(SUM(held), 0) AS total, COALESCE(SUM(CASE WHEN holder = ? THEN held END), 0) AS mine FROM rate_slots WHERE key = ?'),
        hold: d.prepare('INSERT INTO rate_slots (key, holder, held, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (key, holder) DO UPDATE SET held = excluded.held, expires_at = excluded.expires_at'),
        drop: d.prepare('DELETE FROM rate_slots WHERE key = ? AND holder = ?'),
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
      await read(() => st().give.run(b.capacity, amount, b.key));
    },
    async holdSlots(key: string, max: number, holder: string, delta: number, ttlMs: number): Promise<number> {
      return read(() => db().transaction(() => {
        const s = st();
        const now = Date.now();
        s.expire.run(key, now);
        const { total, mine } = s.held.get(holder, key) as { total: number; mine: number };
        const change = slotChange(delta, total, mine, max);
        if (mine + change > 0) s.hold.run(key, holder, mine + change, now + ttlMs);
        else s.drop.run(key, holder);
        return change;
      }).immediate());
    },
  };
}
