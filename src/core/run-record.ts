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
}

export type RunStatus = 'running' | 'completed' | 'stopped' | 'failed';

/** A stored run. */
export interface RunRecord {
  id: string;
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
