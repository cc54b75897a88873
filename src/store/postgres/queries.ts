/**
 * The PostgreSQL store's statements, each prepared once per connection under its name. Lists are
 * passed as arrays (`unnest`), so a batch of any size is one statement and one round trip.
 */
const q = (name: string, text: string) => ({ name, text });

// A token bucket's take ($1 key, $2 capacity, $3 permits per ms, $4 want, $5 at least), the
// arithmetic of permit-bucket.ts: refill up to the capacity by the server's clock, then grant.
const refilled = 'least($2::float8, b.level + greatest(0, excluded.at_ms - b.at_ms) * $3::float8)';
const granted = (level: string) => `(CASE WHEN ${level} >= $5::float8 THEN least($4::float8, floor(${level})) ELSE 0 END)`;
const waitMs = (level: string) => `(CASE WHEN ${level} >= $5::float8 THEN 0 ELSE ceil(($5::float8 - ${level}) / $3::float8) END)`;

export const SQL = {
  insertRun: q('insert-run', `INSERT INTO runs (id, kind, created_at, updated_at, status, config, prices, paideia_version, note)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`),
  getRun: q('get-run', 'SELECT * FROM runs WHERE id = $1'),
  listRuns: q('list-runs', 'SELECT * FROM runs ORDER BY created_at, id'),
  setStatus: q('set-status', 'UPDATE runs SET status = $1, updated_at = $2, note = $3 WHERE id = $4'),
  insertItems: q('insert-items', `INSERT INTO items (hash, id, test, body) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
    ON CONFLICT (hash) DO NOTHING`),
  runItems: q('run-items', `SELECT i.hash, i.body, ri.file, ri.line FROM run_items ri JOIN items i ON i.hash = ri.item_hash
    WHERE ri.run_id = $1 ORDER BY i.id COLLATE "C", i.hash COLLATE "C"`),
  insertTrials: q('insert-trials', `INSERT INTO trials (run_id, id, idx, item_id, item_hash, test, model_alias, model_spec, prompt_version, repeat, seed, kind, variant, target)
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[],
      $11::bigint[], $12::text[], $13::text[], $14::text[])
    ON CONFLICT DO NOTHING`),
  insertRunItems: q('insert-run-items', `INSERT INTO run_items (run_id, item_hash) SELECT $1, h FROM unnest($2::text[]) AS h ON CONFLICT DO NOTHING`),
  trials: q('trials', 'SELECT * FROM trials WHERE run_id = $1 ORDER BY idx'),
  statuses: q('statuses', 'SELECT id, status FROM trials WHERE run_id = $1 AND status IS NOT NULL'),
  // Reads of a page of a large run: by the partial indexes of migration 5 and by primary keys.
  trialsOf: q('trials-of', 'SELECT * FROM trials WHERE run_id = $1 AND id = ANY($2::text[]) ORDER BY idx'),
  topTrials: q('top-trials', 'SELECT * FROM trials WHERE run_id = $1 AND target IS NULL ORDER BY idx LIMIT $2 OFFSET $3'),
  topCount: q('top-count', 'SELECT COUNT(*)::int AS n FROM trials WHERE run_id = $1 AND target IS NULL'),
  judgeTrials: q('judge-trials', 'SELECT * FROM trials WHERE run_id = $1 AND target = ANY($2::text[]) ORDER BY idx'),
  statusCounts: q('status-counts', `SELECT kind, COALESCE(status, 'pending') AS status, COUNT(*)::int AS n, MIN(idx) AS first FROM trials WHERE run_id = $1
    GROUP BY kind, COALESCE(status, 'pending') ORDER BY first`),
  statusesOf: q('statuses-of', 'SELECT id, status FROM trials WHERE run_id = $1 AND id = ANY($2::text[]) AND status IS NOT NULL'),
  setTrialStatus: q('set-trial-status', 'UPDATE trials SET status = $1 WHERE run_id = $2 AND id = $3'),
  // A trial's outcome in one statement (one round trip): status, scores, judgments and artefacts,
  // all written only if the writer holds the claim ($4 null: no fence), which stays locked until commit.
  saveResult: q('save-result', `WITH held AS (SELECT 1 FROM claims WHERE run_id = $2 AND trial_id = $3 AND worker_id = $4 FOR SHARE),
    fence AS (SELECT ($4::text IS NULL OR EXISTS (SELECT 1 FROM held)) AS ok),
    status AS (UPDATE trials SET status = $1 WHERE run_id = $2 AND id = $3 AND (SELECT ok FROM fence)),
    scores AS (INSERT INTO scores (run_id, trial_id, scorer_name, scorer_version, scorer_args, value, reason, details)
      SELECT $2, s.* FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::float8[], $10::text[], $11::text[]) AS s WHERE (SELECT ok FROM fence)
      ON CONFLICT (run_id, trial_id, scorer_name, scorer_version)
      DO UPDATE SET scorer_args = excluded.scorer_args, value = excluded.value, reason = excluded.reason, details = excluded.details),
    judgments AS (INSERT INTO judgments (run_id, trial_id, target_trial_id, producer_version, body)
      SELECT $2, j.* FROM unnest($12::text[], $13::text[], $14::text[], $15::text[]) AS j WHERE (SELECT ok FROM fence)
      ON CONFLICT (run_id, trial_id, producer_version) DO UPDATE SET target_trial_id = excluded.target_trial_id, body = excluded.body),
    artifacts AS (INSERT INTO artifacts (run_id, kind, key, value)
      SELECT $2, a.* FROM unnest($16::text[], $17::text[], $18::text[]) AS a WHERE (SELECT ok FROM fence)
      ON CONFLICT (run_id, kind, key) DO UPDATE SET value = excluded.value)
    SELECT ok FROM fence`),
  // The fence: the claim row is read under a share lock, so it cannot change hands until this commits.
  claimHeld: q('claim-held', 'SELECT 1 FROM claims WHERE run_id = $1 AND trial_id = $2 AND worker_id = $3 FOR SHARE'),
  insertCall: q('insert-call', `INSERT INTO calls (write_id, run_id, trial_id, step, request_hash, request, status, result, error, attempts, latency_ms, cost_usd, cached, created_at, model, endpoint)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (write_id) DO NOTHING`),
  // One statement: the claim is checked and locked, then the row written, or nothing is.
  insertFencedCall: q('insert-fenced-call', `WITH held AS (SELECT 1 FROM claims WHERE run_id = $2 AND trial_id = $3 AND worker_id = $17 FOR SHARE)
    INSERT INTO calls (write_id, run_id, trial_id, step, request_hash, request, status, result, error, attempts, latency_ms, cost_usd, cached, created_at, model, endpoint)
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16 FROM held
    ON CONFLICT (write_id) DO UPDATE SET write_id = excluded.write_id RETURNING seq`),
  calls: q('calls', 'SELECT * FROM calls WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3'),
  callsOfTrials: q('calls-of-trials', 'SELECT * FROM calls WHERE run_id = $1 AND trial_id = ANY($2::text[]) AND seq > $3 ORDER BY seq LIMIT $4'),
  cached: q('cached', `SELECT result FROM calls WHERE request_hash = $1 AND status = 'ok' ORDER BY seq DESC LIMIT 1`),
  spent: q('spent', 'SELECT COALESCE(SUM(cost_usd), 0) AS total FROM calls WHERE run_id = $1'),
  insertScore: q('insert-score', `INSERT INTO scores (run_id, trial_id, scorer_name, scorer_version, scorer_args, value, reason, details)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (run_id, trial_id, scorer_name, scorer_version)
    DO UPDATE SET scorer_args = excluded.scorer_args, value = excluded.value, reason = excluded.reason, details = excluded.details`),
  scores: q('scores', 'SELECT * FROM scores WHERE run_id = $1 ORDER BY trial_id COLLATE "C", scorer_name COLLATE "C"'),
  scoresOf: q('scores-of', `SELECT * FROM scores WHERE run_id = $1 AND trial_id = ANY($2::text[])
    ORDER BY trial_id COLLATE "C", scorer_name COLLATE "C"`),
  insertJudgment: q('insert-judgment', `INSERT INTO judgments (run_id, trial_id, target_trial_id, producer_version, body) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (run_id, trial_id, producer_version) DO UPDATE SET target_trial_id = excluded.target_trial_id, body = excluded.body`),
  // The newest stored call of each trial: what a judgment whose step left callSeq null was read from.
  newestCalls: q('newest-calls', 'SELECT trial_id, MAX(seq) AS seq FROM calls WHERE run_id = $1 AND trial_id = ANY($2::text[]) GROUP BY trial_id'),
  judgments: q('judgments', `SELECT body FROM judgments WHERE run_id = $1
    ORDER BY target_trial_id COLLATE "C", trial_id COLLATE "C", producer_version COLLATE "C"`),
  judgmentsOf: q('judgments-of', `SELECT body FROM judgments WHERE run_id = $1 AND target_trial_id = ANY($2::text[])
    ORDER BY target_trial_id COLLATE "C", trial_id COLLATE "C", producer_version COLLATE "C"`),
  putArtifact: q('put-artifact', `INSERT INTO artifacts (run_id, kind, key, value) VALUES ($1, $2, $3, $4)
    ON CONFLICT (run_id, kind, key) DO UPDATE SET value = excluded.value`),
  artifacts: q('artifacts', 'SELECT key, value FROM artifacts WHERE run_id = $1 AND kind = $2 ORDER BY key COLLATE "C"'),
  artifactKinds: q('artifact-kinds', 'SELECT DISTINCT kind COLLATE "C" AS kind FROM artifacts WHERE run_id = $1 ORDER BY 1'),
  // A row changes hands only when its holder is this worker or its lease ran out; the row lock of
  // ON CONFLICT makes two claimers of one trial take turns, and the second sees the first's claim.
  claim: q('claim', `INSERT INTO claims (run_id, trial_id, worker_id, pid, host, expires_at)
    SELECT $1, id, $3, $4, $5, $6 FROM unnest($2::text[]) AS id
    ON CONFLICT (run_id, trial_id) DO UPDATE SET worker_id = excluded.worker_id, pid = excluded.pid, host = excluded.host, expires_at = excluded.expires_at
    WHERE claims.worker_id = excluded.worker_id OR claims.expires_at <= $7
    RETURNING trial_id`),
  // The work queue: open trials in plan order, judges once their target is done; trials another
  // worker is claiming right now are skipped (SKIP LOCKED), not waited for.
  claimNext: q('claim-next', `WITH next AS (
      SELECT t.id FROM trials t LEFT JOIN claims c ON c.run_id = t.run_id AND c.trial_id = t.id
      WHERE t.run_id = $1 AND t.status IS NULL AND (c.trial_id IS NULL OR c.worker_id = $2 OR c.expires_at <= $6)
        AND (t.target IS NULL OR EXISTS (SELECT 1 FROM trials g WHERE g.run_id = t.run_id AND g.id = t.target AND g.status = 'done'))
      ORDER BY t.idx LIMIT $7
      FOR UPDATE OF t SKIP LOCKED)
    INSERT INTO claims (run_id, trial_id, worker_id, pid, host, expires_at) SELECT $1, id, $2, $3, $4, $5 FROM next
    ON CONFLICT (run_id, trial_id) DO UPDATE SET worker_id = excluded.worker_id, pid = excluded.pid, host = excluded.host, expires_at = excluded.expires_at
    WHERE claims.worker_id = excluded.worker_id OR claims.expires_at <= $6
    RETURNING trial_id`),
  renewClaims: q('renew-claims', 'UPDATE claims SET expires_at = $1 WHERE run_id = $2 AND worker_id = $3'),
  releaseClaims: q('release-claims', 'DELETE FROM claims WHERE run_id = $1 AND worker_id = $2'),
  holders: q('holders', `SELECT worker_id, pid, host, MAX(expires_at) AS expires_at, COUNT(*)::int AS trials FROM claims
    WHERE run_id = $1 GROUP BY worker_id, pid, host ORDER BY worker_id COLLATE "C"`),
  // Reservations of one run take turns under a lock keyed by the run, across every worker.
  lockRunBudget: q('lock-run-budget', `SELECT pg_advisory_xact_lock(hashtextextended('paideia.budget:' || $1, 0))`),
  reservationExists: q('reservation-exists', 'SELECT 1 FROM reservations WHERE run_id = $1 AND id = $2'),
  reserve: q('reserve', 'INSERT INTO reservations (run_id, id, worker_id, amount_usd) VALUES ($1, $2, $3, $4)'),
  release: q('release', 'DELETE FROM reservations WHERE run_id = $1 AND id = $2'),
  releaseReservations: q('release-reservations', 'DELETE FROM reservations WHERE run_id = $1 AND worker_id = $2'),
  reserved: q('reserved', 'SELECT COALESCE(SUM(amount_usd), 0) AS total FROM reservations WHERE run_id = $1'),
  // One statement, one round trip: the row lock of ON CONFLICT makes takers take turns, and each
  // reads the level its predecessor left; the take's outcome is kept on the row to return it.
  takePermits: q('take-permits', `INSERT INTO rate_buckets AS b (key, level, at_ms, granted, wait_ms)
    SELECT $1, $2::float8 - ${granted('$2::float8')}, ms, ${granted('$2::float8')}, ${waitMs('$2::float8')}
    FROM (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms) now
    ON CONFLICT (key) DO UPDATE SET level = ${refilled} - ${granted(refilled)}, at_ms = greatest(b.at_ms, excluded.at_ms),
      granted = ${granted(refilled)}, wait_ms = ${waitMs(refilled)}
    RETURNING granted, wait_ms`),
  returnPermits: q('return-permits', 'UPDATE rate_buckets SET level = least($2::float8, level + $3::float8) WHERE key = $1'),
  // A shared cap on calls in flight, in one transaction under a lock keyed by the cap.
  lockSlots: q('lock-slots', `SELECT pg_advisory_xact_lock(hashtextextended('paideia.slots:' || $1, 0)), (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now`),
  dropExpiredSlots: q('drop-expired-slots', 'DELETE FROM rate_slots WHERE key = $1 AND expires_at <= $2'),
  slotsHeld: q('slots-held', `SELECT COALESCE(SUM(held), 0)::int AS total, COALESCE(SUM(held) FILTER (WHERE holder = $2), 0)::int AS mine FROM rate_slots WHERE key = $1`),
  putSlots: q('put-slots', `INSERT INTO rate_slots (key, holder, held, expires_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (key, holder) DO UPDATE SET held = excluded.held, expires_at = excluded.expires_at`),
  dropSlots: q('drop-slots', 'DELETE FROM rate_slots WHERE key = $1 AND holder = $2'),
  putBlob: q('put-blob', 'INSERT INTO blobs (hash, media_type, size, bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING'),
  getBlob: q('get-blob', 'SELECT media_type, size, bytes FROM blobs WHERE hash = $1'),
};
