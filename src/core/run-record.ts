import type { ChatParams } from './chat-model.js';
import type { ModelSpec } from './model-spec.js';
import type { PriceTable } from './prices.js';

/** What a run was asked to do. Its hash is the run id, so the same command resumes the same run. */
export interface RunConfig {
  /** Item files or suite folders as given. */
  suites: string[];
  /** Sorted item version hashes actually planned. */
  itemHashes: string[];
  models: ModelSpec[];
  /**
   * Endpoint of each HTTP model by alias (base URL without credentials). Part of the run's identity;
   * a resumed run calls the same endpoints.
   */
  endpoints?: Record<string, string>;
  repeats: number;
  seed: number;
  params: ChatParams;
  /** Only these tests, when set. */
  tests?: string[];
  /** Aliases of the models that declared themselves baselines (reports label them). */
  baselines?: string[];
  /**
   * Upper bound on generated tokens sent with every request that sets none, so the cost cap
   * reserves each call's worst case. Runs stored before it existed have none (and send none).
   */
  maxTokens?: number;
}

export type RunStatus = 'running' | 'completed' | 'stopped' | 'failed';

/** A stored run. */
export interface RunRecord {
  id: string;
  /**
   * What kind of run it is (`suite`, `scenario`, ...): report, rescore and resume find the code
   * that knows it by this name. Runs stored before kinds existed are suite runs.
   */
  kind: string;
  createdAt: string;
  updatedAt: string;
  status: RunStatus;
  config: RunConfig;
  /** The prices in force for this run, stored so costs can be recomputed. */
  prices: PriceTable;
  paideiaVersion: string;
  /** Why the run stopped, when it did. */
  note?: string;
}
