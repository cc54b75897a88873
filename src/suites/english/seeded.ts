import { createHash } from 'node:crypto';

/**
 * A seeded sort key for one element: the SHA-256 of the seed, a label naming the choice, and the
 * element's own key. Ordering by it is a seeded shuffle with two properties a counter-driven PRNG
 * lacks: an element's place does not depend on which other elements exist (adding a paradigm or a
 * pair never reorders the rest), and each choice gets its own independent stream via its label.
 */
export function seededKey(seed: number, label: string, key: string): string {
  return createHash('sha256').update(`${seed}\u0000${label}\u0000${key}`).digest('hex');
}

/** `items` in seeded order (a copy). Keys must be unique, so ties cannot occur. */
export function seededOrder<T>(items: readonly T[], seed: number, label: string, key: (item: T) => string): T[] {
  return items
    .map(item => ({ item, k: seededKey(seed, label, key(item)) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map(x => x.item);
}

/**
 * Split `total` over slots as evenly as their capacities allow: every slot gets the same share,
 * a slot that runs out gives its remainder to the others, and a share that does not divide
 * evenly goes one each to the slots earliest in `priority` (slot indices in preference order).
 * The result never exceeds a capacity; it sums to `total` unless the capacities are too small.
 */
export function allocateEvenly(total: number, capacities: readonly number[], priority: readonly number[]): number[] {
  const quotas = capacities.map(() => 0);
  let remaining = total;
  let open = priority.filter(i => (capacities[i] ?? 0) > 0);
  while (remaining > 0 && open.length > 0) {
    const share = Math.floor(remaining / open.length);
    const extra = remaining % open.length;
    open.forEach((slot, rank) => {
      const give = Math.min(share + (rank < extra ? 1 : 0), capacities[slot]! - quotas[slot]!);
      quotas[slot]! += give;
      remaining -= give;
    });
    open = open.filter(slot => quotas[slot]! < capacities[slot]!);
  }
  return quotas;
}
