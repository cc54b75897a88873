import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, type Store } from '../core/index.js';
import { guardStore } from './faults.js';
import { createPostgresStore } from './postgres/index.js';
import { createSqliteStore } from './sqlite/index.js';

/** The embedded default, relative to the working folder. */
export const DEFAULT_STORE_URL = 'sqlite:.paideia/paideia.db';

/**
 * Open (and migrate) the store a `--store` URL names. `readOnly` is for commands that only read:
 * they work on a read-only store and cannot damage one. Faults of the file (full, read-only,
 * damaged) come back as StoreError, from the open and from every later call.
 */
export async function openStore(url: string = DEFAULT_STORE_URL, o: { mustExist?: boolean; readOnly?: boolean } = {}): Promise<Store> {
  let store: Store;
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (!path) throw new ConfigError([{ field: '--store', message: 'sqlite: needs a file path, e.g. sqlite:.paideia/paideia.db' }]);
    // Commands that only read must not leave an empty database behind a typo.
    if (o.mustExist && path !== ':memory:' && !existsSync(resolve(path))) {
      throw new ConfigError([{ field: '--store', message: `no store at ${resolve(path)}; run something first, or name the right file with --store sqlite:<path>` }]);
    }
    if (path !== ':memory:' && existsSync(resolve(path)) && statSync(resolve(path)).isDirectory()) {
      throw new ConfigError([{ field: '--store', message: `${resolve(path)} is a folder; name a database file in it, e.g. --store sqlite:${join(path, 'paideia.db')}` }]);
    }
    store = guardStore(createSqliteStore(path === ':memory:' ? path : resolve(path), { readOnly: o.readOnly ?? false }));
  } else if (/^postgres(ql)?:\/\//.test(url)) {
    store = guardStore(createPostgresStore(url, { readOnly: o.readOnly ?? false }));
  } else {
    throw new ConfigError([{ field: '--store', message: `unsupported store URL "${url}"; use sqlite:<path> (e.g. ${DEFAULT_STORE_URL}) or postgres://USER@HOST[:PORT]/DATABASE` }]);
  }
  await store.init();
  return store;
}

export { createSqliteStore } from './sqlite/index.js';
export { createPostgresStore } from './postgres/index.js';
export { faultOf, guardStore } from './faults.js';
