-- Leagues (bot/sessions/leagues.py): a server's set of players for one game, played in rounds;
-- each round's tables are planned at once (who sits where) and opened one by one, each a game
-- in a thread of the league's channel.
CREATE TABLE leagues (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        TEXT    NOT NULL,
    channel_id      TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    game            TEXT    NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}',
    table_size      INTEGER NOT NULL,
    rounds          INTEGER NOT NULL,
    round           INTEGER NOT NULL DEFAULT 0,     -- the round being played; 0 = sign-up
    deadline_hours  REAL    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'signup' CHECK (status IN ('signup', 'playing', 'finished')),
    locale          TEXT    NOT NULL DEFAULT 'en',
    created_by      TEXT    NOT NULL,
    card_message_id TEXT,                          -- the sign-up card, redrawn as the league goes on
    created_at      REAL    NOT NULL,
    UNIQUE (guild_id, name)
);
CREATE TABLE league_players (
    league_id     INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id       TEXT    NOT NULL,
    display_name  TEXT    NOT NULL,
    joined_at     REAL    NOT NULL,
    PRIMARY KEY (league_id, user_id)
);
CREATE TABLE league_tables (
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL,
    table_no    INTEGER NOT NULL,
    players     TEXT    NOT NULL,                  -- JSON list of user ids, in the order planned
    game_id     INTEGER REFERENCES games (id) ON DELETE SET NULL,  -- NULL until the table opens
    PRIMARY KEY (league_id, round, table_no)
);
CREATE UNIQUE INDEX league_tables_by_game ON league_tables (game_id) WHERE game_id IS NOT NULL;

-- A player who ran out of time in a game whose deadline forfeits (a league's): a bot played
-- their seat on, and their result is last place.
CREATE TABLE forfeits (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    user_id       TEXT    NOT NULL,
    display_name  TEXT    NOT NULL,
    at            REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
ALTER TABLE results ADD COLUMN forfeited INTEGER NOT NULL DEFAULT 0;
