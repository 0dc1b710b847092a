-- A closed game's action log, packed (see migrations/0006_action_archives.sql).
CREATE TABLE action_archives (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    actions     BYTEA   NOT NULL,
    archived_at DOUBLE PRECISION NOT NULL
);
