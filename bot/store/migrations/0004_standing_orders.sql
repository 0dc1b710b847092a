-- Standing orders (bot/sessions/orders.py): per game and seat, the moves its player decided
-- in advance, which the service makes for them when their turn comes. Private: only the
-- seat's own player is shown them. Written in the transactions of the moves that use them
-- up, so a move and the orders it leaves standing are committed together.
CREATE TABLE standing_orders (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    orders      TEXT    NOT NULL DEFAULT '[]',   -- JSON list of the game's order notations
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
