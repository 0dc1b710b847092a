-- Every finished game's result, one row per seat (bot/sessions/results.py), written in the
-- transaction that finishes the game; and each server's ratings, kept by the server's choice
-- (/league ratings), recomputable from the results.
CREATE TABLE results (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      TEXT,                 -- NULL for a bot's seat
    bot          TEXT,
    guild_id     TEXT,
    game         TEXT    NOT NULL,
    place        INTEGER NOT NULL,     -- 1 = first; tied players share a place
    total        INTEGER NOT NULL,
    stats        TEXT    NOT NULL DEFAULT '{}',   -- the game's own figures (e.g. longest route)
    players      INTEGER NOT NULL,
    finished_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_by_player ON results (user_id, guild_id, finished_at) WHERE user_id IS NOT NULL;
CREATE INDEX results_by_guild ON results (guild_id, finished_at, game_id);

-- A server that keeps ratings, and whether games with bots in them count.
CREATE TABLE rating_rules (
    guild_id    TEXT    PRIMARY KEY,
    enabled     INTEGER NOT NULL DEFAULT 1,
    with_bots   INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL    NOT NULL
);
-- Each player's rating per server and game (Plackett–Luce: mu and its uncertainty sigma).
CREATE TABLE ratings (
    guild_id    TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
-- the leaderboard, best first: by the rating shown (mu − 3σ)
CREATE INDEX ratings_board ON ratings (guild_id, game, (mu - 3 * sigma));
-- What each rated game changed, for a player's trend.
CREATE TABLE rating_changes (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     TEXT    NOT NULL,
    guild_id    TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    at          REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, game, user_id, at);
