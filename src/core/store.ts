import type { BlobRef } from './blob.js';
import type { CallRecord } from './call-record.js';
import type { ChatResult } from './chat-model.js';
import type { TrialClaim, WorkerIdentity, WriteFence } from './claim.js';
import type { VersionedItem } from './item.js';
import type { JsonValue } from './json.js';
import type { Judgment } from './judgment.js';
import type { RunRecord, RunStatus } from './run-record.js';
import type { Score } from './scorer.js';
import type { Trial, TrialStatus } from './trial.js';
import type { TrialPage, TrialPageRequest } from './trial-page.js';

/** A page of a large read: `afterSeq` of the last row read, `limit` rows at most. */
export interface CallPage {
  afterSeq?: number;
  limit?: number;
  /** Only these trials' calls. */
  trialIds?: ReadonlyArray<string>;
}

/** A window on a run's top-level trials in plan order: `limit` of them after skipping `offset`. */
export interface TrialWindow {
  /** Trials skipped before the first one returned (0: from the start). */
  offset: number;
  /** Most trials returned. */
  limit: number;
}

/** One window of a run's top-level trials and how many there are in all. */
export interface TrialWindowPage {
  /** The window's trials, in plan order (empty past the end). */
  trials: Trial[];
  /** Top-level trials of the run (those that judge no other trial), whatever the window. */
  total: number;
}

/** How many of a run's trials of one step kind stand at one status. */
export interface TrialStatusCount {
  /** The step kind; null for trials stored before kinds existed (item trials). */
  kind: string | null;
  status: TrialStatus;
  trials: number;
  /** Plan index of the group's first trial (kinds are listed in the order they first appear). */
  firstIndex: number;
}

/** Restricts a run-wide read to some trials; without it the read covers the whole run. */
export interface TrialIdFilter {
  /** Only rows of these trials (ids that the run does not hold match nothing). */
  trialIds?: ReadonlyArray<string>;
}

/** Restricts a read of judgments to those of some judged trials; without it the read covers the whole run. */
export interface JudgmentFilter {
  /** Only judgments whose `targetTrialId` is one of these. */
  targetTrialIds?: ReadonlyArray<string>;
}

/** What a finished (or failed) trial leaves besides its calls, written in one transaction. */
export interface TrialResult {
  runId: string;
  trialId: string;
  status: Exclude<TrialStatus, 'pending'>;
  scores?: Score[];
  judgments?: Judgment[];
  artifacts?: Array<{ kind: string; key: string; value: JsonValue }>;
}

/** A cost reservation of a call in flight: the cap counts it until the call's record lands. */
export interface BudgetReservation {
  id: string;
  workerId: string;
  amountUsd: number;
}

/** How many rows of each kind a run-wide operation (delete, copy) touched. */
export interface RunRowCounts {
  runId: string;
  trials: number;
  calls: number;
  scores: number;
  judgments: number;
  /** Artefacts of every kind, blind-scoring tasks and the web app's launch config included. */
  artifacts: number;
}

/** What deleteRun removed: rows of each kind, and the items and blobs no other run referenced. */
export interface DeletedRun extends RunRowCounts {
  /** Claims and budget reservations the run still held (expired ones, or live ones when forced). */
  claims: number;
  reservations: number;
  /** Item versions that no other run plans. */
  items: number;
  /** Blobs that no row of another run names by hash. */
  blobs: number;
}

/**
 * A rate limit every worker of a store draws from: a token bucket kept as a row of the store,
 * created full on first use. Permits are requests or tokens, as the key says.
 */
export interface PermitBucket {
  /** What the bucket limits, e.g. `requests openai:gpt-4.1 https://api.openai.com/v1`. */
  key: string;
  /** Most permits it holds: what may go at once after an idle spell. */
  capacity: number;
  /** Permits added per second. */
  perSecond: number;
}

/** What a take got: `granted` permits (0 when fewer than asked at least were there), and how long until they would be. */
export interface PermitGrant {
  granted: number;
  waitMs: number;
}

