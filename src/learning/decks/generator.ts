import type { CourseOutline } from '../units/outline.js';
import { sanitiseDeck, type SanitisedDeck } from './sanitise.js';

/**
 * Anything that turns a course outline into one HTML deck. Baselines build it in code; a
 * model-backed generator (an engine step, later) sends the outline to a ChatModel and returns its
 * answer. Both are recorded as `{ name, version, args }` so a stored deck says what made it.
 */
export interface DeckGenerator {
  readonly name: string;
  readonly version: string;
  readonly args: Readonly<Record<string, string | number | boolean>>;
  /** The raw answer: HTML text, not yet trusted. */
  generate(outline: CourseOutline, o?: { signal?: AbortSignal }): Promise<string>;
}

export type GeneratedDeck = SanitisedDeck & { generator: { name: string; version: string; args: DeckGenerator['args'] } };

/** Generate and sanitise; a rejected answer comes back with its reason, never thrown. */
export async function generateDeck(generator: DeckGenerator, outline: CourseOutline, o?: { signal?: AbortSignal }): Promise<GeneratedDeck> {
  const raw = await generator.generate(outline, o);
  return { ...sanitiseDeck(raw), generator: { name: generator.name, version: generator.version, args: generator.args } };
}
