import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { ConfigError, type JsonObject, type Store } from '../core/index.js';
import { commandHint } from '../core/command-hint.js';
import { buildBlindExport, HUMAN_PREFIX, importHumanRows, SCENARIO_RUN, scaleText, storeBlindKey, type BlindItem, type RubricColumn } from '../scenarios/index.js';

/** Where a run keeps its blind scoring tasks: by the hash of the task's secret, never the secret. */
export const BLIND_TASK_ARTIFACT = 'web-blind-task';

interface StoredTask { exportId: string; seed: number; rater: string; createdAt: string }

/** What an expert sees: the dialogues in this task's own shuffled order, no model named, and the rubric. */
export interface BlindTaskView {
  rater: string;
  items: BlindItem[];
  columns: Array<RubricColumn & { scale: string }>;
  /** Ids this expert has scored already. */
  scored: string[];
  /** What this expert saved for them, by id: the page shows it again, to be kept or changed. */
  saved: Record<string, { values: Record<string, number | boolean>; comment?: string }>;
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * A scoring task for one expert on one scenario run: a blind export with its own seed (so each
 * expert gets another order), its key stored in the run as `paideia scenario export` stores it,
 * and a secret that scopes the share link to this task alone.
 */
export async function createBlindTask(store: Store, runId: string, rater: string): Promise<{ path: string }> {
  // The rater name is checked now, as an import would check it, so a bad one fails before any link exists.
  if (!/^[\p{L}\p{N}_.@-]+$/u.test(rater.trim())) throw new ConfigError([{ field: 'rater', message: `"${rater}" is not a rater name: use letters, digits, _ . @ - (e.g. anna.k)` }]);
  const run = await store.getRun(runId);
  if (run && run.kind !== SCENARIO_RUN) {
    const template = commandHint(['validity', 'template', '--run', runId, '--out', 'experts.csv'], store.url);
    throw new ConfigError([{ field: 'run-id', message: `share links score a scenario run's dialogues; this is a ${run.kind} run: give experts the blank expert file of ${template} instead` }]);
  }
  const seed = randomInt(0, 2 ** 31);
  const x = await buildBlindExport(store, runId, seed);
  await storeBlindKey(store, x.key);
  const secret = randomBytes(24).toString('base64url');
  const task: StoredTask = { exportId: x.key.exportId, seed, rater: rater.trim(), createdAt: new Date().toISOString() };
  await store.putArtifact(runId, BLIND_TASK_ARTIFACT, hashOf(secret), task as unknown as JsonObject);
  return { path: `/score/${encodeURIComponent(runId)}/${secret}` };
}

async function taskOf(store: Store, runId: string, secret: string): Promise<StoredTask | undefined> {
  const wanted = Buffer.from(hashOf(secret));
  const found = (await store.listArtifacts(runId, BLIND_TASK_ARTIFACT)).find(a => a.key.length === wanted.length && timingSafeEqual(Buffer.from(a.key), wanted));
  return found?.value as unknown as StoredTask | undefined;
}

/** The task a share link opens, or undefined when the link is not one of this run's. */
export async function blindTaskView(store: Store, runId: string, secret: string): Promise<BlindTaskView | undefined> {
  const task = await taskOf(store, runId, secret);
  if (!task) return undefined;
  const x = await buildBlindExport(store, runId, task.seed);
  const byTrial = new Map(x.key.items.map(i => [i.trialId, i.id]));
  const mine = (await store.listScores(runId)).filter(s => s.scorer.name === `${HUMAN_PREFIX}${task.rater}` && byTrial.has(s.trialId));
  const saved: BlindTaskView['saved'] = {};
  for (const s of mine) {
    const d = (s.details ?? {}) as { fields?: Record<string, number | boolean>; comment?: string };
    saved[byTrial.get(s.trialId)!] = { values: d.fields ?? {}, ...(d.comment ? { comment: d.comment } : {}) };
  }
  return { rater: task.rater, items: x.items, columns: x.columns.map(c => ({ ...c, scale: scaleText(c) })), scored: mine.map(s => byTrial.get(s.trialId)!), saved };
}

/** Store one dialogue's scores from the share link, checked and saved exactly as a CSV import would be. */
export async function saveBlindScore(store: Store, runId: string, secret: string, row: { id: string; values: Record<string, unknown>; comment?: string }): Promise<boolean> {
  const task = await taskOf(store, runId, secret);
  if (!task) return false;
  await importHumanRows(store, runId, {
    rater: task.rater, file: `web-${task.exportId}`,
    rows: () => [{ row: 1, id: row.id, values: row.values, ...(row.comment ? { comment: row.comment } : {}) }],
  });
  return true;
}
