-- Followers of a game (see migrations/0014_follows.sql).
CREATE TABLE follows (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     TEXT    NOT NULL,
    every       INTEGER CHECK (every IS NULL OR every >= 1),
    locale      TEXT,
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
