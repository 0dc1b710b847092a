-- A fourth kind of timer, 'lapse': the game waits on answers that lapse when nobody gives them
-- (Game.lapse_action: a trade offer's answers, which count as refusals). It is written when the
-- first such answer is waited on, due the game's reminder delay later, and kept while any of
-- them is still waited on; when it fires, every answer still missing is made as the rules say.
--
-- SQLite cannot change a CHECK constraint in place, so the table is rebuilt, as in 0008.
CREATE TABLE timers_new (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind           TEXT    NOT NULL CHECK (kind IN ('reminder', 'deadline', 'bots', 'lapse')),
    due_at         REAL    NOT NULL,
    attempt        INTEGER NOT NULL DEFAULT 0,
    payload        TEXT    NOT NULL DEFAULT '{}',
    claimed_by     TEXT,
    claimed_until  REAL,
    takeovers      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (game_id, kind)
);
INSERT INTO timers_new (game_id, kind, due_at, attempt, payload, claimed_by, claimed_until, takeovers)
    SELECT game_id, kind, due_at, attempt, payload, claimed_by, claimed_until, takeovers FROM timers;
DROP TABLE timers;
ALTER TABLE timers_new RENAME TO timers;
CREATE INDEX timers_due ON timers (kind, due_at);
