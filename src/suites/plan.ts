import { deriveSeed } from '../engine/seed.js';
import type { TrialSource } from '../engine/trial-source.js';
import { column, interner } from '../core/columns.js';
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
 * Items as a plan keeps them: per item its version hash, id, test and place, a column each, and
 * the models that cannot answer it. No object per item: a plan of 200,000 items holds their
 * hashes and ids and a few arrays, not 400,000 small objects.
 */
export class PlanItems {
  private readonly hashes: string[] = [];
  private readonly ids: string[] = [];
  // Test, file and line by a number each: a few bytes an item instead of three references.
  private readonly tests = interner();
  private readonly testOf = column('u32');
  private readonly files = interner();
  private readonly fileOf = column('u32');
  private readonly lineOf = column('u32');
  private readonly unable = new Map<number, ReadonlyArray<string>>();
  // The columns' views, made once items stop coming (planning reads them for every item).
  private views: { test: Uint32Array; file: Uint32Array; line: Uint32Array } | undefined;

  get length(): number {
    return this.hashes.length;
  }

  /** Add an item; `cannot`: aliases of the run's models that cannot answer it (not planned). */
  add(v: PlannedItem, cannot?: ReadonlyArray<string>): void {
    const i = this.hashes.length;
    this.views = undefined;
    this.hashes.push(v.hash);
    this.ids.push(v.item.id);
    this.testOf.push(this.tests.code(v.item.test));
    this.fileOf.push(this.files.code(v.file));
    // 0: no line (lines count from 1).
    this.lineOf.push(v.line ?? 0);
    if (cannot?.length) this.unable.set(i, cannot);
  }

  hash(i: number): string {
    return this.hashes[i]!;
  }

  id(i: number): string {
    return this.ids[i]!;
  }

  test(i: number): string {
    return this.tests.text(this.view().test[i]!)!;
  }

  /** The models that cannot answer item `i` (none: every model can). */
  cannot(i: number): ReadonlyArray<string> | undefined {
    return this.unable.get(i);
  }

  /** Item `i` as a PlannedItem (made now: for a message, or a caller's own test of it). */
  entry(i: number): PlannedItem {
    const file = this.files.text(this.view().file[i]!);
    const line = this.view().line[i]!;
    return { hash: this.hashes[i]!, item: { id: this.ids[i]!, test: this.test(i) }, ...(file !== undefined ? { file } : {}), ...(line !== 0 ? { line } : {}) };
  }

  private view(): NonNullable<PlanItems['views']> {
    return (this.views ??= { test: this.testOf.view(), file: this.fileOf.view(), line: this.lineOf.view() });
  }

  /** Every distinct version hash, sorted (what a run's config names). */
  sortedHashes(): string[] {
    return [...new Set(this.hashes)].sort();
  }
}

/**
 * Trials = item x model x repeat, deduplicated by item content and ordered deterministically:
 * items are shuffled by the run seed (so a capped or interrupted run has sampled every test
 * evenly), then every model and repeat of an item follow one another.
 */
export function planTrials(input: PlanInput): Trial[] {
  const { items: given, applicable, ...rest } = input;
  const items = new PlanItems();
  for (const v of given) items.add(v);
  const table = planTrialTable({ ...rest, items, ...(applicable ? { applicable: (model: ModelSpec, i: number) => applicable(model, items.entry(i)) } : {}) });
  return Array.from({ length: table.size }, (_, k) => table.at(k));
}

/** What planTrialTable plans from: planTrials' input with the items as columns. */
export interface PlanTableInput extends Omit<PlanInput, 'items' | 'applicable'> {
  items: PlanItems;
  /** Whether a model can answer the item at this place of `items` (default: always). */
  applicable?: (model: ModelSpec, item: number) => boolean;
}

/**
 * The plan of planTrials as a trial source: per trial its id and a few numbers (item, model,
 * repeat, seed), per item its id and hash, so a plan of 200,000 trials holds a few typed columns
 * instead of 200,000 objects, and each trial is made when the engine takes it.
 */
export function planTrialTable(input: PlanTableInput): TrialSource {
  const { runId, items, models, tests, repeats, seed, params } = input;
  if (!Number.isInteger(repeats) || repeats < 1) throw new ConfigError([{ field: '--repeats', message: 'must be a whole number >= 1' }]);
  const first = new Map<string, number>();
  for (let i = 0; i < items.length; i++) if (!tests.has(items.test(i)) && !first.has(items.test(i))) first.set(items.test(i), i);
  if (first.size) {
    throw new ConfigError([...first].map(([t, i]) => {
      const where = items.entry(i);
      return { file: where.file, line: where.line, field: 'test', message: `unknown test "${t}"; known: ${[...tests.keys()].sort().join(', ')}` };
    }));
  }
  // Distinct versions (the first place of each), in the order of their seeded keys.
  const seen = new Set<string>();
  const places: number[] = [];
  for (let i = 0; i < items.length; i++) {
    if (seen.has(items.hash(i))) continue;
    seen.add(items.hash(i));
    places.push(i);
  }
  seen.clear();
  const keys = new Float64Array(items.length);
  for (const i of places) keys[i] = deriveSeed(seed, items.hash(i));
  places.sort((a, b) => keys[a]! - keys[b]! || (items.hash(a) < items.hash(b) ? -1 : 1));
  return trialTable({
    runId, items, order: places, models, tests, repeats, seed, paramsJson: canonicalJson(params), applicable: input.applicable ?? (() => true),
  });
}

