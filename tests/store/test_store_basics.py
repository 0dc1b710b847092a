"""The store on its own, on both backends: version-guarded writes, transactions, outbox
back-off, timers."""
from __future__ import annotations

import asyncio

import pytest

from bot.store import (
    OUTBOX_BASE_DELAY,
    OUTBOX_MAX_DELAY,
    ChannelBusy,
    StaleVersion,
    StoreBackend,
    StoreTx,
    UserPrefs,
)
from tests.support.backends import Backend


async def _new_game(store: StoreBackend, channel: str = "c1") -> int:
    async with store.write() as tx:
        return await tx.insert_game(game="toy", guild_id="g", channel_id=channel, host_user_id="u1",
                                    locale="en", options={}, settings={}, seed=7, now=1.0)


async def test_one_open_game_per_channel(backend: Backend) -> None:
    async with await backend.open() as store:
        game_id = await _new_game(store)
        with pytest.raises(ChannelBusy):
            await _new_game(store)
        async with store.write() as tx:
            await tx.update_game(game_id, 0, 2.0, status="finished")
        second = await _new_game(store)  # a finished game does not block the channel
        async with store.read() as tx:
            assert (await tx.open_game("c1")).id == second
            assert (await tx.latest_game("c1")).id == second


async def test_stale_version_rolls_back_the_whole_transaction(backend: Backend) -> None:
    async with await backend.open() as store:
        game_id = await _new_game(store)
        with pytest.raises(StaleVersion) as info:
            async with store.write() as tx:
                await tx.append_action(game_id, seat=0, kind="move", notation="x", events=[],
                                       undoable=True, actor_user_id="u1", now=2.0)
                await tx.add_outbox(game_id, "move", {"a": 1}, 2.0)
                await tx.update_game(game_id, 5, 2.0, snapshot="{}")
        assert (info.value.expected, info.value.current) == (5, 0)
        assert await store.actions(game_id) == []
        assert await store.outbox_rows() == []
        row = await store.get_game(game_id)
        assert row.version == 0 and row.snapshot is None


async def test_two_stores_same_expected_version_exactly_one_applies(backend: Backend) -> None:
    async with await backend.open() as first:
        game_id = await _new_game(first)
    a, b = await backend.open(), await backend.open()
    try:
        async def write(store: StoreBackend, notation: str) -> str:
            async with store.write() as tx:
                await tx.update_game(game_id, 0, 3.0, snapshot=f'"{notation}"')
                await tx.append_action(game_id, seat=0, kind="move", notation=notation,
                                       events=[], undoable=True, actor_user_id="u1", now=3.0)
                await asyncio.sleep(0.05)  # hold the transaction open while the other tries
            return notation

        results = await asyncio.gather(write(a, "A"), write(b, "B"), return_exceptions=True)
        winners = [r for r in results if isinstance(r, str)]
        losers = [r for r in results if isinstance(r, StaleVersion)]
        assert len(winners) == 1 and len(losers) == 1, results
        assert losers[0].current == 1
        actions = await a.actions(game_id)
        assert [x.notation for x in actions] == winners
        assert (await b.get_game(game_id)).snapshot == f'"{winners[0]}"'
    finally:
        await a.close()
        await b.close()


async def test_concurrent_coroutines_on_one_store_never_interleave(backend: Backend) -> None:
    async with await backend.open() as store:
        game_ids = [await _new_game(store, f"c{i}") for i in range(5)]

        async def many(game_id: int) -> None:
            for version in range(20):
                async with store.write() as tx:
                    await tx.update_game(game_id, version, 1.0)
                    await asyncio.sleep(0)  # let the others run inside our transaction
                    await tx.append_action(game_id, seat=0, kind="move", notation=str(version),
                                           events=[], undoable=False, actor_user_id=None, now=1.0)

        await asyncio.gather(*(many(g) for g in game_ids))
        for game_id in game_ids:
            assert (await store.get_game(game_id)).version == 20
            assert [a.seq for a in await store.actions(game_id)] == list(range(1, 21))


