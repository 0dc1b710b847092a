-- Railyard schema, version 1.
-- Ids coming from Discord (users, guilds, channels) are stored as TEXT: snowflakes are
-- 64-bit and the rest of the code treats them as opaque strings.
-- JSON columns hold text produced by pydantic's model_dump_json / json.dumps.

CREATE TABLE games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game          TEXT    NOT NULL,                 -- registry name, e.g. 'ticket_to_ride'
    guild_id      TEXT,                             -- NULL for a DM / offline game
    channel_id    TEXT    NOT NULL,                 -- channel or thread the game lives in
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    host_user_id  TEXT    NOT NULL,
    locale        TEXT    NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'ja')),
    options       TEXT    NOT NULL DEFAULT '{}',    -- JSON: the game's options model
    settings      TEXT    NOT NULL DEFAULT '{}',    -- JSON: sessions' GameSettings
    seed          INTEGER NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0,       -- bumped by every change
    snapshot      TEXT,                             -- JSON state; NULL while in the lobby
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    last_move_at  REAL
);

-- At most one open (lobby or active) game per channel.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE INDEX games_by_guild_status ON games (guild_id, status);

CREATE TABLE seats (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       TEXT,                             -- NULL for a bot
    bot           TEXT,                             -- bot name, NULL for a human
    display_name  TEXT    NOT NULL,
    joined        INTEGER NOT NULL,                 -- join order (1, 2, ...)
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) <> (bot IS NULL))
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id);

-- Append-only: an undo is a new row of kind 'undo', never a deletion.
CREATE TABLE actions (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    seat          INTEGER NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('move', 'undo')),
    notation      TEXT    NOT NULL,
    events        TEXT    NOT NULL DEFAULT '[]',    -- JSON: the public events only
    undoable      INTEGER NOT NULL DEFAULT 0,
    actor_user_id TEXT,                             -- NULL when a bot or a timer moved
    auto          TEXT,                             -- NULL, 'bot' or 'deadline'
    undoes_seq    INTEGER,                          -- for kind 'undo': the move taken back
    created_at    REAL    NOT NULL,
    UNIQUE (game_id, seq)
);

CREATE TABLE timers (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL CHECK (kind IN ('reminder', 'deadline')),
    due_at   REAL    NOT NULL,
    attempt  INTEGER NOT NULL DEFAULT 0,
    payload  TEXT    NOT NULL DEFAULT '{}',
    UNIQUE (game_id, kind)
);
CREATE INDEX timers_due ON timers (kind, due_at);

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER REFERENCES games (id) ON DELETE CASCADE,
    created_at      REAL    NOT NULL,
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL,               -- JSON; never private events
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL    NOT NULL,
    delivered_at    REAL,
    last_error      TEXT,
    dead            INTEGER NOT NULL DEFAULT 0      -- 1 = given up (permanent failure)
);
CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE delivered_at IS NULL AND dead = 0;
CREATE INDEX outbox_by_game ON outbox (game_id, id) WHERE delivered_at IS NULL AND dead = 0;

CREATE TABLE user_prefs (
    user_id       TEXT PRIMARY KEY,
    dm_reminders  INTEGER NOT NULL DEFAULT 0,
    locale        TEXT
);
