import { existsSync, statSync } from 'node:fs';
import { FILE_LIMITS, readUserFile } from '../core/user-file.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ChatRequest, TokenUsage } from '../core/chat-model.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import type { ModelSpec } from '../core/model-spec.js';
import type { ModelPrice, PriceTable } from '../core/prices.js';
import { isOpenRouterModels, openRouterModelsSchema, openRouterPrices } from './pricing-openrouter.js';
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
  const zodIssues = (issues: z.core.$ZodIssue[]) => issues.map(issue => ({ file: path, field: issue.path.map(String).join('.') || '(root)', message: issue.message }));
  if (isOpenRouterModels(json)) {
    const checked = openRouterModelsSchema.safeParse(json);
    if (!checked.success) throw new ConfigError(zodIssues(checked.error.issues));
    const issues: ConfigIssue[] = [];
    const models = openRouterPrices(checked.data, path, issues);
    if (issues.length) throw new ConfigError(issues);
    // The list carries no date: the day the file was saved is the day the prices were read.
    return { source: path, date: statSync(path).mtime.toISOString().slice(0, 10), models };
  }
  const checked = tableSchema.safeParse(json);
  if (!checked.success) throw new ConfigError(zodIssues(checked.error.issues));
  return { source: file ?? 'built-in', date: checked.data.date, models: checked.data.models };
}

/** Hosts whose list prices the built-in table holds, by provider. */
const VENDOR_HOSTS: Record<string, string> = { openai: 'api.openai.com', anthropic: 'api.anthropic.com' };

/**
 * Whether `table` prices a model served at `endpoint`. The built-in table holds vendors' list
 * prices: a model behind another base URL (a local vLLM, llama.cpp or Ollama, a router) is not
 * charged them. A table the user gave (`--prices`) prices whatever it names, wherever it is served.
 */
function appliesAt(table: PriceTable, provider: string, endpoint: string | undefined): boolean {
  const vendor = VENDOR_HOSTS[provider];
  if (table.source !== 'built-in' || !endpoint || !vendor) return true;
  try {
    return new URL(endpoint).host === vendor;
  } catch {
    return false;
  }
}

/**
 * The price of a model: the exact `provider:model` key, then the bare model name (the same model
 * served through another OpenAI-compatible endpoint usually costs the same), then `provider:*`
 * (how baselines and replays are priced at 0). Undefined means unknown: the report says so
 * rather than printing $0. With `o.endpoint` away from the vendor, the built-in table prices
 * nothing (see appliesAt).
 */
export function priceFor(table: PriceTable, spec: ModelSpec | string, o: PriceOptions = {}): ModelPrice | undefined {
  const { full, provider, model } = splitSpec(spec);
  if (!appliesAt(table, provider, o.endpoint)) return undefined;
  return table.models[full] ?? table.models[model] ?? (provider ? table.models[`${provider}:*`] : undefined);
}

export interface PriceOptions {
  /**
   * Base URL the model is served from (a run's `config.endpoints[alias]`). Given and not the
   * vendor's, the built-in list prices do not apply. Left out: priced as before, by name alone.
   */
  endpoint?: string;
}

/** Why a model has no price (its cost is unknown, not $0), or undefined when it has one. */
export function unpricedReason(table: PriceTable, spec: ModelSpec | string, o: PriceOptions = {}): string | undefined {
  if (priceFor(table, spec, o)) return undefined;
  const { full, provider } = splitSpec(spec);
  if (priceFor(table, spec)) {
    return `${full} is served from ${o.endpoint}, not ${VENDOR_HOSTS[provider]}: the vendor's list price does not apply there; give --prices FILE naming ${full} (OpenRouter's models list JSON is read as is)`;
  }
  return `no price for ${full} in ${priceTableName(table)}; give --prices FILE naming it`;
}

/** How a message names a price table: the shipped one, or the file it came from. */
export function priceTableName(table: PriceTable): string {
  return table.source === 'built-in' ? 'the built-in price table' : table.source;
}

function splitSpec(spec: ModelSpec | string): { full: string; provider: string; model: string } {
  const full = typeof spec === 'string' ? spec : spec.spec;
  const sep = full.indexOf(':');
  return { full, provider: sep > 0 ? full.slice(0, sep) : '', model: sep > 0 ? full.slice(sep + 1) : full };
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
