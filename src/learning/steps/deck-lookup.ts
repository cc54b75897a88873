import type { Store } from '../../core/index.js';
import { DECK_ARTIFACT, deckKey, type DeckRecord } from './deck-record.js';

/**
 * The run's stored deck variants, read when first asked: steps over a deck run after every deck
 * trial of their session is done (the engine's judge wave), so one read holds them all; a key not
 * found reads the store again once.
 */
export function deckLookup(store: Store, runId: string): { get(deck: string, variant: string): Promise<DeckRecord | undefined>; peek(deck: string, variant: string): DeckRecord | undefined } {
  let loaded = new Map<string, DeckRecord>();
  let loading: Promise<void> | undefined;
  const load = () => (loading = store.listArtifacts(runId, DECK_ARTIFACT).then(rows => {
    loaded = new Map(rows.map(r => [r.key, r.value as unknown as DeckRecord]));
  }));
  return {
    async get(deck, variant) {
      const key = deckKey(deck, variant);
      await (loading ?? load());
      if (!loaded.has(key)) await load();
      return loaded.get(key);
    },
    peek: (deck, variant) => loaded.get(deckKey(deck, variant)),
  };
}
