import type { DeckInjection } from './deck-record.js';

/** Error-injection families a run may name in `inject`, by family. */
export const DECK_INJECTIONS: ReadonlyMap<string, DeckInjection> = new Map();
