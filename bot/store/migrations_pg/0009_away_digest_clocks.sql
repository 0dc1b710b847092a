-- Away, the daily digest and time banks (see migrations/0012_away_digest_clocks.sql).
ALTER TABLE user_prefs ADD COLUMN away_from DOUBLE PRECISION;
ALTER TABLE user_prefs ADD COLUMN away_until DOUBLE PRECISION;
ALTER TABLE user_prefs ADD COLUMN away_told INTEGER NOT NULL DEFAULT 1;
ALTER TABLE user_prefs ADD COLUMN digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23);
ALTER TABLE user_prefs ADD COLUMN digest_next_at DOUBLE PRECISION;
CREATE INDEX user_prefs_digest_due ON user_prefs (digest_next_at) WHERE digest_next_at IS NOT NULL;
CREATE INDEX user_prefs_return_due ON user_prefs (away_until) WHERE away_told = 0;
ALTER TABLE games ADD COLUMN clocks TEXT;
