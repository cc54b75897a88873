import type { CallRecord } from './call-record.js';
import type { ChatResult } from './chat-model.js';
import type { VersionedItem } from './item.js';
import type { JsonValue } from './json.js';
import type { RunRecord, RunStatus } from './run-record.js';
import type { Score } from './scorer.js';
import type { Trial } from './trial.js';

/** Who is running a run: one process at a time, so no trial is called twice and a cost cap holds. */
export interface RunLease {
  /** Random id of the holding process's run session. */
  holderId: string;
  pid: number;
  host: string;
  /** ISO time the lease was taken. */
  since: string;
  /** Milliseconds since the epoch after which the lease is void unless renewed. */
  expiresAt: number;
}

/**
 * The one store interface. SQLite (embedded default) and PostgreSQL implement it; nothing above
 * it may assume either. Every write is durable when its promise resolves.
 */
export interface Store {
  readonly specVersion: 'paideia.store.v1';
  /** `sqlite:<path>` or `postgres://...` with any password removed. */
  readonly url: string;
  /** Create or migrate the schema. Safe to call on every start. */
  init(): Promise<void>;
  close(): Promise<void>;

  /** Insert the run, or keep the stored one if it exists (returns the stored record). */
  openRun(run: RunRecord): Promise<RunRecord>;
  getRun(id: string): Promise<RunRecord | undefined>;
  listRuns(): Promise<RunRecord[]>;
  setRunStatus(id: string, status: RunStatus, note?: string): Promise<void>;

  /** Store item versions; existing versions are left as they are. */
  saveItems(items: VersionedItem[]): Promise<void>;
  /** Items planned in a run, by version hash. */
  listRunItems(runId: string): Promise<VersionedItem[]>;

  /** Store planned trials; existing ones are left as they are. */
  saveTrials(trials: Trial[]): Promise<void>;
  listTrials(runId: string): Promise<Trial[]>;

  /** Append one call record, durably, before the promise resolves. */
  saveCall(call: CallRecord): Promise<void>;
  /** Every call of a run in insertion order. */
  listCalls(runId: string): Promise<CallRecord[]>;
  /** The result of the newest successful call with this request hash, in any run. */
  findCachedResult(requestHash: string): Promise<ChatResult | undefined>;

  /** Store scores, replacing any earlier score of the same trial by the same scorer name and version. */
  saveScores(scores: Score[]): Promise<void>;
  listScores(runId: string): Promise<Score[]>;

  /** The current lease on a run, if any (who is running it, until when). */
  getRunLease(runId: string): Promise<RunLease | undefined>;
  /**
   * Set the lease atomically if the stored holder is still `expectedHolderId` (`null`: no lease
   * stored). False when another process changed it first. `lease: null` releases it.
   */
  swapRunLease(runId: string, expectedHolderId: string | null, lease: RunLease | null): Promise<boolean>;

  /** Free-form, namespaced artefacts of later stages (judgments, dialogues, study data). */
  putArtifact(runId: string, kind: string, key: string, value: JsonValue): Promise<void>;
  listArtifacts(runId: string, kind: string): Promise<Array<{ key: string; value: JsonValue }>>;
}
