import type { z } from 'zod';
import type { ChatParams } from '../../core/chat-model.js';
import { ConfigError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';

/**
 * The caller's vendor-only settings for one namespace, checked by that provider's schema.
 * Schemas are loose: unknown keys pass through verbatim (servers add settings faster than we can
 * list them); only keys we know get their types checked, and every bad one is reported at once.
 */
export function readProviderOptions(schema: z.ZodType, params: ChatParams, namespace: string): JsonObject {
  const options = params.providerOptions?.[namespace];
  if (options === undefined) return {};
  const checked = schema.safeParse(options);
  if (!checked.success) {
    throw new ConfigError(
      checked.error.issues.map(issue => ({
        field: ['providerOptions', namespace, ...issue.path.map(String)].join('.'),
        message: issue.message,
      })),
    );
  }
  return options;
}
