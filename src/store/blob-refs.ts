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

/**
 * Every blob a run's stored values name (slides and decks in artefacts, images in call requests,
 * whatever a later kind keeps), by the same rule deleteRun keeps blobs by: what a delete would
 * keep for another run is what a copy carries.
 */
export function blobHashesOf(values: Iterable<unknown>, into = new Set<string>()): Set<string> {
  for (const v of values) for (const hash of blobHashesIn(JSON.stringify(v))) into.add(hash);
  return into;
}