async def test_outbox_back_off_doubles_up_to_a_cap(backend: Backend) -> None:
    async with await backend.open() as store:
        game_id = await _new_game(store)
        async with store.write() as tx:
            row_id = await tx.add_outbox(game_id, "move", {"n": 1}, 100.0)
        assert [r.id for r in await store.due_outbox(100.0)] == [row_id]
        now, delays = 100.0, []
        for _ in range(12):
            row = await store.mark_failed(row_id, "HTTP 503", now)
            delays.append(row.next_attempt_at - now)
            assert await store.due_outbox(now) == []  # not due again before its time
            now = row.next_attempt_at
            assert [r.id for r in await store.due_outbox(now)] == [row_id]
        assert delays[:4] == [OUTBOX_BASE_DELAY * k for k in (1, 2, 4, 8)]
        assert max(delays) == OUTBOX_MAX_DELAY and delays[-1] == OUTBOX_MAX_DELAY
        assert row.attempts == 12 and row.last_error == "HTTP 503"

        row = await store.mark_failed(row_id, "429", now, retry_after=3600)
        assert row.next_attempt_at == now + 3600
        await store.mark_delivered(row_id, now + 3600)
        assert await store.due_outbox(now + 10**6) == []
        assert (await store.outbox_rows())[0].delivered_at == now + 3600


async def test_outbox_keeps_each_games_posts_in_order(backend: Backend) -> None:
    async with await backend.open() as store:
        g1, g2 = await _new_game(store, "c1"), await _new_game(store, "c2")
        async with store.write() as tx:
            a1 = await tx.add_outbox(g1, "move", {"n": 1}, 1.0)
            a2 = await tx.add_outbox(g1, "move", {"n": 2}, 1.0)
            b1 = await tx.add_outbox(g2, "move", {"n": 1}, 1.0)
        assert [r.id for r in await store.due_outbox(1.0)] == [a1, b1]
        await store.mark_failed(a1, "boom", 1.0)
        assert [r.id for r in await store.due_outbox(2.0)] == [b1]  # a2 waits behind a1
        await store.mark_delivered(a1, 2.0)
        assert [r.id for r in await store.due_outbox(2.0)] == [a2, b1]
        await store.mark_failed(a2, "channel deleted", 2.0, permanent=True)
        assert [r.id for r in await store.due_outbox(10**9)] == [b1]


async def test_timers_upsert_and_come_due(backend: Backend) -> None:
    async with await backend.open() as store:
        game_id = await _new_game(store)
        async with store.write() as tx:
            await tx.set_timer(game_id, "reminder", 50.0)
            await tx.set_timer(game_id, "reminder", 60.0, attempt=2, payload={"x": 1})
            await tx.set_timer(game_id, "deadline", 70.0)
        async with store.read() as tx:
            assert await tx.due_timers("reminder", 59.0) == []
            (due,) = await tx.due_timers("reminder", 60.0)
            assert (due.due_at, due.attempt, due.payload_json) == (60.0, 2, '{"x":1}')
        async with store.write() as tx:
            await tx.delete_timers(game_id)
        assert await store.timers(game_id) == []


async def test_user_prefs_defaults_and_updates(backend: Backend) -> None:
    async with await backend.open() as store:
        assert (await store.get_prefs("u9")).dm_reminders is False
        await store.set_prefs("u9", dm_reminders=True)
        await store.set_prefs("u9", locale="ja")
        prefs = await store.get_prefs("u9")
        assert prefs.dm_reminders is True and prefs.locale == "ja"


async def test_reads_cannot_write(backend: Backend) -> None:
    async with await backend.open() as store:
        game_id = await _new_game(store)
        from bot.store import StoreError

        with pytest.raises(StoreError):
            async with store.read() as tx:
                await tx.update_game(game_id, 0, 1.0)
        assert (await store.get_game(game_id)).version == 0


async def test_the_backend_is_the_one_asked_for(backend: Backend) -> None:
    async with await backend.open() as store:
        assert store.kind == {"sqlite": "sqlite", "postgres": "postgresql"}[backend.kind]
        assert isinstance(store, StoreBackend)
        async with store.read() as tx:
            assert isinstance(tx, StoreTx)


async def test_a_refused_insert_leaves_the_transaction_usable(backend: Backend) -> None:
    """ChannelBusy is an answer, not a broken transaction: the caller may go on writing (on
    PostgreSQL, where an error aborts a transaction, the insert runs in a savepoint)."""
    async with await backend.open() as store:
        first = await _new_game(store)
        async with store.write() as tx:
            with pytest.raises(ChannelBusy):
                await tx.insert_game(game="toy", guild_id="g", channel_id="c1", host_user_id="u2",
                                     locale="en", options={}, settings={}, seed=1, now=2.0)
            await tx.update_game(first, 0, 3.0, status="abandoned")
            second = await tx.insert_game(game="toy", guild_id="g", channel_id="c1", host_user_id="u2",
                                          locale="en", options={}, settings={}, seed=1, now=3.0)
        assert (await store.get_game(first)).status == "abandoned"
        async with store.read() as tx:
            assert (await tx.open_game("c1")).id == second
            assert await tx.game_ids(("lobby",)) == [second]
            assert await tx.game_ids(("abandoned", "lobby")) == [first, second]


