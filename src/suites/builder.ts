import type { Item } from '../core/item.js';

/** Why a builder produced fewer items than asked, in words a maintainer can act on. */
export interface Shortfall {
  test: string;
  wanted: number;
  got: number;
  reason: string;
}

/** Inputs every builder gets. */
export interface BuildContext {
  /** Folder holding the source folders (bunamo/, irish-sentence-bank/, blimp/, or a user's own). */
  sourcesDir: string;
  /** Seed of every random choice; the same seed and sources give byte-identical items. */
  seed: number;
  /** How many items to aim for in the full (private) set of each test. */
  targetPerTest: number;
}

/** What a builder returns. Items carry every design.md field; none of their answers was written by a model. */
export interface BuildResult {
  items: Item[];
  shortfalls: Shortfall[];
}

/**
 * Builds the items of one test of one suite from licensed sources, by a documented rule.
 * `rule` is shown in `paideia suites build --help` and in the build report.
 */
export interface TestBuilder {
  readonly suite: string;
  readonly test: string;
  /** How answers are copied or derived from source records, in plain words. */
  readonly rule: string;
  build(ctx: BuildContext): BuildResult | Promise<BuildResult>;
}
