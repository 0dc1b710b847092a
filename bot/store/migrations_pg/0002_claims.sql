-- Claims (issue #13; SQLite's 0005_claims.sql): exactly one process delivers an outbox row
-- or fires a timer. `claimed_by` names the process (host:pid:random), `claimed_until` is when
-- its lease runs out (Unix seconds, as every time here). Claiming takes the rows with
-- FOR NO KEY UPDATE SKIP LOCKED, so concurrent claimers never wait for each other nor take
-- the same row; a process that dies stops renewing its lease, and the row is free again
-- once the lease has run out. Finishing a row or rescheduling a timer clears both columns.
--
-- No new index: the claim queries go through outbox_due and outbox_by_game (rows still to
-- deliver only) and timers_due, as the due queries did; the claim columns are read on the
-- rows those select. ADD COLUMN without a default rewrites nothing, however large the table.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until DOUBLE PRECISION;
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN claimed_until DOUBLE PRECISION;
