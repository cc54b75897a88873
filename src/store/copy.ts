import { commandHint } from '../core/command-hint.js';
import { ConfigError, type CallRecord, type RunRowCounts, type Store } from '../core/index.js';
import { blobHashesOf } from './blob-refs.js';
import { copyBlobs } from './copy-blobs.js';

/** What a copy moved. */
export interface CopyCounts extends RunRowCounts {
  /** Blobs the run's values point at that were copied (the target lacked them). */
  blobs: number;
  /** Blobs the run points at that the source store does not hold. */
  missingBlobs: string[];
}

const PAGE = 5000;

/**
 * Copy one run, everything stored with it, from one store to another (SQLite to PostgreSQL or
 * back): the run record with its status, its items, trials and their outcomes, every call in
 * order, scores, judgments and artefacts. Calls get new sequence numbers in the target, and the
 * judgments that point at a call are pointed at its copy. The blobs its values point at (slides,
 * decks, images) go along by content, checked against their hashes, each before the first row
 * that names it. A run the target already holds is refused, so a copy never mixes two histories.
 * Claims and reservations (live state) stay behind.
 */
export async function copyRun(from: Store, to: Store, runId: string): Promise<CopyCounts> {
  const run = await from.getRun(runId);
  if (!run) throw new ConfigError([{ field: '--run', message: `no run "${runId}" in ${from.url}; list runs with: ${commandHint(['runs'], from.url)}` }]);
  if (await to.getRun(runId)) throw new ConfigError([{ field: 'TO', message: `${to.url} holds run ${runId} already; copy into another store, or leave it there` }]);
  // The record as it is, status, note and updatedAt included: a copy is not an update of the run.
  await to.openRun(run);
  await to.saveItems(await from.listRunItems(runId));
  const trials = await from.listTrials(runId);
  await to.saveTrials(trials);
  const blobs = { copied: 0, missing: [] as string[] };
  const withBlobs = async (values: unknown[]) => {
    const got = await copyBlobs(from, to, blobHashesOf(values));
    blobs.copied += got.copied;
    blobs.missing.push(...got.missing);
  };
  const seqOf = await copyCalls(from, to, runId, page => withBlobs(page.flatMap(c => [c.request, c.result])));
  const scores = await from.listScores(runId);
  const judgments = (await from.listJudgments(runId)).map(j => (j.callSeq === null ? j : { ...j, callSeq: seqOf.get(j.callSeq) ?? null }));
  await withBlobs([...scores.map(x => x.details), ...judgments]);
  for (const [trialId, status] of await from.listTrialStatuses(runId)) await to.saveTrialResult({ runId, trialId, status });
  await to.saveScores(scores);
  await to.saveJudgments(judgments);
  let artifacts = 0;
  for (const kind of await from.listArtifactKinds(runId)) {
    const list = await from.listArtifacts(runId, kind);
    await withBlobs(list.map(a => a.value));
    for (const a of list) {
      await to.putArtifact(runId, kind, a.key, a.value);
      artifacts++;
    }
  }
  return {
    runId, trials: trials.length, calls: seqOf.size, scores: scores.length, judgments: judgments.length, artifacts,
    blobs: blobs.copied, missingBlobs: [...new Set(blobs.missing)],
  };
}

/** Copies in flight at once; only one trial's own calls must keep their order. */
const PARALLEL = 32;

/**
 * Every call of the run, a page at a time. Calls of one trial are written in their order (the
 * newest call of a step is the one that counts); different trials go in parallel. Returns the new
 * sequence number of each old one, matched per trial by order.
 */
async function copyCalls(from: Store, to: Store, runId: string, before: (page: CallRecord[]) => Promise<void>): Promise<Map<number, number>> {
  const oldByTrial = new Map<string, number[]>();
  for (let after = 0; ;) {
    const page = await from.listCalls(runId, { afterSeq: after, limit: PAGE });
    await before(page);
    const groups = new Map<string, typeof page>();
    for (const c of page) (groups.get(c.trialId) ?? groups.set(c.trialId, []).get(c.trialId)!).push(c);
    const queue = [...groups.values()];
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      for (let g = queue.shift(); g; g = queue.shift()) {
        for (const { seq, ...call } of g) {
          await to.saveCall(call);
          (oldByTrial.get(call.trialId) ?? oldByTrial.set(call.trialId, []).get(call.trialId)!).push(seq!);
        }
      }
    }));
    if (page.length < PAGE) break;
    after = page.at(-1)!.seq!;
  }
  const seqOf = new Map<number, number>();
  const seen = new Map<string, number>();
  for (let after = 0; ;) {
    const page = await to.listCalls(runId, { afterSeq: after, limit: PAGE });
    for (const c of page) {
      const i = seen.get(c.trialId) ?? 0;
      seen.set(c.trialId, i + 1);
      seqOf.set(oldByTrial.get(c.trialId)![i]!, c.seq!);
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.seq!;
  }
  return seqOf;
}
