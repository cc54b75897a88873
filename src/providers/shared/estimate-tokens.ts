import type { ChatRequest } from '../../core/chat-model.js';

/** Output tokens assumed when a request sets no `maxTokens`. */
export const DEFAULT_OUTPUT_TOKENS_ESTIMATE = 512;

/**
 * Token counts guessed before a call, for cost caps and token rate limits. Input: ceil(chars / 4)
 * over every message plus the tool schemas (about 4 characters per token in English; no tokenizer,
 * so no vendor dependency). Output: `params.maxTokens`, else 512. Both err high for short answers,
 * which is the safe side for a cap.
 */
export function estimateRequestTokens(request: ChatRequest): { inputTokens: number; outputTokens: number } {
  let chars = 0;
  for (const message of request.messages) chars += message.content.length;
  if (request.tools) chars += JSON.stringify(request.tools).length;
  return {
    inputTokens: Math.ceil(chars / 4),
    outputTokens: request.params.maxTokens ?? DEFAULT_OUTPUT_TOKENS_ESTIMATE,
  };
}
