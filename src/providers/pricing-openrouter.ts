import { z } from 'zod';
import type { ConfigIssue } from '../core/errors.js';
import type { ModelPrice } from '../core/prices.js';

/**
 * The body of OpenRouter's public models list (GET https://openrouter.ai/api/v1/models), saved to a
 * file: `{ data: [{ id, pricing: { prompt, completion, ... } }] }`, prices in USD per token as
 * decimal strings. Only the fields read here are checked; the rest of each entry is left alone.
 */
export const openRouterModelsSchema = z.looseObject({
  data: z.array(z.looseObject({
    id: z.string().min(1),
    pricing: z.looseObject({ prompt: z.string(), completion: z.string() }),
  })),
});

export const isOpenRouterModels = (json: unknown): boolean =>
  typeof json === 'object' && json !== null && Array.isArray((json as { data?: unknown }).data) && !('models' in json);

/** USD per token (a decimal string) as USD per million tokens, without binary noise (0.000003 -> 3). */
function perMillion(perToken: string): number {
  return Number((Number(perToken) * 1_000_000).toPrecision(12));
}

/**
 * Prices keyed by OpenRouter's model id (`anthropic/claude-sonnet-4`), which is the bare model of a
 * spec such as `openai:anthropic/claude-sonnet-4` at OpenRouter's endpoint. A negative price ("-1":
 * a router whose price depends on the model it picks) leaves the model unpriced, so its cost is
 * unknown; text that is not a number is an issue naming its entry.
 */
export function openRouterPrices(json: z.infer<typeof openRouterModelsSchema>, file: string, issues: ConfigIssue[]): Record<string, ModelPrice> {
  const models: Record<string, ModelPrice> = {};
  json.data.forEach((entry, i) => {
    const { prompt, completion } = entry.pricing;
    for (const [key, value] of [['prompt', prompt], ['completion', completion]] as const) {
      if (value.trim() === '' || !Number.isFinite(Number(value))) {
        issues.push({ file, field: `data.${i}.pricing.${key}`, message: `${entry.id}: expected USD per token as a decimal string, got "${value}"` });
      }
    }
    if (Number(prompt) >= 0 && Number(completion) >= 0) models[entry.id] = { input: perMillion(prompt), output: perMillion(completion) };
  });
  return models;
}
