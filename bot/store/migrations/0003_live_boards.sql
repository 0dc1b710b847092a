-- One live board per game (bot/sessions/live.py): the game's current turn message, which
-- later steps edit instead of posting anew, and who it was waiting on (so a restart does
-- not ping everyone again). Written with the outbox rows it delivered.
CREATE TABLE live_boards (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    board_json  TEXT    NOT NULL,   -- bot.sessions.live.LiveBoard
    updated_at  REAL    NOT NULL
);
