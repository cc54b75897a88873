import { createHash } from 'node:crypto';
import { StoreError, type Store } from '../core/index.js';

/**
 * Copy blobs by content: each is read from `from`, its bytes checked against its hash, and
 * written to `to`, whose own hash of what it stored must be the same. A blob `to` holds already
 * is left as it is. Returns how many were copied and the hashes `from` did not have.
 */
export async function copyBlobs(from: Store, to: Store, hashes: Iterable<string>): Promise<{ copied: number; missing: string[] }> {
  let copied = 0;
  const missing: string[] = [];
  for (const hash of hashes) {
    if (await to.getBlob(hash)) continue;
    const blob = await from.getBlob(hash);
    if (!blob) {
      missing.push(hash);
      continue;
    }
    const actual = createHash('sha256').update(blob.bytes).digest('hex');
    if (actual !== hash) throw new StoreError('corrupt', `blob ${hash} in ${from.url} holds bytes whose SHA-256 is ${actual}; the store is damaged, restore it from a backup`, { storeUrl: from.url });
    const written = await to.putBlob(blob.bytes, blob.ref.mediaType);
    if (written.hash !== hash || written.size !== blob.bytes.byteLength) {
      throw new StoreError('io', `blob ${hash} was stored in ${to.url} as ${written.hash} (${written.size} bytes); check the target store and copy again`, { storeUrl: to.url });
    }
    copied++;
  }
  return { copied, missing };
}
