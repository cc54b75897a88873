import { fileURLToPath } from 'node:url';
import type { Item, ScoreResult, Trial } from '../../core/index.js';
import { loadItems } from '../../suites/load.js';
import { BUILT_IN_TESTS } from '../../suites/tests/index.js';
import { builtInScorers } from '../builtins.js';

// Marking tests run on real items of the shipped public samples.
const samples = fileURLToPath(new URL('../../../data/samples', import.meta.url));
const items = new Map(loadItems([samples]).map(v => [v.item.id, v.item]));

/** Every shipped sample item. */
export const sampleItems = (): Item[] => [...items.values()];
const scorers = builtInScorers().forTests(BUILT_IN_TESTS.values());

/** A sample item by id; a missing one means the samples were rebuilt and the test must pick another. */
export function sampleItem(id: string): Item {
  const found = items.get(id);
  if (!found) throw new Error(`sample item ${id} is gone; pick another from data/samples`);
  return found;
}

/** A trial for marking outside a run. */
export function trialFor(it: Item): Trial {
  return { id: 't', runId: 'r', index: 0, itemId: it.id, itemHash: 'h', test: it.test, modelAlias: 'm', modelSpec: 'openai:m', promptVersion: 'v', repeat: 0, seed: 1 };
}

/** Mark outputs of an item with its test's headline scorer, as the engine does. */
export async function mark(id: string | Item, outputs: string[]): Promise<ScoreResult> {
  const it = typeof id === 'string' ? sampleItem(id) : id;
  const scorer = scorers.get(it.test)![0]!;
  return scorer.score({ item: it, trial: trialFor(it), outputs });
}

/** A tutor answer as JSON, with the fields a test does not set filled in. */
export const tutorAnswer = (answer: Record<string, unknown>): string => JSON.stringify({ wrong_span: null, correction: null, explanation: 'Because.', ...answer });
