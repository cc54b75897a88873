import { INJECTIONS, injectError, type InjectionKind } from '../inject/index.js';
import type { DeckInjection } from './deck-record.js';

/**
 * Error-injection variants a run may name in `inject`, by kind (`rule-swap`, `answers-leaked`, ...):
 * the transforms of learning/inject, each recording exactly what it changed. A deck it finds nothing
 * to change in gets no variant, with the transform's reason.
 */
export const DECK_INJECTIONS: ReadonlyMap<string, DeckInjection> = new Map(Object.entries(INJECTIONS).map(([kind, { family }]) => [kind, {
  kind, family,
  apply(html, unit, seed) {
    const injected = injectError(kind as InjectionKind, html, { unit, seed });
    if (injected.changes.length === 0) return { notApplicable: injected.notApplicable ?? 'nothing to change' };
    return { html: injected.html, change: { kind, family, seed, changes: JSON.parse(JSON.stringify(injected.changes)) } };
  },
}]));
