import type { ChatModel, ConfigIssue, Store, TestDefinition, VersionedItem } from '../core/index.js';
import { eachRunItemPage } from '../store/run-item-pages.js';
import { loopTurns } from '../engine/loop-turns.js';
import { itemsIn } from './load.js';
import { PlanItems } from './plan.js';

/** Item bodies stored per transaction while item files are read. */
const SAVE_BATCH = 1000;
/** Stored items read per page when a run is reopened. */
const READ_PAGE = 5000;

/**
 * Who of the run's models cannot answer an item: a model that needs hints (a baseline answering
 * from the gold answer) and gets none from the item's test. Such pairs are "not applicable", not failed.
 */
export function unanswerableBy(models: ReadonlyMap<string, ChatModel>, tests: ReadonlyMap<string, TestDefinition>): (v: VersionedItem) => string[] {
  const needy = [...models].filter(([, m]) => m.needsHints?.length);
  return v => {
    if (needy.length === 0) return [];
    const hints = tests.get(v.item.test)?.render(v.item, [])?.hints;
    return needy.filter(([, m]) => !m.needsHints!.every(h => hints?.[h] !== undefined)).map(([alias]) => alias);
  };
}

/**
 * Every item must render under its test before anything runs: an input field the prompt template
 * needs but the item lacks is bad input (exit 2, file and line), not a crash mid-run.
 */
export function inputProblem(v: VersionedItem, tests: ReadonlyMap<string, TestDefinition>): ConfigIssue | undefined {
  const test = tests.get(v.item.test);
  if (!test) return undefined; // planTrials names unknown tests
  try {
    test.render(v.item, []);
    return undefined;
  } catch (e) {
    const message = (e as Error).message;
    const field = /\b(input(?:\.[\w-]+)*)/.exec(message)?.[1] ?? 'input';
    return { file: v.file, line: v.line, field, message: `test ${test.name} cannot use this item: ${message.replace(/^item [^:]+: /, '')}` };
  }
}

/**
 * Read and check item files, storing the body of each item `keep` takes as it goes (a
 * transaction per thousand) and keeping only what the plan needs of it (PlanItems), so planning
 * 200,000 items never holds every item at once. Every problem of every file is thrown together; bodies stored before
 * a problem was found stay stored (content-addressed, they are what the corrected files store again).
 * Returns the items and the tests the files hold.
 */
export async function planItemFiles(o: {
  store: Store;
  paths: string[];
  keep: (v: VersionedItem) => boolean;
  tests: ReadonlyMap<string, TestDefinition>;
  cannot: (v: VersionedItem) => string[];
}): Promise<{ items: PlanItems; present: Set<string> }> {
  const items = new PlanItems();
  const present = new Set<string>();
  const unknown = new Set<string>();
  const saving: Array<Promise<void>> = [];
  let batch: VersionedItem[] = [];
  let bad: unknown;
  // Reading 200,000 items takes seconds: the event loop turns meanwhile (Ctrl-C, a web server in the same process).
  const turns = loopTurns();
  try {
    for (const { item: v, issues } of itemsIn(o.paths)) {
      const turn = turns.due();
      if (turn) await turn;
      present.add(v.item.test);
      if (!o.keep(v)) continue;
      // An unknown test is named once, at its first item, with every other problem of the files.
      if (!o.tests.has(v.item.test) && !unknown.has(v.item.test)) {
        unknown.add(v.item.test);
        issues.push({ file: v.file, line: v.line, field: 'test', message: `unknown test "${v.item.test}"; known: ${[...o.tests.keys()].sort().join(', ')}` });
      }
      const problem = inputProblem(v, o.tests);
      if (problem) issues.push(problem);
      // With a problem found nothing will run: check on, keep nothing more.
      if (issues.length) continue;
      items.add(v, o.cannot(v));
      batch.push(v);
      if (batch.length === SAVE_BATCH) {
        saving.push(o.store.saveItems(batch));
        batch = [];
      }
    }
    if (batch.length) saving.push(o.store.saveItems(batch));
  } catch (e) {
    bad = e;
  }
  // Bad input is reported first; a store write that failed (a full disk) otherwise.
  const saved = await Promise.allSettled(saving);
  if (bad !== undefined) throw bad;
  const failed = saved.find(r => r.status === 'rejected');
  if (failed) throw failed.reason;
  return { items, present };
}

/** The plan items of a stored run, read a page at a time. */
export async function storedPlanItems(store: Store, runId: string, cannot: (v: VersionedItem) => string[]): Promise<PlanItems> {
  const items = new PlanItems();
  await eachRunItemPage(store, runId, READ_PAGE, page => {
    for (const v of page) items.add(v, cannot(v));
  });
  return items;
}
