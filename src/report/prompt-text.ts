import type { Item, TestDefinition } from '../core/index.js';
import { clipText, MAX_REPORT_TEXT } from './clip.js';

/** One message of the prompt a model saw, cut like every other report text. */
export interface PromptMessage {
  role: string;
  content: string;
}

/**
 * The first request a test sends for an item, rendered again from the stored item by the test's
 * own template: what the model read, rather than the item's structured input. Null when the test
 * is unknown to this version or cannot render the item (the report then shows the input as JSON).
 */
export function promptOf(test: TestDefinition | undefined, item: Item): PromptMessage[] | null {
  if (!test) return null;
  try {
    const request = test.render(item, []);
    return request ? request.messages.map(m => ({ role: m.role, content: clipText(m.content, MAX_REPORT_TEXT).text })) : null;
  } catch {
    return null;
  }
}
