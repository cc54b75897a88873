import type { ChatRequest } from '../../core/chat-model.js';

/** Output tokens assumed when a request sets no `maxTokens`. */
export const DEFAULT_OUTPUT_TOKENS_ESTIMATE = 512;

/**
 * Input tokens assumed per image: above what either vendor charges for a 1280x720 slide (Anthropic
 * about w*h/750 = 1,229; OpenAI high detail 85 + 170 per 512px tile = 1,105), so a cap errs high.
 */
export const IMAGE_TOKENS_ESTIMATE = 1_600;

/**
 * Token counts guessed before a call, for cost caps and token rate limits. Input: ceil(chars / 4)
 * over every message plus the tool schemas, plus IMAGE_TOKENS_ESTIMATE per image (about 4 characters per token in English; no tokenizer,
 * so no vendor dependency). Output: `params.maxTokens`, else 512. Both err high for short answers,
 * which is the safe side for a cap.
 */
export function estimateRequestTokens(request: ChatRequest): { inputTokens: number; outputTokens: number } {
  let chars = 0;
  let images = 0;
  for (const message of request.messages) {
    chars += message.content.length;
    images += message.images?.length ?? 0;
  }
  if (request.tools) chars += JSON.stringify(request.tools).length;
  return {
    inputTokens: Math.ceil(chars / 4) + images * IMAGE_TOKENS_ESTIMATE,
    outputTokens: request.params.maxTokens ?? DEFAULT_OUTPUT_TOKENS_ESTIMATE,
  };
}
