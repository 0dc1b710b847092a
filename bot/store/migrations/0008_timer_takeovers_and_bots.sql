-- Timers, as outbox rows do (0007): takeovers in a row. How many times a timer's lease ran
-- out under the process firing it and another process took it over, since a process last
-- rescheduled it. A timer whose firing kills its process (a crash or memory in loading the
-- game) would otherwise be fired by one process after another forever; the sweeps give it
-- up once this count reaches the outbox's limit. Rescheduling sets it back to 0.
--
-- And a third kind of timer, 'bots': the game waits on a bot's move (or on a standing
-- order's) and any process may make it. It is written due now in the transaction of the
-- change that makes such a seat active, held by the process that made the change (which
-- moves the bots at once); if that process dies first, its lease runs out and another
-- process's sweep takes the timer over and moves them.
--
-- SQLite cannot change a CHECK constraint in place, so the table is rebuilt (it holds two
-- small rows per running game at most). The games already running get a 'bots' timer due
-- at once: the first sweep moves the bots any of them waits on, and drops the others' timers.
CREATE TABLE timers_new (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind           TEXT    NOT NULL CHECK (kind IN ('reminder', 'deadline', 'bots')),
    due_at         REAL    NOT NULL,
    attempt        INTEGER NOT NULL DEFAULT 0,
    payload        TEXT    NOT NULL DEFAULT '{}',
    claimed_by     TEXT,
    claimed_until  REAL,
    takeovers      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (game_id, kind)
);
INSERT INTO timers_new (game_id, kind, due_at, attempt, payload, claimed_by, claimed_until)
    SELECT game_id, kind, due_at, attempt, payload, claimed_by, claimed_until FROM timers;
DROP TABLE timers;
ALTER TABLE timers_new RENAME TO timers;
CREATE INDEX timers_due ON timers (kind, due_at);
INSERT INTO timers (game_id, kind, due_at, attempt, payload)
    SELECT id, 'bots', 0, 0, '{}' FROM games WHERE status = 'active';
