import type Database from 'better-sqlite3';

/**
 * Which request hashes the store may hold an answer for: a Bloom filter over the hashes of every
 * successful call, so that a cache lookup of a request never asked before (every turn of a new
 * dialogue) costs no SQLite read. It only ever says "maybe" or "surely not"; a "maybe" is read
 * from the store as before.
 *
 * It stays a superset of what is stored: this connection adds each answer as it queues it, and a
 * sync takes in what other connections (other processes) committed since the last one, found by
 * `PRAGMA data_version` and read by sequence number (calls are append-only and numbered in commit
 * order). Syncs run inside each group commit, where they cost almost nothing, and before a lookup
 * when the last one is older than SYNC_MS: an answer another process stored since then counts as
 * not there yet, as if the two lookups had raced. Stores too large to scan at open go without it.
 */
export interface CacheFilter {
  /** False only if no successful call with this hash was stored as of the last sync. */
  mayHold(hash: string): boolean;
  /** A successful call with this hash is about to be stored by this connection. */
  add(hash: string): void;
  /** Take in what other connections stored (inside a transaction, or as a read of its own). */
  sync(): void;
  /** Sync first when the last sync is old. */
  syncIfStale(): void;
  /**
   * Another connection of this store (its commit thread) committed the calls numbered first to
   * last, each added here when it was queued: a sync need not read them back.
   */
  committed(first: number, last: number): void;
}

/** Oldest sync a lookup trusts, in milliseconds. */
const SYNC_MS = 5;
/** Stores with more calls than this are not scanned at open: every lookup reads the store. */
const MAX_SCANNED_CALLS = 500_000;
const BITS_PER_HASH = 12;
const PROBES = 4;

export function createCacheFilter(db: () => Database.Database, pending: () => Iterable<string>): CacheFilter {
  let statements: { version: Database.Statement; after: Database.Statement; last: Database.Statement } | undefined;
  const st = () => (statements ??= {
    version: db().prepare('PRAGMA data_version').pluck(),
    after: db().prepare(`SELECT seq, request_hash FROM calls WHERE seq > ? AND status = 'ok'`).raw(),
    last: db().prepare('SELECT COALESCE(MAX(seq), 0) FROM calls').pluck(),
  });
  let bits = new Uint32Array(0);
  let mask = 0;
  let count = 0;
  let scannedTo = 0;
  let rebuilt = false;
  let version: unknown;
  let syncedAt = -Infinity;
  // undefined: not built yet; false: the store is too large, every lookup reads it.
  let usable: boolean | undefined;

  const probe = (hash: string, set: boolean): boolean => {
    // FNV-1a and a second mix of it, combined per probe (double hashing).
    let h1 = 0x811c9dc5;
    for (let i = 0; i < hash.length; i++) h1 = Math.imul(h1 ^ hash.charCodeAt(i), 0x01000193);
    let h2 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d) | 1;
    let all = true;
    for (let k = 0; k < PROBES; k++, h1 = (h1 + h2) | 0, h2 = Math.imul(h2, 5) | 1) {
      const bit = (h1 >>> 0) & mask;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if (set) bits[word]! |= flag;
      else if ((bits[word]! & flag) === 0) all = false;
    }
    return all;
  };
  const insert = (hash: string) => {
    probe(hash, true);
    count++;
  };
  // Sized for twice what it holds; rebuilt from the store (and what is queued) when it fills up.
  const build = (expected: number) => {
    let size = 1 << 10;
    while (size < expected * 2 * BITS_PER_HASH) size *= 2;
    bits = new Uint32Array(size / 32);
    mask = size - 1;
    count = 0;
    scannedTo = 0;
    rebuilt = true;
  };
  const scan = () => {
    for (const [seq, hash] of st().after.iterate(scannedTo) as Iterable<[number, string]>) {
      insert(hash);
      if (seq > scannedTo) scannedTo = seq;
    }
  };

  const filter: CacheFilter = {
    mayHold(hash) {
      return usable !== true || probe(hash, false);
    },
    add(hash) {
      if (usable === true) insert(hash);
    },
    sync() {
      if (usable === false) return;
      syncedAt = performance.now();
      // The version first: a commit that lands after it is seen by the next sync.
      const now = st().version.get();
      if (usable === undefined) {
        const last = st().last.get() as number;
        if (last > MAX_SCANNED_CALLS) {
          usable = false;
          return;
        }
        build(last);
        usable = true;
      } else if (now === version && count * BITS_PER_HASH <= mask + 1) return;
      else if (count * BITS_PER_HASH > mask + 1) build(count);
      version = now;
      // After a (re)build: what this connection queued but has not committed is not in the store yet.
      if (rebuilt) for (const hash of pending()) insert(hash);
      rebuilt = false;
      scan();
    },
    committed(first, last) {
      if (usable === true && scannedTo >= first - 1 && last > scannedTo) scannedTo = last;
    },
    syncIfStale() {
      if (usable !== false && performance.now() - syncedAt > SYNC_MS) filter.sync();
    },
  };
  return filter;
}
