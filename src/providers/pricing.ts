import { existsSync } from 'node:fs';
import { FILE_LIMITS, readUserFile } from '../core/user-file.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ChatRequest, TokenUsage } from '../core/chat-model.js';
import { ConfigError } from '../core/errors.js';
import type { ModelSpec } from '../core/model-spec.js';
import type { ModelPrice, PriceTable } from '../core/prices.js';
import { estimateRequestTokens } from './shared/estimate-tokens.js';

export { DEFAULT_OUTPUT_TOKENS_ESTIMATE, estimateRequestTokens } from './shared/estimate-tokens.js';

const priceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
});

const tableSchema = z.looseObject({
  date: z.iso.date(),
  models: z.record(z.string().min(1), priceSchema),
});

/**
 * The price table shipped in `data/prices.json`, found from this module's own location so it
 * resolves the same from `src/providers/` (tests, tsx) and `dist/src/providers/` (the package).
 */
export function defaultPriceFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'data', 'prices.json');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new ConfigError('the built-in price table data/prices.json was not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** Reads and checks a price table; every bad field is reported at once, by file and dot-path. */
export function loadPriceTable(file?: string): PriceTable {
  const path = file ?? defaultPriceFile();
  const text = readUserFile(path, 'price table', FILE_LIMITS.config);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([{ file: path, message: `the price table is not valid JSON: ${(error as Error).message}` }], { cause: error });
  }
  const checked = tableSchema.safeParse(json);
  if (!checked.success) {
    throw new ConfigError(checked.error.issues.map(issue => ({ file: path, field: issue.path.map(String).join('.') || '(root)', message: issue.message })));
  }
  return { source: file ?? 'built-in', date: checked.data.date, models: checked.data.models };
}

/**
 * The price of a model: the exact `provider:model` key, then the bare model name (the same model
 * served through another OpenAI-compatible endpoint usually costs the same), then `provider:*`
 * (how baselines and replays are priced at 0). Undefined means unknown: the report says so
 * rather than printing $0.
 */
export function priceFor(table: PriceTable, spec: ModelSpec | string): ModelPrice | undefined {
  const full = typeof spec === 'string' ? spec : spec.spec;
  const sep = full.indexOf(':');
  const provider = sep > 0 ? full.slice(0, sep) : '';
  const model = sep > 0 ? full.slice(sep + 1) : full;
  return table.models[full] ?? table.models[model] ?? (provider ? table.models[`${provider}:*`] : undefined);
}

/** USD for tokens actually used. */
export function costOf(price: ModelPrice, usage: TokenUsage): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/**
 * USD a request could cost before it is sent, for the cost cap: input tokens ceil(chars / 4) over
 * all messages and tool schemas, output tokens `params.maxTokens` or 512 (see estimateRequestTokens).
 */
export function estimateCost(price: ModelPrice, request: ChatRequest): number {
  return costOf(price, estimateRequestTokens(request));
}
