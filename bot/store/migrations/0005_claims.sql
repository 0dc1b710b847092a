-- Claims (issue #13): several bot processes share one database, and exactly one of them may
-- deliver a given outbox row or fire a given timer. A process claims what it is about to
-- handle: `claimed_by` names it (host:pid:random, one id per process), `claimed_until` is
-- when its lease runs out (Unix seconds). A live process renews the lease while it works;
-- one that dies simply stops renewing, and once the lease has run out another process may
-- take the row over. Finishing a row (delivered, failed, given up) or rescheduling a timer
-- clears both columns.
--
-- No new index: the claim queries reach the outbox through outbox_due (the rows still to
-- deliver, a handful however long the history) and the timers through timers_due (kind,
-- due time), and the claim columns are only read on the rows those already select.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until REAL;
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN claimed_until REAL;