/**
 * The one store interface. SQLite (embedded default) and PostgreSQL implement it; nothing above
 * it may assume either. Every write is durable when its promise resolves. Writes given a fence
 * are refused with ClaimLostError when the writer no longer holds the trial's claim.
 */
export interface Store {
  readonly specVersion: 'paideia.store.v2';
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

  /** Store planned trials; existing ones (and their status) are left as they are. */
  saveTrials(trials: Trial[]): Promise<void>;
  /** A run's trials in plan order; of the given trials only when `only.trialIds` is set. */
  listTrials(runId: string, only?: TrialIdFilter): Promise<Trial[]>;
  /**
   * A window of the run's top-level trials (no `target`) in plan order, with their count: what a
   * page of a large run's table needs, read without the rest of the run.
   */
  listTopTrials(runId: string, window: TrialWindow): Promise<TrialWindowPage>;
  /** The trials that judge any of `targetIds` (their `target` is one of them), in plan order. */
  listJudgeTrials(runId: string, targetIds: ReadonlyArray<string>): Promise<Trial[]>;
  /** Status of every trial that finished or failed (absent: pending), of the given trials only when `only.trialIds` is set. */
  listTrialStatuses(runId: string, only?: TrialIdFilter): Promise<Map<string, Exclude<TrialStatus, 'pending'>>>;
  /** The run's trials counted by step kind and status, in the store (no trial is read). */
  countTrialStatuses(runId: string): Promise<TrialStatusCount[]>;
  /**
   * Mark a trial finished or failed with what it produced, in one transaction. A trial's writes
   * commit in the order they were made: its result never commits before the calls saved for it
   * earlier, so a kill -9 never leaves a finished trial without its calls.
   */
  saveTrialResult(result: TrialResult, fence?: WriteFence): Promise<void>;

  /** Append one call record, durably, before the promise resolves. */
  saveCall(call: CallRecord, fence?: WriteFence): Promise<void>;
  /** Calls of a run in insertion order, a page at a time (all of them without a limit). */
  listCalls(runId: string, page?: CallPage): Promise<CallRecord[]>;
  /** The result of the newest successful call with this request hash, in any run. */
  findCachedResult(requestHash: string): Promise<ChatResult | undefined>;
  /** Total cost of a run's stored calls. */
  spentUsd(runId: string): Promise<number>;

  /** Store scores, replacing any earlier score of the same trial by the same scorer name and version. */
  saveScores(scores: Score[]): Promise<void>;
  /** A run's scores, ordered by trial and scorer name; of the given trials only when `only.trialIds` is set. */
  listScores(runId: string, only?: TrialIdFilter): Promise<Score[]>;

  /** Store judgments, replacing any earlier one of the same judge trial and producer version. */
  saveJudgments(judgments: Judgment[]): Promise<void>;
  /** A run's judgments, ordered by target, judge trial and producer version; of the given targets only when `only.targetTrialIds` is set. */
  listJudgments(runId: string, only?: JudgmentFilter): Promise<Judgment[]>;

  /**
   * Claim trials of a run for a worker: those of `trialIds` that nobody holds, whose claim
   * expired, or that this worker holds already. Returns the ids now held by the worker.
   */
  claimTrials(runId: string, worker: WorkerIdentity, trialIds: ReadonlyArray<string>, expiresAt: number): Promise<string[]>;
  /**
   * The work queue shared by workers: claim up to `limit` trials of the run that still need work
   * (no status yet; a trial that judges another only once its target is done), in plan order,
   * passing over those another worker holds (or is claiming at this moment). Returns the ids now
   * held by the worker; none when nothing is left that it could take.
   */
  claimNextTrials(runId: string, worker: WorkerIdentity, limit: number, expiresAt: number): Promise<string[]>;
  /** Extend a worker's claims; the number it still holds (0: they were taken over). */
  renewClaims(runId: string, workerId: string, expiresAt: number): Promise<number>;
  /** Drop a worker's claims and budget reservations (it finished, or it is known dead). */
  releaseClaims(runId: string, workerId: string): Promise<void>;
  /** Who holds claims on a run, one entry per worker with its latest expiry. */
  listClaimHolders(runId: string): Promise<Array<Omit<TrialClaim, 'trialId'> & { trials: number }>>;

