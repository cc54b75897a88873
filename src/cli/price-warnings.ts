import type { ChatModel, ModelSpec, PriceTable } from '../core/index.js';
import { priceFor, unpricedReason } from '../providers/pricing.js';

/**
 * Warn about models the table prices by name but that are served away from their vendor (a local
 * vLLM or llama.cpp behind `--base-url`): the report gives their cost as unknown, with this reason.
 */
export function warnOffVendorPrices(specs: ModelSpec[], models: ReadonlyMap<string, ChatModel>, table: PriceTable): void {
  for (const spec of specs) {
    const endpoint = models.get(spec.alias)?.endpoint;
    if (!endpoint || !priceFor(table, spec)) continue;
    const why = unpricedReason(table, spec, { endpoint });
    if (why) process.stderr.write(`warning: ${why}; its cost is reported as unknown\n`);
  }
}
