import { deriveSeed } from '../engine/seed.js';
import { ConfigError, canonicalJson, sha256Hex, type ChatParams, type Item, type ModelSpec, type TestDefinition, type Trial, type VersionedItem } from '../core/index.js';

/** Step kind of item trials. */
export const ITEM_STEP = 'item';

/** What planning needs of an item: its version, test and id, and where it was read (for errors), not its body. */
export type PlannedItem = Pick<VersionedItem, 'hash' | 'file' | 'line'> & { item: Pick<Item, 'id' | 'test'> };

export interface PlanInput {
  runId: string;
  items: ReadonlyArray<PlannedItem>;
  models: ModelSpec[];
  tests: ReadonlyMap<string, TestDefinition>;
  repeats: number;
  seed: number;
  params: ChatParams;
  /** Whether a model can answer an item at all (default: always). Pairs it cannot are not planned. */
  applicable?: (model: ModelSpec, item: PlannedItem) => boolean;
}

/**
 * Trials = item x model x repeat, deduplicated by item content and ordered deterministically:
 * items are shuffled by the run seed (so a capped or interrupted run has sampled every test
 * evenly), then every model and repeat of an item follow one another.
 */
export function planTrials(input: PlanInput): Trial[] {
  const { runId, models, tests, repeats, seed, params } = input;
  if (!Number.isInteger(repeats) || repeats < 1) throw new ConfigError([{ field: '--repeats', message: 'must be a whole number >= 1' }]);
  const missing = [...new Set(input.items.map(v => v.item.test))].filter(t => !tests.has(t));
  if (missing.length) {
    throw new ConfigError(missing.map(t => {
      const where = input.items.find(v => v.item.test === t)!;
      return { file: where.file, line: where.line, field: 'test', message: `unknown test "${t}"; known: ${[...tests.keys()].sort().join(', ')}` };
    }));
  }
  const unique = new Map<string, PlannedItem>();
  for (const v of input.items) if (!unique.has(v.hash)) unique.set(v.hash, v);
  const ordered = [...unique.values()]
    .map(v => ({ v, key: deriveSeed(seed, v.hash) }))
    .sort((a, b) => a.key - b.key || (a.v.hash < b.v.hash ? -1 : 1))
    .map(x => x.v);

  const trials: Trial[] = [];
  const paramsJson = canonicalJson(params);
  for (const v of ordered) {
    const { item, hash } = v;
    const test = tests.get(item.test)!;
    for (const model of models) {
      if (input.applicable && !input.applicable(model, v)) continue;
      for (let repeat = 0; repeat < repeats; repeat++) {
        // The same item and repeat get the same seed for every model, so models face the same draw.
        const trialSeed = deriveSeed(seed, hash, repeat);
        const id = trialId({ itemHash: hash, model: model.spec, test: test.name, promptVersion: test.promptVersion, repeat, seed: trialSeed }, paramsJson);
        trials.push({
          id, runId, index: trials.length, itemId: item.id, itemHash: hash, test: test.name,
          modelAlias: model.alias, modelSpec: model.spec, promptVersion: test.promptVersion, repeat, seed: trialSeed,
          kind: ITEM_STEP, variant: 'default',
        });
      }
    }
  }
  return trials;
}

/**
 * A trial's id: the content hash of what it is (`contentHash` of these fields and the params),
 * written out in canonical key order by hand, since planning hashes every trial and the params'
 * JSON is the same for all of them.
 */
export function trialId(t: { itemHash: string; model: string; test: string; promptVersion: string; repeat: number; seed: number }, paramsJson: string): string {
  const q = JSON.stringify;
  return sha256Hex(`{"itemHash":${q(t.itemHash)},"model":${q(t.model)},"params":${paramsJson},"promptVersion":${q(t.promptVersion)},"repeat":${q(t.repeat)},"seed":${q(t.seed)},"test":${q(t.test)}}`, 16);
}