  /**
   * Reserve `amountUsd` for a call in flight if the run's stored spend plus every reservation
   * plus this one stays within `capUsd` (atomically, across workers). False when it would not.
   */
  reserveBudget(runId: string, reservation: BudgetReservation, capUsd: number): Promise<boolean>;
  releaseBudget(runId: string, reservationId: string): Promise<void>;
  /** Sum of the run's reservations in flight. */
  reservedUsd(runId: string): Promise<number>;

  /**
   * Take up to `want` permits, and at least `atLeast`, from a shared token bucket, atomically
   * across workers (refilled by the store's clock, so workers on machines with skewed clocks
   * share one rate). None when fewer than `atLeast` are there; `waitMs` says when they will be.
   */
  takePermits(bucket: PermitBucket, want: number, atLeast: number): Promise<PermitGrant>;
  /** Put permits back that were taken and not spent (negative: charge more than was taken, into debt). */
  returnPermits(bucket: PermitBucket, amount: number): Promise<void>;
  /**
   * A cap on calls in flight shared by every worker: `holder` asks for `delta` more of the `max`
   * slots named `key` (negative: gives some back; 0: renews), and holds what it has for `ttlMs`
   * more by the store's clock (a dead holder's slots come back when that runs out). Returns the
   * change granted: up to `delta` when asking, as far as slots are free; `delta` when giving back.
   */
  holdSlots(key: string, max: number, holder: string, delta: number, ttlMs: number): Promise<number>;

  /** Free-form, namespaced artefacts of later stages (dialogues, study data). */
  putArtifact(runId: string, kind: string, key: string, value: JsonValue): Promise<void>;
  listArtifacts(runId: string, kind: string): Promise<Array<{ key: string; value: JsonValue }>>;
  /** The kinds of artefact a run holds, sorted (a copy of the run takes every one). */
  listArtifactKinds(runId: string): Promise<string[]>;

  /** Keep bytes once, by content hash (slides, decks). */
  putBlob(bytes: Uint8Array, mediaType: string): Promise<BlobRef>;
  getBlob(hash: string): Promise<{ ref: BlobRef; bytes: Uint8Array } | undefined>;

  // Streamed reads of a large run (reports): a page at a time, so memory does not grow with the run.
  /** A page of the run's trials in id order, with every call (outlined) and score of those trials (see TrialPage). */
  readTrialPage(runId: string, page: TrialPageRequest): Promise<TrialPage>;
  /** A page of the item versions a run plans, in hash order: `limit` at most, after `afterHash`. */
  listRunItemPage(runId: string, page: { afterHash?: string; limit: number }): Promise<VersionedItem[]>;
  /**
   * The run's item versions with these hashes (in no set order; a hash the run does not plan is
   * absent): what a chunk of trials needs while it runs, read without the rest of the run's items.
   */
  listRunItemsOf(runId: string, hashes: ReadonlyArray<string>): Promise<VersionedItem[]>;

  /**
   * Delete a run and everything that belongs only to it, in one transaction: its record, trials,
   * calls, scores, judgments, artefacts, claims and reservations, the item versions no other run
   * plans and the blobs no row of another run names. A run with live claims (a worker holds
   * trials and its lease has not run out) is refused with RunInUseError unless `force`; a forced
   * delete leaves such a worker unable to write (its fenced writes fail as claims lost).
   * Resolves undefined when the store holds no such run.
   */
  deleteRun(runId: string, o?: { force?: boolean }): Promise<DeletedRun | undefined>;

  /**
   * While the store retries a server it cannot reach (a PostgreSQL server restarting or stopped):
   * why, said for a user; undefined while it answers. A store of a local file has none.
   */
  unavailable?(): string | undefined;
}
