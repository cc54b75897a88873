import { ConfigError, type ModelSpec, type PriceTable, type Store } from '../core/index.js';
import { costOf, estimateCost, loadPriceTable, priceFor, priceTableName, unpricedReason } from '../providers/pricing.js';
import type { CostModel } from './call.js';

/**
 * The table a run prices with: the one stored with it once it is planned (a resume by id or a
 * worker gives no price file, and the file may be gone), else `file` (default the shipped table).
 */
export async function runPrices(store: Store, runId: string, file: string | undefined): Promise<PriceTable> {
  return (await store.getRun(runId))?.prices ?? loadPriceTable(file);
}

/**
 * Costs from the prices stored with a run, so a resumed run is priced as it started. A model
 * with no known price costs 0 and its cost is reported unknown (a cost cap on it is refused).
 */
export function pricedCosts(
  prices: PriceTable, models: ReadonlyArray<Pick<ModelSpec, 'alias' | 'spec'>>, endpointOf: (alias: string) => string | undefined = () => undefined,
): CostModel {
  // A vendor's list price applies only at the vendor's endpoint (priceFor says when).
  const priceOf = new Map(models.map(m => {
    const endpoint = endpointOf(m.alias);
    return [m.alias, priceFor(prices, m.spec, endpoint ? { endpoint } : {})];
  }));
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

/** The specs among `specs` that `prices` cannot price by name (their cost is reported unknown). */
export function unpricedSpecs(prices: PriceTable, specs: ReadonlyArray<string>): string[] {
  return [...new Set(specs)].filter(spec => !priceFor(prices, spec));
}

/**
 * Refuse a cost cap (bad input, exit 2) when a model the run calls has no price where it is called.
 * A vendor's list price does not apply at another endpoint (a proxy, a gateway, a local server),
 * where the run counts the model's calls at $0: a cap over them would never stop anything. Called
 * once the models are built (their endpoints known) and before the run is planned.
 */
export function refuseCapWithoutPrices(
  prices: PriceTable, models: Iterable<{ spec: ModelSpec | string; endpoint?: string | undefined }>, capUsd: number | undefined,
): void {
  if (capUsd === undefined) return;
  const reasons = new Set<string>();
  for (const m of models) {
    const why = unpricedReason(prices, m.spec, m.endpoint ? { endpoint: m.endpoint } : {});
    if (why) reasons.add(why);
  }
  if (reasons.size) throw new ConfigError([{ field: '--cost-cap', message: `${[...reasons].join('; ')}; or drop --cost-cap (a cap cannot hold for calls of unknown cost)` }]);
}
