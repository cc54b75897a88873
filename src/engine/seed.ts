import { sha256Hex } from '../core/index.js';

/** A 32-bit seed derived from parts; the same parts give the same seed on every machine. */
export function deriveSeed(...parts: Array<string | number>): number {
  return Number.parseInt(sha256Hex(parts.join('\u0000'), 8), 16) >>> 1;
}
