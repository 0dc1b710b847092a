-- Retention without reading every game (see migrations/0010_retention_indexes.sql): the sweep
-- reaches the closed games whose log is still to pack, and the idle lobbies, through partial
-- indexes that hold only those. A constant default adds the column without rewriting the table.
ALTER TABLE games ADD COLUMN log_packed INTEGER NOT NULL DEFAULT 0 CHECK (log_packed IN (0, 1));
UPDATE games SET log_packed = 1 WHERE id IN (SELECT game_id FROM action_archives);
CREATE INDEX games_to_pack ON games (updated_at) WHERE status IN ('finished', 'abandoned') AND log_packed = 0;
CREATE INDEX games_lobbies ON games (updated_at) WHERE status = 'lobby';
-- The planner takes status and log_packed for independent, and so expects a good share of the
-- running games (log_packed = 0) among the closed ones: it would then read every live board
-- whole to find the few closed games that still have one. Their combined statistics tell it
-- how few closed games are still to pack.
CREATE STATISTICS games_status_packed (mcv) ON status, log_packed FROM games;
