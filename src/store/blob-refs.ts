/**
 * How stored rows name a blob: a BlobRef serialised as JSON (`"hash":"<sha-256 hex>"`), in an
 * artefact, a call's request (an image part) or anywhere else a record keeps one.
 */
export const BLOB_MARK = '"hash":"';
const BLOB_HASH = /"hash":"([0-9a-f]{64})"/g;

/** The blob hashes a JSON text names. */
export function blobHashesIn(text: string | null | undefined): string[] {
  return text ? [...text.matchAll(BLOB_HASH)].map(m => m[1]!) : [];
}
