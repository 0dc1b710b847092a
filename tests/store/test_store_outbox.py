"""The outbox in the store: the due query goes through an index whatever the number of
delivered rows, a row given up lets its game's later posts through and queues one notice
for the host, sent parts are kept, and finished rows are pruned. On both backends, except
the query plans, which each backend's planner makes its own way (one test each)."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import OUTBOX_KEEP_DEAD, OUTBOX_KEEP_DELIVERED, Store, StoreBackend, load_migrations
from bot.store.migrate import MIGRATIONS_DIR
from tests.support.backends import Backend
from tests.support.postgres import plan_scans

DAY = 86400.0


async def _new_game(store: StoreBackend, channel: str = "c1", host: str = "u1", locale: str = "en") -> int:
    async with store.write() as tx:
        return await tx.insert_game(game="toy", guild_id="g", channel_id=channel, host_user_id=host,
                                    locale=locale, options={}, settings={}, seed=7, now=1.0)


async def _plan(store: StoreBackend, sql: str, params: tuple = ()) -> list[str]:
    async with store.read() as tx:
        return [r["detail"] for r in await tx.fetchall("EXPLAIN QUERY PLAN " + sql, params)]


async def _long_history(store: StoreBackend) -> tuple[list[int], int]:
    """Many delivered rows (what a long-running bot has) and a few pending ones, with fresh
    statistics: the first pending row of each of three games, and a later one of the first."""
    games = [await _new_game(store, f"c{i}") for i in range(3)]
    async with store.write() as tx:
        for n in range(300):
            row = await tx.add_outbox(games[n % 3], "move", {"view": "x" * 500}, 1.0)
            await tx.mark_delivered(row, 2.0)
        pending = [await tx.add_outbox(g, "move", {"n": 1}, 3.0) for g in games]
        later = await tx.add_outbox(games[0], "move", {"n": 2}, 3.0)
    await tx_analyze(store)
    return pending, later


async def test_the_due_query_walks_only_pending_rows_through_indexes(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        pending, later = await _long_history(store)

        async with store.read() as tx:
            due_sql = tx.due_outbox_sql("o.id")  # the store's own query
        plan = await _plan(store, due_sql, (10.0, 50))
        # the outer rows come from the partial index of pending rows in id order (no
        # table scan, no sort), the "older pending row of this game?" check from another
        assert plan[0] == "SCAN o USING INDEX outbox_due", plan
        assert any("SEARCH p USING INDEX outbox_by_game" in step for step in plan), plan
        assert not any("TEMP B-TREE" in step for step in plan), plan
        assert [r.id for r in await store.due_outbox(10.0)] == pending
        assert later not in [r.id for r in await store.due_outbox(10.0)]

        # the index holds the pending rows only: its size does not grow with history
        async with store.read() as tx:
            in_index = (await tx.fetchall(
                "SELECT COUNT(*) AS n FROM outbox INDEXED BY outbox_due"
                " WHERE delivered_at IS NULL AND dead = 0"))[0]["n"]
        assert in_index == 4


async def tx_analyze(store: StoreBackend) -> None:
    """Statistics as `PRAGMA optimize` would gather them in production: the plan must not
    depend on their absence."""
    async with store.write() as tx:
        await tx.execute("ANALYZE")


async def test_a_row_given_up_lets_the_games_later_rows_through_and_tells_the_host_once(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _new_game(store, host="h1", locale="ja")
        async with store.write() as tx:
            first = await tx.add_outbox(game, "move", {"n": 1}, 1.0)
            second = await tx.add_outbox(game, "move", {"n": 2}, 1.0)
            third = await tx.add_outbox(game, "move", {"n": 3}, 1.0)
        assert [r.id for r in await store.due_outbox(1.0)] == [first]

        notice = await store.give_up(first, "forbidden 50013", 5.0,
                                     notice=(game, "permissions", {"what": "first"}))
        assert notice is not None
        async with store.read() as tx:
            row = await tx.get_outbox(first)
        assert row.dead and row.next_attempt_at == 5.0 and row.last_error == "forbidden 50013"
        # the game's next post is due at once, and so is the notice (which belongs to no
        # game's queue, so it neither waits for nor holds up the game's posts)
        due = await store.due_outbox(5.0)
        assert [r.id for r in due] == [second, notice]
        assert due[1].game_id is None and due[1].kind == "notice" and due[1].payload == {"what": "first"}

        # the same problem again the same day: given up, but the host is not told twice
        assert await store.give_up(second, "forbidden 50013", 6.0,
                                   notice=(game, "permissions", {"what": "second"})) is None
        # another problem is news
        assert await store.give_up(third, "refused", 7.0, notice=(game, "broken", {})) is not None
        # a day later the first problem may be reported again
        assert await store.queue_notice(game, "permissions", {}, 5.0 + DAY) is not None
        kinds = [r.kind for r in await store.outbox_rows()]
        assert kinds.count("notice") == 3


async def test_delivery_contact_prefers_the_hosts_own_language(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _new_game(store, host="h1", locale="en")
        contact = await store.delivery_contact(game)
        assert (contact.host_user_id, contact.channel_id, contact.locale) == ("h1", "c1", "en")
        await store.set_prefs("h1", locale="ja")
        assert (await store.delivery_contact(game)).locale == "ja"
        assert await store.delivery_contact(game + 1) is None


async def test_delivery_contact_says_where_a_host_can_be_told(backend: Backend) -> None:
    """A game that lives by its answers (settings' delivery "replies": the bot is no member of
    its channel) tells its host by DM; any other game, or one whose settings cannot be read,
    in its channel first."""
    async with await backend.open() as store:
        plain = await _new_game(store, channel="c1")
        async with store.write() as tx:
            answers = await tx.insert_game(game="toy", guild_id=None, channel_id="gdm", host_user_id="h",
                                           locale="en", options={}, settings={"delivery": "replies"}, seed=7, now=1.0)
            broken = await tx.insert_game(game="toy", guild_id="g", channel_id="c3", host_user_id="h",
                                          locale="en", options={}, settings={}, seed=7, now=1.0)
            await tx.fetchall("UPDATE games SET settings = 'not json' WHERE id = ?", (broken,))
        assert (await store.delivery_contact(plain)).delivery == "channel"
        assert (await store.delivery_contact(answers)).delivery == "replies"
        assert (await store.delivery_contact(broken)).delivery == "channel"


async def test_parts_are_kept_per_row_and_go_with_it(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _new_game(store)
        async with store.write() as tx:
            row = await tx.add_outbox(game, "reminder", {}, 1.0)
            other = await tx.add_outbox(game, "reminder", {}, 1.0)
        await store.record_part(row, "dm:1", "sent", 2.0, message_id="99")
        await store.record_part(row, "dm:2", "closed", 2.0)
        parts = await store.outbox_parts(row)
        assert {p: (v.outcome, v.message_id) for p, v in parts.items()} == {
            "dm:1": ("sent", "99"), "dm:2": ("closed", None)}
        assert await store.outbox_parts(other) == {}
        await store.mark_delivered(row, 3.0)
        assert await store.prune_outbox(3.0 + OUTBOX_KEEP_DELIVERED + 1) == 1
        assert await store.outbox_parts(row) == {}  # deleted with its row (cascade)


async def test_pruning_keeps_pending_and_recent_rows(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _new_game(store)
        now = 100 * DAY
        async with store.write() as tx:
            old_delivered = [await tx.add_outbox(game, "move", {}, 1.0) for _ in range(5)]
            for row in old_delivered:
                await tx.mark_delivered(row, now - OUTBOX_KEEP_DELIVERED - 10)
            recent = await tx.add_outbox(game, "move", {}, 1.0)
            await tx.mark_delivered(recent, now - 10)
            old_dead = await tx.add_outbox(game, "move", {}, 1.0)
            young_dead = await tx.add_outbox(game, "move", {}, 1.0)
            pending = await tx.add_outbox(game, "move", {}, 1.0)  # ancient, still to deliver
        await store.give_up(old_dead, "gone", now - OUTBOX_KEEP_DEAD - 10)
        await store.give_up(young_dead, "gone", now - OUTBOX_KEEP_DELIVERED - 10)

        # in batches: a call deletes at most `batch` rows
        assert await store.prune_outbox(now, batch=2) == 2
        removed = 2
        while (n := await store.prune_outbox(now, batch=2)):
            removed += n
        assert removed == 6  # five old delivered rows and the old dead one
        left = {r.id for r in await store.outbox_rows()}
        assert left == {recent, young_dead, pending}


async def test_pruning_reads_only_the_finished_rows_index(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        # the pruning query finds its rows through the index, not by reading the table
        async with store.read() as tx:
            prune_sql = tx.prune_sql()
        plan = await _plan(store, prune_sql, (1.0, 1.0, 5))
        assert plan == ["SEARCH outbox USING INDEX outbox_finished (<expr><?)"], plan


async def test_upgrading_a_version_1_database_keeps_its_outbox_working(db_path: Path, tmp_path: Path) -> None:
    """A database written before 0002: pending rows are still delivered in order, old
    delivered rows become prunable."""
    only_first = tmp_path / "migrations"
    only_first.mkdir()
    (only_first / "0001_initial.sql").write_text((MIGRATIONS_DIR / "0001_initial.sql").read_text())
    conn = sqlite3.connect(db_path)
    for migration in load_migrations(only_first):
        for statement in migration.statements:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO games (id, game, channel_id, host_user_id, seed, created_at, updated_at)"
                 " VALUES (1, 'toy', 'c1', 'u1', 7, 1.0, 1.0)")
    conn.executemany("INSERT INTO outbox (game_id, created_at, kind, payload, next_attempt_at, delivered_at)"
                     " VALUES (1, 1.0, 'move', '{}', 1.0, ?)", [(2.0,), (2.0,), (None,), (None,)])
    conn.commit()
    conn.close()

    async with await Store.open(db_path) as store:
        assert store.applied_migrations == [m.version for m in load_migrations()][1:]
        async with store.read() as tx:
            indexes = {r["name"] for r in await tx.fetchall("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {"outbox_due", "outbox_finished"} <= indexes and "outbox_pending" not in indexes
        assert [r.id for r in await store.due_outbox(10.0)] == [3]
        assert await store.prune_outbox(10 * DAY) == 2
        assert [r.id for r in await store.outbox_rows()] == [3, 4]


async def _pg_plan(store: StoreBackend, sql: str, params: tuple) -> list[tuple[str, str, str | None]]:
    async with store.read() as tx:
        return await plan_scans(tx, sql, params)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_postgresql_plans_the_due_and_prune_queries_on_the_partial_indexes(backend: Backend) -> None:
    """PostgreSQL takes no index hints: with a history of delivered rows and fresh
    statistics, its planner must still reach the outbox only through the partial indexes
    (pending rows for the due query, finished rows for pruning), never a table scan."""
    async with await backend.open() as store:
        pending, _ = await _long_history(store)
        async with store.read() as tx:
            due_sql, prune_sql = tx.due_outbox_sql("o.id"), tx.prune_sql()

        due = await _pg_plan(store, due_sql, (10.0, 50))
        assert {alias for _, alias, _ in due} == {"o", "p"}, due
        assert all(kind.startswith("Index") and index in ("outbox_due", "outbox_by_game")
                   for kind, _, index in due), due
        assert [r.id for r in await store.due_outbox(10.0)] == pending

        prune = await _pg_plan(store, prune_sql, (1.0, 1.0, 5))
        assert prune == [("Index Scan", "outbox", "outbox_finished")], prune
