import type { PermitBucket, PermitGrant } from '../core/index.js';

/** A bucket's row: its level at `atMs` (it may be negative: debt from usage beyond an estimate). */
export interface BucketState {
  level: number;
  atMs: number;
}

/**
 * One take from a token bucket, the arithmetic both stores share (PostgreSQL runs the same in
 * SQL): refill since the last take up to the capacity, then grant whole permits, between
 * `atLeast` and `want`, or none and the wait until `atLeast` are there.
 */
export function takeFrom(state: BucketState | undefined, b: PermitBucket, want: number, atLeast: number, nowMs: number): { grant: PermitGrant; next: BucketState } {
  const perMs = b.perSecond / 1000;
  const level = state ? Math.min(b.capacity, state.level + Math.max(0, nowMs - state.atMs) * perMs) : b.capacity;
  const granted = level >= atLeast ? Math.min(want, Math.floor(level)) : 0;
  const waitMs = granted > 0 ? 0 : Math.ceil((atLeast - level) / perMs);
  return { grant: { granted, waitMs }, next: { level: level - granted, atMs: Math.max(nowMs, state?.atMs ?? nowMs) } };
}

/** What a holder's ask of a shared cap changes: a give-back as asked (never below 0), an ask as far as free slots go. */
export function slotChange(delta: number, total: number, mine: number, max: number): number {
  return delta < 0 ? Math.max(delta, -mine) : Math.max(0, Math.min(delta, max - total));
}
