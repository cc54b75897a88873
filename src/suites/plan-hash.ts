import * as crypto from 'node:crypto';

/**
 * The first 16 hex digits of the SHA-256 of a text (what contentHash and trial ids keep), as a
 * string of their own: a slice of the full digest would keep all 64 digits alive beside every
 * item and trial a large run holds.
 */
export function sha256Prefix(text: string): string {
  const digest = oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest();
  return digest.toString('hex', 0, 8);
}

// The one-shot crypto.hash (Node >= 20.12) skips the Hash object.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
