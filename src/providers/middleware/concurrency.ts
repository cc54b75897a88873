import type { ChatResult } from '../../core/chat-model.js';
import { createSemaphore } from '../shared/semaphore.js';
import type { ChatModelMiddleware } from './wrap.js';

/** At most `limit` calls in flight; the rest wait in arrival order. */
export function concurrencyMiddleware(settings: { limit: number }): ChatModelMiddleware {
  const slots = createSemaphore(Math.max(1, Math.floor(settings.limit)));
  return {
    name: 'concurrency',
    wrapGenerate: function generateWithSlot({ doGenerate, options }): Promise<ChatResult> {
      return slots.run(doGenerate, options.signal);
    },
  };
}
