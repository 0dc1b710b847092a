-- A closed game's action log, packed: one zlib-compressed JSON row per game instead of a row
-- per move (a finished Ticket to Ride game's ~250 rows took ~54 KB; packed, a few KB). The
-- rows are moved here by retention once the game has been closed for the keep time;
-- `actions()` reads either place, so nothing else knows.
CREATE TABLE action_archives (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    actions     BLOB    NOT NULL,   -- zlib(JSON list of [seq, seat, kind, notation, events, undoable,
                                    --   actor_user_id, auto, undoes_seq, created_at])
    archived_at REAL    NOT NULL
);
