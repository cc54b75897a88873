import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../../core/index.js';
import { openStore } from '../../store/index.js';

/** Write to `out` (printing its path) or to standard output. */
export function emit(text: string, out: string | undefined): void {
  if (!out) { process.stdout.write(text); return; }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  process.stdout.write(`${out}\n`);
}

/** Open a store that must exist, run `f` on it, close it. */
export async function withStore<T>(url: string, f: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(url, { mustExist: true, readOnly: true });
  try {
    return await f(store);
  } finally {
    await store.close();
  }
}
