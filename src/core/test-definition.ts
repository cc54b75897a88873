import type { ChatRequest, ChatResult } from './chat-model.js';
import type { Item } from './item.js';
import type { JsonObject } from './json.js';

/**
 * A benchmark test (the item's `test` field): how an item becomes requests and how answers are
 * marked. Tests declare what they are; the engine never switches on their names.
 */
export interface TestDefinition {
  readonly name: string;
  /** Version of the prompt template; part of every trial id. */
  readonly promptVersion: string;
  readonly description: string;
  /**
   * The request for the next step, given the results of earlier steps, or `null` when the trial is
   * complete. Single-call tests answer step 0 and then `null`.
   */
  render(item: Item, previous: ChatResult[]): ChatRequest | null;
  /** Scorers applied by default, by registered name with their arguments. */
  readonly scorers: ReadonlyArray<{ name: string; args?: JsonObject }>;
}
