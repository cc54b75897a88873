import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOutlineDeckGenerator } from '../decks/baselines.js';
import { generateDeck } from '../decks/generator.js';
import { loadUnits, buildOutline, type Unit } from '../units/index.js';

/** The shipped units, for tests that corrupt real decks. */
export const shippedUnits: Unit[] = loadUnits([fileURLToPath(new URL('../../../data/units', import.meta.url))]).map(u => u.unit);

/** The sanitised `baseline:outline` deck of a shipped unit: a real deck stating its rules and examples. */
export async function outlineDeck(unit: Unit): Promise<string> {
  const deck = await generateDeck(createOutlineDeckGenerator(), buildOutline(unit));
  if (!deck.ok) throw new Error(`${unit.id}: ${deck.message}`);
  return deck.html;
}

/** A hand-counted fixture deck of src/learning/decks/__fixtures__. */
export function fixtureDeck(name: 'counted.html' | 'images.html'): string {
  return readFileSync(new URL(`../decks/__fixtures__/${name}`, import.meta.url), 'utf8');
}
