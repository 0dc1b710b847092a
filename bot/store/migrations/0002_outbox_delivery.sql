-- Delivery that never stalls and never loses a post (issue #9, section 4).
--
-- On a large existing database each CREATE INDEX below reads the outbox once (its rows
-- hold whole public views, so that is most of the file): a one-time cost at the upgrade.

-- The due query walks the rows still to deliver in id order through this index, which
-- holds only those rows (a handful), instead of walking the whole table in id order.
CREATE INDEX outbox_due ON outbox (id) WHERE delivered_at IS NULL AND dead = 0;
-- It replaces this one, which no query used any more (and which the planner skipped).
DROP INDEX outbox_pending;

-- Finished rows (delivered, or given up: `dead` rows keep the time they were given up in
-- next_attempt_at) by the time they finished, so old ones can be pruned a batch at a
-- time without reading the table.
CREATE INDEX outbox_finished ON outbox (COALESCE(delivered_at, next_attempt_at))
    WHERE delivered_at IS NOT NULL OR dead = 1;

-- The parts of a row that have gone out (each DM of a reminder, the channel post), so
-- that neither a retry nor a restart sends one again. Gone with the row (cascade).
CREATE TABLE outbox_parts (
    outbox_id   INTEGER NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    part        TEXT    NOT NULL,               -- stable within the row, e.g. 'post', 'dm:123'
    outcome     TEXT    NOT NULL,               -- 'sent', or what stood in for it ('closed': DMs off)
    message_id  TEXT,                           -- the Discord message, when one was made
    done_at     REAL    NOT NULL,
    PRIMARY KEY (outbox_id, part)
);

-- When a game's host was last told about a delivery problem (missing permissions, a
-- deleted channel, a post that cannot be built), so they are told once, not per post.
CREATE TABLE delivery_notices (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    problem      TEXT    NOT NULL,
    notified_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, problem)
);