async def test_two_stores_joining_one_game_at_once_both_land(backend: Backend) -> None:
    """Read the game, then write what follows from it: the second writer of a game waits for
    the first and reads what it left (SQLite: BEGIN IMMEDIATE; PostgreSQL: the row lock taken
    by reading the game in a write transaction). Without that both would take seat 1."""
    async with await backend.open() as first:
        game_id = await _new_game(first)
        async with first.write() as tx:
            await tx.add_seat(game_id, 0, user_id="u1", bot=None, display_name="Host")
    a, b = await backend.open(), await backend.open()
    try:
        async def join(store: StoreBackend, user: str) -> int:
            async with store.write() as tx:
                row = await tx.get_game(game_id)
                seats = await tx.seats(game_id)
                await asyncio.sleep(0.05)  # the other joins meanwhile, if it can
                await tx.add_seat(game_id, len(seats), user_id=user, bot=None, display_name=user)
                return await tx.update_game(game_id, row.version, 2.0)

        versions = await asyncio.gather(join(a, "u2"), join(b, "u3"))
        assert sorted(versions) == [1, 2]
        seats = await a.seats(game_id)
        assert [(s.seat, s.joined) for s in seats] == [(0, 1), (1, 2), (2, 3)]
        assert {s.user_id for s in seats} == {"u1", "u2", "u3"}
    finally:
        await a.close()
        await b.close()


async def test_a_read_sees_one_state_while_others_commit(backend: Backend) -> None:
    async with await backend.open() as writer, await backend.open() as reader:
        game_id = await _new_game(writer)
        async with reader.read() as tx:
            assert (await tx.get_game(game_id)).version == 0
            async with writer.write() as wtx:
                await wtx.update_game(game_id, 0, 2.0, snapshot='"new"')
            row = await tx.get_game(game_id)
            assert (row.version, row.snapshot) == (0, None)
        assert (await reader.get_game(game_id)).version == 1


async def test_a_host_is_told_once_when_two_processes_meet_the_same_problem(backend: Backend) -> None:
    async with await backend.open() as first:
        game_id = await _new_game(first)
    a, b = await backend.open(), await backend.open()
    try:
        async def tell(store: StoreBackend) -> int | None:
            async with store.write() as tx:
                queued = await tx.queue_notice(game_id, "permissions", {"n": 1}, 10.0)
                await asyncio.sleep(0.05)  # still uncommitted while the other decides
                return queued

        results = await asyncio.gather(tell(a), tell(b))
        assert sum(r is not None for r in results) == 1, results
        assert [r.kind for r in await a.outbox_rows()] == ["notice"]
    finally:
        await a.close()
        await b.close()


async def test_two_preference_changes_at_once_both_stay(backend: Backend) -> None:
    a, b = await backend.open(), await backend.open()
    try:
        await asyncio.gather(a.set_prefs("u9", dm_reminders=True), b.set_prefs("u9", locale="ja"))
        prefs = await a.get_prefs("u9")
        assert (prefs.dm_reminders, prefs.locale) == (True, "ja")
        assert (await b.set_prefs("u9", dm_reminders=False)).locale == "ja"  # None keeps the stored one
        async with a.read() as tx:
            assert await tx.prefs_for(["u9", "u8"]) == {
                "u9": UserPrefs(user_id="u9", dm_reminders=False, locale="ja"), "u8": UserPrefs(user_id="u8")}
    finally:
        await a.close()
        await b.close()


async def test_raw_sql_takes_question_marks_on_both_backends(backend: Backend) -> None:
    async with await backend.open() as store:
        game_id = await _new_game(store)
        async with store.write() as tx:
            changed = await tx.execute("UPDATE games SET host_user_id = ? WHERE id = ? AND game = 'toy'",
                                       ("u?", game_id))
            rows = await tx.fetchall("SELECT host_user_id, 'why?' AS q FROM games -- what?\n WHERE id = ?",
                                     (game_id,))
        assert changed == 1 and rows == [{"host_user_id": "u?", "q": "why?"}]
