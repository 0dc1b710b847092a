"""Every statement a move, a click, a delivery, a timer sweep or a housekeeping sweep runs
reaches the big tables through an index: its plan never reads the whole of games, seats,
actions, action_archives, timers, outbox or outbox_parts, so a move costs the same with a
thousand stored games or a hundred thousand.

The statements are not listed here: they are recorded while the real paths run (the
service's `act` typed and as a button click, what the reply reads, the dispatcher's claim,
parts, live board and finish, the timers' claims and firings, retention, pruning) on a
database holding thousands of closed and running games with their logs, posts and timers,
with fresh statistics. Each recorded statement is then explained with the parameters it ran
with. A new statement on any of these paths is checked without anyone adding it.

A scan is allowed only through a partial index (one holding the rows still to work on:
outbox_due, games_to_pack, ...) or an index searched by a condition; SQLite's "SCAN <table>"
without one, and PostgreSQL's Seq Scan or an index walked without a condition on a full
index, fail."""
from __future__ import annotations

import json
import re
from typing import Any, Sequence

import pytest

from bot.sessions import SessionService
from bot.store import StoreBackend
from bot.store.db import SqliteTx
from bot.store.pg import PgTx
from tests.support import PLAYERS, actor_for, make_service, open_all
from tests.support.backends import Backend

DAY = 86400.0
STORED = 6000  # closed games
RUNNING = 3000  # games still going: each with a live board, timers and a post to deliver
RECENT = 50  # of the closed games, those closed since the last sweep (their logs still to pack)
MOVES_EACH = 30
# The tables that grow with the games stored: none of them may be read whole.
BIG = {"games", "seats", "actions", "action_archives", "timers", "outbox", "outbox_parts", "live_boards",
       "results", "ratings", "rating_changes", "league_tables", "forfeits"}


