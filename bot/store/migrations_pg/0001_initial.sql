-- Railyard schema on PostgreSQL, version 1: the schema SQLite reaches with its migrations
-- 0001-0004, in one step (no PostgreSQL database predates it). Later changes get their own
-- numbered files here, next to the SQLite ones.
--
-- Kept as in SQLite, so that one set of statements (bot/store/sql.py) serves both:
-- * Discord ids (users, guilds, channels) are TEXT: 64-bit snowflakes, opaque strings.
-- * JSON is TEXT, not JSONB: the store hands JSON back as the exact text it was given
--   (snapshots are compared with replays, key order and all), nothing queries inside it,
--   JSONB would parse and re-serialise every snapshot on every move, and a damaged value
--   must stay storable and readable so that it breaks only its own game.
-- * Times are Unix seconds as DOUBLE PRECISION (SQLite's REAL).
-- * Flags (undoable, dead, dm_reminders) are 0/1 integers: the shared statements compare
--   and write them as numbers.

CREATE TABLE games (
    id            BIGSERIAL PRIMARY KEY,
    game          TEXT    NOT NULL,                 -- registry name, e.g. 'ticket_to_ride'
    guild_id      TEXT,                             -- NULL for a DM / offline game
    channel_id    TEXT    NOT NULL,                 -- channel or thread the game lives in
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    host_user_id  TEXT    NOT NULL,
    locale        TEXT    NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'ja')),
    options       TEXT    NOT NULL DEFAULT '{}',    -- JSON: the game's options model
    settings      TEXT    NOT NULL DEFAULT '{}',    -- JSON: sessions' GameSettings
    seed          BIGINT  NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0,       -- bumped by every change
    snapshot      TEXT,                             -- JSON state; NULL while in the lobby
    created_at    DOUBLE PRECISION NOT NULL,
    updated_at    DOUBLE PRECISION NOT NULL,
    last_move_at  DOUBLE PRECISION
);

-- At most one open (lobby or active) game per channel (its name is how the store tells
-- this refusal from others: bot/store/sql.py CHANNEL_INDEX).
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE INDEX games_by_guild_status ON games (guild_id, status);

CREATE TABLE seats (
    game_id       BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
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
    game_id       BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    seat          INTEGER NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('move', 'undo')),
    notation      TEXT    NOT NULL,
    events        TEXT    NOT NULL DEFAULT '[]',    -- JSON: the public events only
    undoable      INTEGER NOT NULL DEFAULT 0 CHECK (undoable IN (0, 1)),
    actor_user_id TEXT,                             -- NULL when a bot or a timer moved
    auto          TEXT,                             -- NULL, 'bot', 'deadline' or 'order'
    undoes_seq    INTEGER,                          -- for kind 'undo': the move taken back
    created_at    DOUBLE PRECISION NOT NULL,
    UNIQUE (game_id, seq)
);

CREATE TABLE timers (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL CHECK (kind IN ('reminder', 'deadline')),
    due_at   DOUBLE PRECISION NOT NULL,
    attempt  INTEGER NOT NULL DEFAULT 0,
    payload  TEXT    NOT NULL DEFAULT '{}',
    UNIQUE (game_id, kind)
);
CREATE INDEX timers_due ON timers (kind, due_at);

CREATE TABLE outbox (
    id              BIGSERIAL PRIMARY KEY,
    game_id         BIGINT  REFERENCES games (id) ON DELETE CASCADE,
    created_at      DOUBLE PRECISION NOT NULL,
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL,               -- JSON; never private events
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at DOUBLE PRECISION NOT NULL,      -- a dead row: when it was given up
    delivered_at    DOUBLE PRECISION,
    last_error      TEXT,
    dead            INTEGER NOT NULL DEFAULT 0 CHECK (dead IN (0, 1))  -- 1 = given up
);
-- The due query walks the rows still to deliver in id order through this index, which
-- holds only those rows (a handful), and checks "nothing older pending in this game"
-- through the next one.
CREATE INDEX outbox_due ON outbox (id) WHERE delivered_at IS NULL AND dead = 0;
CREATE INDEX outbox_by_game ON outbox (game_id, id) WHERE delivered_at IS NULL AND dead = 0;
-- Finished rows by the time they finished, so old ones are pruned a batch at a time
-- without reading the table.
CREATE INDEX outbox_finished ON outbox ((COALESCE(delivered_at, next_attempt_at)))
    WHERE delivered_at IS NOT NULL OR dead = 1;

-- The parts of a row that have gone out (each DM of a reminder, the channel post), so
-- that neither a retry nor a restart sends one again. Gone with the row (cascade).
CREATE TABLE outbox_parts (
    outbox_id   BIGINT  NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    part        TEXT    NOT NULL,               -- stable within the row, e.g. 'post', 'dm:123'
    outcome     TEXT    NOT NULL,               -- 'sent', or what stood in for it ('closed': DMs off)
    message_id  TEXT,                           -- the Discord message, when one was made
    done_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (outbox_id, part)
);

-- When a game's host was last told about a delivery problem, so they are told once, not
-- per post.
CREATE TABLE delivery_notices (
    game_id      BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    problem      TEXT    NOT NULL,
    notified_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, problem)
);

CREATE TABLE user_prefs (
    user_id       TEXT PRIMARY KEY,
    dm_reminders  INTEGER NOT NULL DEFAULT 0 CHECK (dm_reminders IN (0, 1)),
    locale        TEXT
);

-- One live board per game (bot/sessions/live.py): the game's current turn message and who
-- it was waiting on.
CREATE TABLE live_boards (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    board_json  TEXT    NOT NULL,   -- bot.sessions.live.LiveBoard
    updated_at  DOUBLE PRECISION NOT NULL
);

-- Standing orders (bot/sessions/orders.py): per game and seat, the moves its player decided
-- in advance. Private: only the seat's own player is shown them.
CREATE TABLE standing_orders (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    orders      TEXT    NOT NULL DEFAULT '[]',   -- JSON list of the game's order notations
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
