/**
 * Schema migrations, applied in order; `user_version` records how many ran. Append new steps,
 * never edit old ones: a store written by an older Paideia must open in a newer one.
 */
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    status TEXT NOT NULL,
    config TEXT NOT NULL,
    prices TEXT NOT NULL,
    paideia_version TEXT NOT NULL,
    note TEXT
  );
  CREATE TABLE items (
    hash TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    test TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE TABLE run_items (
    run_id TEXT NOT NULL,
    item_hash TEXT NOT NULL,
    file TEXT,
    line INTEGER,
    PRIMARY KEY (run_id, item_hash)
  );
  CREATE TABLE trials (
    run_id TEXT NOT NULL,
    id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    item_id TEXT NOT NULL,
    item_hash TEXT NOT NULL,
    test TEXT NOT NULL,
    model_alias TEXT NOT NULL,
    model_spec TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    PRIMARY KEY (run_id, id)
  );
  CREATE TABLE calls (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL,
    trial_id TEXT NOT NULL,
    step INTEGER NOT NULL,
    request_hash TEXT NOT NULL,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    error TEXT,
    attempts INTEGER NOT NULL,
    latency_ms REAL NOT NULL,
    cost_usd REAL NOT NULL,
    cached INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX calls_by_run ON calls (run_id, seq);
  CREATE INDEX calls_by_request ON calls (request_hash) WHERE status = 'ok';
  CREATE TABLE scores (
    run_id TEXT NOT NULL,
    trial_id TEXT NOT NULL,
    scorer_name TEXT NOT NULL,
    scorer_version TEXT NOT NULL,
    scorer_args TEXT NOT NULL,
    value REAL,
    reason TEXT,
    details TEXT,
    PRIMARY KEY (run_id, trial_id, scorer_name, scorer_version)
  );
  CREATE TABLE artifacts (
    run_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (run_id, kind, key)
  );
  `,
  `
  CREATE TABLE leases (
    run_id TEXT PRIMARY KEY,
    holder_id TEXT NOT NULL,
    body TEXT NOT NULL
  );
  `,
  // One engine: run kinds, step kinds and trial status, judgments, claims and budget reservations
  // shared by workers, binary artefacts. The single-holder run lease gives way to trial claims.
  `
  ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'suite';
  ALTER TABLE trials ADD COLUMN kind TEXT;
  ALTER TABLE trials ADD COLUMN variant TEXT;
  ALTER TABLE trials ADD COLUMN target TEXT;
  ALTER TABLE trials ADD COLUMN status TEXT;
  ALTER TABLE calls ADD COLUMN model TEXT;
  CREATE INDEX calls_by_trial ON calls (run_id, trial_id, seq);
  CREATE TABLE judgments (
    run_id TEXT NOT NULL,
    trial_id TEXT NOT NULL,
    target_trial_id TEXT NOT NULL,
    producer_version TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, trial_id, producer_version)
  );
  CREATE TABLE claims (
    run_id TEXT NOT NULL,
    trial_id TEXT NOT NULL,
    worker_id TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (run_id, trial_id)
  );
  CREATE INDEX claims_by_worker ON claims (run_id, worker_id);
  CREATE TABLE reservations (
    run_id TEXT NOT NULL,
    id TEXT NOT NULL,
    worker_id TEXT NOT NULL,
    amount_usd REAL NOT NULL,
    PRIMARY KEY (run_id, id)
  );
  CREATE TABLE blobs (
    hash TEXT PRIMARY KEY,
    media_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    bytes BLOB NOT NULL
  );
  DROP TABLE leases;
  `,
  // Shared rate limits (token buckets) every process on the file draws from.
  `
  CREATE TABLE rate_buckets (
    key TEXT PRIMARY KEY,
    level REAL NOT NULL,
    at_ms REAL NOT NULL
  );
  `,
  // Which endpoint each call used: a resume may send a run's remaining trials to another server.
  `
  ALTER TABLE calls ADD COLUMN endpoint TEXT;
  `,
  // Shared caps on calls in flight: what each process holds of a cap, until its lease runs out.
  `
  CREATE TABLE rate_slots (
    key TEXT NOT NULL,
    holder TEXT NOT NULL,
    held INTEGER NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (key, holder)
  );
  `,
  // Pages of a large run read without the rest: top-level trials in plan order, a page's judges,
  // and the judgments of a page's trials.
  `
  CREATE INDEX trials_top ON trials (run_id, idx) WHERE target IS NULL;
  CREATE INDEX trials_by_target ON trials (run_id, target) WHERE target IS NOT NULL;
  CREATE INDEX judgments_by_target ON judgments (run_id, target_trial_id);
  `,
  // Calls and scores keyed by their trial's plan index, not its id: trial ids are content hashes, so
  // a key by id put every trial's index entries at a random page, and each commit and checkpoint
  // rewrote a page per trial. Trials run in plan order, so these keys append. A call or score of a
  // trial the store does not hold gets -1 (trial_id stays in the key to keep those apart).
  `
  ALTER TABLE calls ADD COLUMN trial_idx INTEGER NOT NULL DEFAULT -1;
  UPDATE calls SET trial_idx = COALESCE((SELECT t.idx FROM trials t WHERE t.run_id = calls.run_id AND t.id = calls.trial_id), -1);
  DROP INDEX calls_by_trial;
  CREATE INDEX calls_by_trial ON calls (run_id, trial_idx, trial_id, seq);
  CREATE TABLE scores_by_idx (
    run_id TEXT NOT NULL,
    trial_idx INTEGER NOT NULL,
    trial_id TEXT NOT NULL,
    scorer_name TEXT NOT NULL,
    scorer_version TEXT NOT NULL,
    scorer_args TEXT NOT NULL,
    value REAL,
    reason TEXT,
    details TEXT,
    PRIMARY KEY (run_id, trial_idx, trial_id, scorer_name, scorer_version)
  );
  INSERT INTO scores_by_idx (run_id, trial_idx, trial_id, scorer_name, scorer_version, scorer_args, value, reason, details)
    SELECT s.run_id, COALESCE((SELECT t.idx FROM trials t WHERE t.run_id = s.run_id AND t.id = s.trial_id), -1),
      s.trial_id, s.scorer_name, s.scorer_version, s.scorer_args, s.value, s.reason, s.details FROM scores s;
  DROP TABLE scores;
  ALTER TABLE scores_by_idx RENAME TO scores;
  `,
  // A run's trials in plan order, judges included: report pages read them so, and then each page's
  // calls and scores are one range of their index keys instead of a lookup per trial.
  `
  CREATE INDEX trials_in_plan ON trials (run_id, idx, id);
  `,
];
