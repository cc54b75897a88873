import type { Item, Store, Trial } from '../core/index.js';
import type { TrialInputs } from '../engine/trial-chunks.js';

/** The items of the trials in flight, by version hash: what the item and judge steps read. */
export interface ItemShelf extends TrialInputs {
  get(hash: string): Item | undefined;
}

/**
 * Items read from the store a chunk of trials at a time and let go once the chunk finished, so a
 * run holds the items of the trials in flight only. An item several chunks need (its models and
 * repeats across a chunk's edge) stays until the last of them lets it go.
 */
export function itemShelf(store: Store, runId: string): ItemShelf {
  const shelf = new Map<string, { item: Item; holds: number }>();
  const hashesOf = (trials: ReadonlyArray<Trial>) => [...new Set(trials.map(t => t.itemHash))];
  return {
    get: hash => shelf.get(hash)?.item,
    async load(trials) {
      for (const v of await store.listRunItemsOf(runId, hashesOf(trials))) {
        const held = shelf.get(v.hash);
        if (held) held.holds++;
        else shelf.set(v.hash, { item: v.item, holds: 1 });
      }
    },
    release(trials) {
      for (const hash of hashesOf(trials)) {
        const held = shelf.get(hash);
        if (held && --held.holds === 0) shelf.delete(hash);
      }
    },
  };
}
