import type { ModelSpec, PriceTable } from '../core/index.js';
import { costOf, estimateCost, priceFor } from '../providers/pricing.js';
import type { CostModel } from './call.js';

/**
 * Costs from the prices stored with a run, so a resumed run is priced as it started. A model
 * with no known price costs 0 (the CLI refuses a cost cap on such a model).
 */
export function pricedCosts(prices: PriceTable, models: ReadonlyArray<Pick<ModelSpec, 'alias' | 'spec'>>): CostModel {
  const priceOf = new Map(models.map(m => [m.alias, priceFor(prices, m.spec)]));
  return {
    costOf: (alias, usage) => {
      const p = priceOf.get(alias);
      return p ? costOf(p, usage) : 0;
    },
    estimate: (alias, request) => {
      const p = priceOf.get(alias);
      return p ? estimateCost(p, request) : 0;
    },
  };
}
