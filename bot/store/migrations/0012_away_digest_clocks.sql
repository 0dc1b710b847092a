-- Away, the daily digest and time banks (bot/sessions/pace.py, clocks.py).
--
-- away_from / away_until: a person's away time for all their games (/away), kept after it ends
-- so a time bank still knows not to count it; away_told = 1 once the person was sent the list
-- of what waits on them at their return (or set away off themselves, and saw it then).
ALTER TABLE user_prefs ADD COLUMN away_from REAL;
ALTER TABLE user_prefs ADD COLUMN away_until REAL;
ALTER TABLE user_prefs ADD COLUMN away_told INTEGER NOT NULL DEFAULT 1;
-- digest_hour: the local hour of the person's one DM a day (NULL: reminders per game instead);
-- digest_next_at: when it is due next, moved on by the process that sends it.
ALTER TABLE user_prefs ADD COLUMN digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23);
ALTER TABLE user_prefs ADD COLUMN digest_next_at REAL;
CREATE INDEX user_prefs_digest_due ON user_prefs (digest_next_at) WHERE digest_next_at IS NOT NULL;
CREATE INDEX user_prefs_return_due ON user_prefs (away_until) WHERE away_told = 0;
-- A game's time banks as JSON (bot/sessions/clocks.py); NULL for a game without them. Written
-- in the transaction of the move that spends or credits them.
ALTER TABLE games ADD COLUMN clocks TEXT;
