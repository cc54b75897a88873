/**
 * Schema migrations of the PostgreSQL store, applied in order under an advisory lock (workers
 * starting together migrate once); `paideia_migrations` records each one that ran. Append new
 * steps, never edit old ones. JSON bodies are kept as text, exactly as the SQLite store keeps
 * them, so both stores read back the same values.
 */
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL DEFAULT 'suite',
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
    seed BIGINT NOT NULL,
    kind TEXT,
    variant TEXT,
    target TEXT,
    status TEXT,
    PRIMARY KEY (run_id, id)
  );
  -- The work queue: open trials of a run in plan order.
  CREATE INDEX trials_open ON trials (run_id, idx) WHERE status IS NULL;
  CREATE TABLE calls (
    seq BIGSERIAL PRIMARY KEY,
    -- Chosen by the writer, so a write retried after a lost connection is stored once.
    write_id UUID NOT NULL UNIQUE,
    run_id TEXT NOT NULL,
    trial_id TEXT NOT NULL,
    step INTEGER NOT NULL,
    request_hash TEXT NOT NULL,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    error TEXT,
    attempts INTEGER NOT NULL,
    latency_ms DOUBLE PRECISION NOT NULL,
    cost_usd DOUBLE PRECISION NOT NULL,
    cached SMALLINT NOT NULL,
    created_at TEXT NOT NULL,
    model TEXT
  );
  CREATE INDEX calls_by_run ON calls (run_id, seq);
  CREATE INDEX calls_by_trial ON calls (run_id, trial_id, seq);
  CREATE INDEX calls_by_request ON calls (request_hash, seq) WHERE status = 'ok';
  CREATE TABLE scores (
    run_id TEXT NOT NULL,
    trial_id TEXT NOT NULL,
    scorer_name TEXT NOT NULL,
    scorer_version TEXT NOT NULL,
    scorer_args TEXT NOT NULL,
    value DOUBLE PRECISION,
    reason TEXT,
    details TEXT,
    PRIMARY KEY (run_id, trial_id, scorer_name, scorer_version)
  );
  CREATE TABLE judgments (
    run_id TEXT NOT NULL,
    trial_id TEXT NOT NULL,
    target_trial_id TEXT NOT NULL,
    producer_version TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, trial_id, producer_version)
  );
  CREATE TABLE artifacts (
    run_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (run_id, kind, key)
  );
  CREATE TABLE claims (
    run_id TEXT NOT NULL,
    trial_id TEXT NOT NULL,
    worker_id TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (run_id, trial_id)
  );
  CREATE INDEX claims_by_worker ON claims (run_id, worker_id);
  CREATE TABLE reservations (
    run_id TEXT NOT NULL,
    id TEXT NOT NULL,
    worker_id TEXT NOT NULL,
    amount_usd DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (run_id, id)
  );
  CREATE TABLE blobs (
    hash TEXT PRIMARY KEY,
    media_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    bytes BYTEA NOT NULL
  );
  `,
  // Shared rate limits: one token bucket per limit, every worker draws from it.
  `
  CREATE TABLE rate_buckets (
    key TEXT PRIMARY KEY,
    level DOUBLE PRECISION NOT NULL,
    at_ms DOUBLE PRECISION NOT NULL,
    -- What the latest take got, returned to its taker by the same statement.
    granted DOUBLE PRECISION NOT NULL,
    wait_ms DOUBLE PRECISION NOT NULL
  );
  `,
  // Shared caps on calls in flight: what each worker holds of a cap, until its lease runs out.
  `
  CREATE TABLE rate_slots (
    key TEXT NOT NULL,
    holder TEXT NOT NULL,
    held INTEGER NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (key, holder)
  );
  `,
  // Which endpoint each call used: a resume may send a run's remaining trials to another server.
  `
  ALTER TABLE calls ADD COLUMN endpoint TEXT;
  `,
  // Pages of a large run read without the rest: top-level trials in plan order, a page's judges,
  // and the judgments of a page's trials.
  `
  CREATE INDEX trials_top ON trials (run_id, idx) WHERE target IS NULL;
  CREATE INDEX trials_by_target ON trials (run_id, target) WHERE target IS NOT NULL;
  CREATE INDEX judgments_by_target ON judgments (run_id, target_trial_id);
  `,
  // A run's trials in plan order, judges included: report pages read them so.
  `
  CREATE INDEX trials_in_plan ON trials (run_id, idx, id);
  `,
];