/**
 * The table of planTrialTable over items in plan order. A function of its own: the table's
 * closures share one scope, which must not hold the plan input (every plan entry would stay
 * alive for the whole run).
 */
function trialTable(o: {
  runId: string; items: PlanItems; order: ReadonlyArray<number>; models: ReadonlyArray<ModelSpec>; tests: ReadonlyMap<string, TestDefinition>;
  repeats: number; seed: number; paramsJson: string; applicable: NonNullable<PlanTableInput['applicable']>;
}): TrialSource {
  const { runId, models, repeats } = o;
  // Per item (in plan order): its hash, id and test; per trial: its id, item, model, repeat and
  // seed. Plain loops: a closure here naming `o` would put it, and every plan item, in that scope.
  const n = o.order.length;
  const hashes = columnBuilder();
  const itemIds = columnBuilder();
  const itemTest: TestDefinition[] = new Array(n);
  const most = n * models.length * repeats;
  const trialIds = columnBuilder();
  const itemOf = new Uint32Array(most);
  const modelOf = new Uint32Array(most);
  const repeatOf = new Uint32Array(most);
  const seedOf = new Uint32Array(most);
  const seeds = new Array<number>(repeats);
  // Models that share their spec with another of the run's (the same model under two aliases, at
  // two endpoints, say) are told apart by their alias in the trial id.
  const shared = models.map(m => models.some(other => other !== m && other.spec === m.spec));
  let size = 0;
  for (let i = 0; i < n; i++) {
    const place = o.order[i]!;
    const hash = o.items.hash(place);
    const test = o.tests.get(o.items.test(place))!;
    hashes.push(hash);
    itemIds.push(o.items.id(place));
    itemTest[i] = test;
    // The same item and repeat get the same seed for every model, so models face the same draw.
    for (let repeat = 0; repeat < repeats; repeat++) seeds[repeat] = deriveSeed(o.seed, hash, repeat);
    for (let m = 0; m < models.length; m++) {
      const model = models[m]!;
      if (!o.applicable(model, place)) continue;
      for (let repeat = 0; repeat < repeats; repeat++) {
        const k = size++;
        const fields = { itemHash: hash, model: model.spec, test: test.name, promptVersion: test.promptVersion, repeat, seed: seeds[repeat]! };
        trialIds.push(trialId(shared[m] ? { alias: model.alias, ...fields } : fields, o.paramsJson));
        itemOf[k] = i;
        modelOf[k] = m;
        repeatOf[k] = repeat;
        seedOf[k] = seeds[repeat]!;
      }
    }
  }
  const ids = trialIds.done();
  const itemHash = hashes.done();
  const itemId = itemIds.done();
  let positions: Map<string, number> | undefined;
  return {
    size,
    idAt: ids,
    at(k) {
      const i = itemOf[k]!;
      const test = itemTest[i]!;
      const model = models[modelOf[k]!]!;
      return {
        id: ids(k), runId, index: k, itemId: itemId(i), itemHash: itemHash(i), test: test.name,
        modelAlias: model.alias, modelSpec: model.spec, promptVersion: test.promptVersion, repeat: repeatOf[k]!, seed: seedOf[k]!,
        kind: ITEM_STEP, variant: 'default',
      };
    },
    positionOf(id) {
      if (!positions) {
        positions = new Map();
        for (let k = 0; k < size; k++) positions.set(ids(k), k);
      }
      return positions.get(id);
    },
  };
}

/**
 * Strings kept as one text and where each ends (4 bytes each) instead of a string object apiece:
 * 200,000 ids of 16 characters are 3.2 MB this way, ~8 MB as strings in an array. They are joined
 * a thousand at a time as they come, so the column never holds every string on its way either.
 * Reading one slices the text (V8 makes a slice of 13 or more characters a view, not a copy).
 */
function columnBuilder(): { push(value: string): void; done(): (i: number) => string } {
  const parts: string[] = [];
  let pending: string[] = [];
  const ends: number[] = [];
  let at = 0;
  return {
    push(value) {
      pending.push(value);
      ends.push((at += value.length));
      if (pending.length === 1000) {
        parts.push(pending.join(''));
        pending = [];
      }
    },
    // The reader is made by a function of its own: made here, it would share this scope and keep
    // the parts and ends alive with it (6 MB of parts at 200,000 ids).
    done: () => reader([...parts, pending.join('')].join(''), Uint32Array.from(ends)),
  };
}

/** Read the i-th string of a column: a closure over the text and the ends alone. */
function reader(text: string, end: Uint32Array): (i: number) => string {
  return i => text.slice(i === 0 ? 0 : end[i - 1], end[i]);
}

/**
 * A trial's id: the content hash of what it is (`contentHash` of these fields and the params),
 * written out in canonical key order by hand, since planning hashes every trial and the params'
 * JSON is the same for all of them. `alias` is part of it only when the run has another model of
 * the same spec (one model at two endpoints): otherwise the two would be one trial.
 */
export function trialId(t: { alias?: string; itemHash: string; model: string; test: string; promptVersion: string; repeat: number; seed: number }, paramsJson: string): string {
  const q = JSON.stringify;
  const alias = t.alias !== undefined ? `"alias":${q(t.alias)},` : '';
  return sha256Hex(`{${alias}"itemHash":${q(t.itemHash)},"model":${q(t.model)},"params":${paramsJson},"promptVersion":${q(t.promptVersion)},"repeat":${q(t.repeat)},"seed":${q(t.seed)},"test":${q(t.test)}}`, 16);
}
