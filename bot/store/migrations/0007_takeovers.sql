-- Takeovers in a row: how many times an outbox row's lease ran out under its holder and
-- another process took it over, since a process last recorded an outcome for it. A post
-- that kills whoever delivers it (a crash in drawing it, memory) never reaches a recorded
-- failure, so `attempts` alone would let it take down one process after another forever;
-- the dispatcher gives such a row up once this count reaches its limit. A recorded failure
-- sets it back to 0: that holder lived through its attempt.
ALTER TABLE outbox ADD COLUMN takeovers INTEGER NOT NULL DEFAULT 0;
