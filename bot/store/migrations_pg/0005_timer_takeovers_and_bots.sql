-- Takeovers in a row for timers, and the 'bots' timer (see migrations/0008_timer_takeovers_and_bots.sql):
-- a timer whose firing kills its process is given up after the outbox's limit of takeovers
-- instead of being fired by one process after another forever; a game waiting on its bots
-- has a timer any live process may take over when the process moving them died. A constant
-- default adds the column without rewriting the table. The games already running get a
-- 'bots' timer due at once.
ALTER TABLE timers ADD COLUMN takeovers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE timers DROP CONSTRAINT timers_kind_check;
ALTER TABLE timers ADD CONSTRAINT timers_kind_check CHECK (kind IN ('reminder', 'deadline', 'bots'));
INSERT INTO timers (game_id, kind, due_at, attempt, payload)
    SELECT id, 'bots', 0, 0, '{}' FROM games WHERE status = 'active';
