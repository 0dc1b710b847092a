-- People following a game they do not play in (/game follow): a DM when it ends, and every
-- `every` moves if they asked (NULL: only the end). Gone with the game.
CREATE TABLE follows (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     TEXT    NOT NULL,
    every       INTEGER CHECK (every IS NULL OR every >= 1),
    locale      TEXT,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