async def _fill(store: StoreBackend, now: float) -> None:
    """What a long-running bot's database holds, in bulk (one statement per table), with fresh
    statistics: STORED finished games with their seats, their logs packed but for the RECENT
    last ones, a day of delivered posts; RUNNING games with their logs, timers,
    live boards and a post each still to deliver. (Enough that PostgreSQL's planner, which
    reads a small table whole when that costs less than its look-ups, has no such choice.)"""
    running = RUNNING
    total = STORED + running
    numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {})"
    status = f"CASE WHEN i <= {STORED} THEN 'finished' ELSE 'active' END"
    old = now - 30 * DAY
    async with store.write() as tx:
        await tx.execute(
            numbers.format(total) +
            " INSERT INTO games (id, game, guild_id, channel_id, status, host_user_id, locale, options, settings,"
            " seed, version, snapshot, created_at, updated_at, last_move_at, log_packed)"
            f" SELECT 100000 + i, 'toy', 'guild-stored', 'stored-' || i, {status}, 'host-' || (i % 97), 'en',"
            f" '{{}}', '{{}}', i, {MOVES_EACH}, '{{}}', {old}, {old} + i, {old} + i,"
            f" CASE WHEN i <= {STORED - RECENT} THEN 1 ELSE 0 END FROM n")
        await tx.execute(
            numbers.format(2 * total) +
            " INSERT INTO seats (game_id, seat, user_id, bot, display_name, joined)"
            f" SELECT 100000 + (i + 1) / 2, i % 2, 'user-' || (i % 991), NULL, 'P', 1 + i % 2 FROM n")
        await tx.execute(
            numbers.format(MOVES_EACH * total) +
            " INSERT INTO actions (game_id, seq, seat, kind, notation, events, undoable, actor_user_id, auto,"
            " undoes_seq, created_at)"
            f" SELECT 100000 + (i - 1) / {MOVES_EACH} + 1, (i - 1) % {MOVES_EACH} + 1, i % 2, 'move', 'pass', '[]',"
            f" 0, 'user-1', NULL, NULL, {old} FROM n WHERE (i - 1) / {MOVES_EACH} + 1 > {STORED - RECENT}")
        await tx.execute(
            numbers.format(STORED - RECENT) +
            " INSERT INTO action_archives (game_id, actions, archived_at)"
            f" SELECT 100000 + i, ?, {old} FROM n", (b"packed",))
        await tx.execute(
            numbers.format(5 * total) +
            " INSERT INTO outbox (game_id, created_at, kind, payload, attempts, next_attempt_at, delivered_at, dead)"
            f" SELECT 100000 + (i - 1) / 5 + 1, {now} - 3600, 'move', '{{\"view\": \"stored\"}}', 0, {now} - 3600,"
            f" {now} - 3000, 0 FROM n")
        await tx.execute(
            numbers.format(total) +
            " INSERT INTO outbox_parts (outbox_id, part, outcome, message_id, done_at)"
            " SELECT o.id, 'post', 'sent', '1', o.created_at FROM outbox o WHERE o.id <= (SELECT MAX(id) FROM outbox)"
            " AND o.id IN (SELECT 5 * i FROM n)")
        await tx.execute(
            numbers.format(running) +
            " INSERT INTO outbox (game_id, created_at, kind, payload, attempts, next_attempt_at)"
            f" SELECT 100000 + {STORED} + i, {now}, 'move', '{{}}', 0, {now} + 10 * {DAY} FROM n")
        for kind in ("reminder", "deadline", "bots"):
            await tx.execute(
                numbers.format(running) +
                " INSERT INTO timers (game_id, kind, due_at, attempt, payload)"
                f" SELECT 100000 + {STORED} + i, '{kind}', {now} + 10 * {DAY} + i, 0, '{{}}' FROM n")
        await tx.execute(
            numbers.format(running) +
            " INSERT INTO live_boards (game_id, board_json, updated_at)"
            f" SELECT 100000 + {STORED} + i, ?, {now} FROM n", (_BOARD,))
        # the stored games' results (two seats each), and the stored server's ratings of them
        await tx.execute(
            numbers.format(2 * STORED) +
            " INSERT INTO results (game_id, seat, user_id, bot, guild_id, game, place, total, stats, players,"
            " finished_at)"
            f" SELECT 100000 + (i + 1) / 2, i % 2, 'user-' || (i % 991), NULL, 'guild-stored', 'toy', 1 + i % 2,"
            f" i % 50, '{{}}', 2, {old} + (i + 1) / 2 FROM n")
        await tx.execute(
            numbers.format(991) +
            " INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, updated_at)"
            f" SELECT 'guild-stored', 'toy', 'user-' || (i - 1), 25 + i % 7, 8 - (i % 5), 12, 6, {old} FROM n")
        await tx.execute(
            numbers.format(2 * STORED) +
            " INSERT INTO rating_changes (game_id, user_id, guild_id, game, mu, sigma, at)"
            f" SELECT 100000 + (i + 1) / 2, 'user-' || (i % 991), 'guild-stored', 'toy', 25, 8, {old} + i FROM n"
            " WHERE 1 = 1 ON CONFLICT DO NOTHING")  # (SQLite needs the WHERE before an upsert clause)
        # a league whose tables were every stored game, and a forfeit in every tenth of them
        await tx.execute(
            "INSERT INTO leagues (id, guild_id, channel_id, name, game, table_size, rounds, deadline_hours,"
            f" locale, created_by, created_at) VALUES (1, 'guild-stored', 'league', 'Stored', 'toy', 2, {STORED}, 72,"
            f" 'en', 'host-1', {old})")
        await tx.execute(
            numbers.format(STORED) +
            " INSERT INTO league_tables (league_id, round, table_no, players, game_id)"
            " SELECT 1, i, 1, '[]', 100000 + i FROM n")
        await tx.execute(
            numbers.format(STORED // 10) +
            " INSERT INTO forfeits (game_id, seat, user_id, display_name, at)"
            f" SELECT 100000 + 10 * i, 0, 'user-' || i, 'Someone', {old} FROM n")
        await tx.execute("ANALYZE")


# a live board as the dispatcher stores it: the message, who it waits on, the lines it shows
_BOARD = json.dumps({"message_id": "1234567890123456789", "waiting_user_ids": ["123456789012345678"],
                     "lines": [{"key": "ticket_to_ride.claimed_route", "params": {"seat": s, "route": "a-b"}}
                               for s in range(6)], "closed": False, "picture": True})


class Recorder:
    """Every statement the store runs, with its parameters, in the order first seen."""

    def __init__(self) -> None:
        self.seen: dict[str, tuple[Any, ...]] = {}
        self.on = False

    def install(self, monkeypatch: pytest.MonkeyPatch, cls: type) -> None:
        for name in ("_fetch", "_fetchone", "_exec"):
            original = getattr(cls, name)

            def recording(tx: Any, sql: str, params: Sequence[Any], _original: Any = original) -> Any:
                if self.on:
                    self.seen.setdefault(sql, tuple(params))
                return _original(tx, sql, params)

            monkeypatch.setattr(cls, name, recording)


async def _run_the_paths(service: SessionService, store: StoreBackend, clock: Any, recorder: Recorder) -> None:
    """A game opened, moved typed and by a click, its posts delivered, its timers fired,
    played to its end; then the sweeps a running bot makes."""
    from bot.sessions.errors import SessionError

    recorder.on = True
    await service.set_rating_rules("guild-1", enabled=True)  # the finishing commit rates the game
    await service.create("toy", "plan-chan", "guild-1", PLAYERS[0], {"rounds": 2})
    await service.join("plan-chan", PLAYERS[1])
    await service.settings("plan-chan", PLAYERS[0], deadline_hours=1, away_bot=True,
                           time_bank={"start_hours": 30, "per_turn_hours": 2})
    out = await open_all(service, "plan-chan", await service.start("plan-chan", PLAYERS[0]))
    # a person's own pace: hours, digest and away time for all their games (banks settled)
    await service.set_user_hours(PLAYERS[1].user_id, timezone="Asia/Tokyo", quiet_hours="23-7")
    await service.set_digest(PLAYERS[1].user_id, "8")
    await service.set_away(PLAYERS[1].user_id, "1d")
    await service.games_waiting_on(PLAYERS[1].user_id)
    out = await service.act("plan-chan", actor_for(out, out.waiting[0]), "pass")  # typed
    out = await service.act("plan-chan", actor_for(out, out.waiting[0]), "pass", out.version)  # a button
    await service.private_view("plan-chan", out.seat_user_ids[out.waiting[0]])
    await service.status("plan-chan")
    try:
        await service.undo("plan-chan", actor_for(out, out.seat or 0))
    except SessionError:
        pass  # what undo reads is the point, not whether this move could be taken back

    deliveries = service.deliveries
    for _ in range(3):
        for row in await deliveries.claim(limit=50):
            await deliveries.parts(row.id)
            if row.game_id is not None:
                await deliveries.live_board(row.game_id)
                later = await deliveries.pending_after(row.game_id, row.id)
                await deliveries.record_parts(row.id, [("post", "sent", "77")])
                await deliveries.finish_step(row.game_id, json.dumps({"message_id": "77"}),
                                             [row.id, *(r.id for r in later)])
            else:
                await deliveries.delivered(row.id)

    clock.advance(2 * 3600)  # reminders and the deadline are due
    await service.due_reminders()
    await service.run_deadlines()
    await service.run_lapses()
    await service.due_bots()
    await deliveries.claim(limit=50)
    clock.advance(DAY)  # the away time is over, a digest is due
    await service.due_returns()
    await service.due_digests()

    await service.run_bots(out.game_id)
    while out.status == "active":
        waiting = (await service.status("plan-chan")).waiting
        out = await service.act("plan-chan", actor_for(out, waiting[0]), "pass")
    # the community on the results: a leaderboard, a profile, the ratings rebuilt
    await service.leaderboard("guild-1", "toy")
    await service.profile("guild-1", PLAYERS[0].user_id)
    await service.rebuild_ratings("guild-1")
    await deliveries.prune()  # as the dispatcher does all along: nothing past its keep time yet
    clock.advance(2 * DAY)
    await service.expire_lobbies(7)
    await service.forget_live_boards(DAY)
    await service.archive_logs(DAY)
    recorder.on = False


def _sqlite_scans(sql: str, plan: list[str], partial: set[str]) -> list[str]:
    """The steps of SQLite's plan that read a whole table or a whole full index."""
    if sql.startswith("INSERT") and " VALUES " in sql and "SELECT" not in sql:
        # An insert of given values reads nothing. For a games row SQLite's plan lists the
        # look-ups of rows referencing it (outbox.game_id has only a partial index), which it
        # makes only while a deferred foreign key violation is outstanding: never here.
        return []
    bad = []
    for step in plan:
        if not step.startswith("SCAN "):
            continue
        index = re.search(r"USING (?:COVERING )?INDEX (\w+)", step)
        if index is None or index.group(1) not in partial:
            bad.append(step)
    return bad


def _pg_nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    found = [plan]
    for child in plan.get("Plans", []):
        found += _pg_nodes(child)
    return found


def _leading(indexdef: str) -> str:
    """The first key of an index, from its definition ("... USING btree (a, b) WHERE ...")."""
    keys = indexdef.split(" USING ", 1)[1].split("(", 1)[1]
    depth, out = 0, ""
    for ch in keys:
        if ch in ",)" and depth == 0:
            break
        depth += {"(": 1, ")": -1}.get(ch, 0)
        out += ch
    return out.strip().strip("()")


def _pg_scans(plan: dict[str, Any], partial: set[str], indexes: dict[str, tuple[str, str]]) -> list[str]:
    """The nodes of PostgreSQL's plan that read a whole big table or a whole full index (an
    index scan whose condition is not on the index's first key walks all of it)."""
    bad = []
    for node in _pg_nodes(plan):
        kind = node["Node Type"]
        table = node.get("Relation Name")
        if kind == "Seq Scan" and table in BIG:
            bad.append(f"{kind} on {table}")
        elif kind in ("Index Scan", "Index Only Scan", "Bitmap Index Scan"):
            index = node["Index Name"]
            on, leading = indexes[index]
            if on in BIG and index not in partial and leading not in node.get("Index Cond", ""):
                bad.append(f"{kind} on {index} without a condition on {leading}")
    return bad


async def _explain(store: StoreBackend, backend: Backend, statements: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    """Each statement's offending steps (empty when it is fine), explained with its own parameters."""
    found: dict[str, Any] = {}
    async with store.write() as tx:  # EXPLAIN runs nothing; a claim's FOR UPDATE needs a write transaction
        if backend.kind == "sqlite":
            partial = {r["name"] for r in await tx.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '% WHERE %'")}
            for sql, params in statements.items():
                plan = [r["detail"] for r in await tx.fetchall("EXPLAIN QUERY PLAN " + sql, params)]
                found[sql] = (_sqlite_scans(sql, plan, partial), plan)
        else:
            indexes = await tx.fetchall("SELECT indexname, tablename, indexdef FROM pg_indexes"
                                        " WHERE schemaname = current_schema()")
            partial = {r["indexname"] for r in indexes if " WHERE " in r["indexdef"]}
            keys = {r["indexname"]: (r["tablename"], _leading(r["indexdef"])) for r in indexes}
            for sql, params in statements.items():
                (row,) = await tx.fetchall("EXPLAIN (FORMAT JSON) " + sql, params)
                (plan,) = json.loads(next(iter(row.values())))
                found[sql] = (_pg_scans(plan["Plan"], partial, keys), plan["Plan"])
    return found


async def test_every_statement_on_the_move_click_delivery_and_sweep_paths_uses_an_index(
        backend: Backend, toy_game: Any, clock: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await backend.open()
    try:
        await _fill(store, clock())
        recorder = Recorder()
        recorder.install(monkeypatch, SqliteTx if backend.kind == "sqlite" else PgTx)
        service = make_service(store, clock)
        await _run_the_paths(service, store, clock, recorder)

        recorded = recorder.seen
        # the paths really ran: the statements that matter most are among those recorded
        async with store.read() as tx:
            must = {tx.claim_outbox_sql(), tx.claim_timers_sql(), tx.archive_candidates_sql(),
                    tx.forget_live_boards_sql(), tx.prune_sql()}
        assert must <= set(recorded), must - set(recorded)
        for start in ("SELECT id, game, guild_id, channel_id", "UPDATE games SET version = version + 1",
                      "INSERT INTO actions", "INSERT INTO outbox", "INSERT INTO timers",
                      "SELECT COALESCE(MAX(seq), 0) FROM actions", "UPDATE outbox SET delivered_at",
                      "INSERT INTO action_archives", "SELECT id FROM games WHERE status = 'lobby'"):
            assert any(sql.startswith(start) for sql in recorded), start

        explained = await _explain(store, backend, recorded)
        bad = {sql: plan for sql, (steps, plan) in explained.items() if steps}
        assert not bad, "statements reading a whole table:\n" + "\n".join(
            f"{sql}\n    {explained[sql][0]}\n    {json.dumps(explained[sql][1])[:3000]}\n    {recorded[sql]}" for sql in bad)
    finally:
        await store.close()
