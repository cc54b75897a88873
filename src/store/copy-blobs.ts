import { createHash } from 'node:crypto';
import { StoreError, type BlobRef, type Store } from '../core/index.js';

const SHA256 = /^[0-9a-f]{64}$/;

/** Whether a JSON value is a blob reference: `{ hash, mediaType, size }`, the hash a SHA-256. */
function isBlobRef(v: unknown): v is BlobRef {
  const r = v as Partial<BlobRef> | null;
  return typeof r === 'object' && r !== null && typeof r.hash === 'string' && SHA256.test(r.hash)
    && typeof r.mediaType === 'string' && typeof r.size === 'number';
}

/**
 * Every blob a run's stored values point at (slides and decks in artefacts, images in call
 * requests, whatever a later kind keeps): blobs belong to no run, so the references say which.
 */
export function collectBlobRefs(values: Iterable<unknown>, into = new Map<string, BlobRef>()): Map<string, BlobRef> {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      if (isBlobRef(v)) into.set(v.hash, v);
      Object.values(v).forEach(walk);
    }
  };
  for (const v of values) walk(v);
  return into;
}

/**
 * Copy blobs by content: each is read from `from`, its bytes checked against its hash, and
 * written to `to`, whose own hash of what it stored must be the same. A blob `to` holds already
 * is left as it is. Returns how many were copied and the hashes `from` did not have.
 */
export async function copyBlobs(from: Store, to: Store, refs: ReadonlyMap<string, BlobRef>): Promise<{ copied: number; missing: string[] }> {
  let copied = 0;
  const missing: string[] = [];
  for (const hash of refs.keys()) {
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
