-- Retention without reading every game (bot/sessions/retention.py). The hourly sweep looked for
-- closed games whose action log was still to pack by walking the games table in id order and
-- asking the actions table about each one; lobbies to expire, by walking it whole. Both grew
-- with every game ever played, and the pack ran in the write transaction every move waits
-- for: with 100,000 stored games a move's acknowledgement took most of a second.
--
-- `log_packed` says the sweep is done with a closed game's log (packed into action_archives,
-- or found empty: a lobby closed before it started). The sweep then reaches the games still
-- to pack through a partial index that holds only them (the games closed since the last sweep
-- and those closed within the keep time), and the idle lobbies through one that holds only
-- lobbies.
ALTER TABLE games ADD COLUMN log_packed INTEGER NOT NULL DEFAULT 0;
UPDATE games SET log_packed = 1 WHERE id IN (SELECT game_id FROM action_archives);
CREATE INDEX games_to_pack ON games (updated_at) WHERE status IN ('finished', 'abandoned') AND log_packed = 0;
CREATE INDEX games_lobbies ON games (updated_at) WHERE status = 'lobby';
