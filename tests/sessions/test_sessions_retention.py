"""Retention (bot/sessions/retention.py), on both backends: idle lobbies close with a line in
their channel, a finished game keeps what makes it the game (snapshot, log, result) and
lets go of its timers, standing orders and, once its posts are out, its live board."""
from __future__ import annotations

import json

from bot.sessions import SessionService
from bot.store import StoreBackend
from tests.sessions.test_sessions_moves import actor_for, open_all
from tests.support import ALICE, BOB

DAY = 24 * 3600.0


async def test_idle_lobbies_close_after_the_days_and_active_ones_stay(service: SessionService, store: StoreBackend,
                                                                       clock) -> None:
    old = await service.create("toy", "chan-old", "guild-1", ALICE)
    busy = await service.create("toy", "chan-busy", "guild-1", ALICE)
    clock.advance(5 * DAY)
    await service.join("chan-busy", BOB)  # a join counts as activity
    clock.advance(2.5 * DAY)
    assert await service.expire_lobbies(7) == [old.game_id]
    assert await service.expire_lobbies(7) == [], "a lobby is closed once"
    row = await store.get_game(old.game_id)
    assert row is not None and row.status == "abandoned"
    assert (await store.get_game(busy.game_id)).status == "lobby"
    (post,) = await store.outbox_rows(old.game_id)
    payload = json.loads(post.payload_json)
    assert post.kind == "abandoned" and payload["events"][0]["key"] == "session.lobby_expired"
    assert payload["events"][0]["params"] == {"days": 7}
    # the channel is free for a new game
    await service.create("toy", "chan-old", "guild-1", BOB)


async def test_a_finished_game_keeps_its_record_and_drops_its_leftovers(service: SessionService, start_game,
                                                                        store: StoreBackend, clock) -> None:
    out = await open_all(service, "chan-1", await start_game(options={"rounds": 1}))
    async with store.write() as tx:
        await tx.set_live_board(out.game_id, '{"message_id": "1"}', clock())
        await tx.set_standing_orders(out.game_id, 0, ["pass"], clock())
    while out.status == "active":
        seat = out.waiting[0]
        out = await service.act("chan-1", actor_for(out, seat), "pass")
    game_id = out.game_id
    assert await store.timers(game_id) == [] and await store.standing_orders(game_id) == {}
    actions = await store.actions(game_id)
    record = await service.record(game_id)
    # posts still waiting to go out: the live board is needed to deliver them
    clock.advance(2 * DAY)
    assert await service.forget_live_boards(DAY) == 0
    assert await store.live_board(game_id) is not None
    for row in await store.outbox_rows(game_id):
        await store.mark_delivered(row.id)
    assert await service.forget_live_boards(3 * DAY) == 0, "closed too recently"
    assert await service.forget_live_boards(DAY) == 1
    assert await store.live_board(game_id) is None
    # what makes it the game is all still there
    row = await store.get_game(game_id)
    assert row is not None and row.status == "finished" and row.snapshot
    assert await store.actions(game_id) == actions
    assert await service.record(game_id) == record


async def test_a_closed_games_log_is_packed_and_reads_back_the_same(service: SessionService, start_game,
                                                                    store: StoreBackend, clock) -> None:
    out = await open_all(service, "chan-1", await start_game(options={"rounds": 1}))
    while out.status == "active":
        out = await service.act("chan-1", actor_for(out, out.waiting[0]), "pass")
    running = await open_all(service, "chan-2", await start_game("chan-2", options={"rounds": 3}))
    game_id = out.game_id
    actions, history, record = await store.actions(game_id), await service.history("chan-1"), await service.record(game_id)
    running_actions = await store.actions(running.game_id)
    assert actions and running_actions
    assert await service.archive_logs(DAY) == 0, "closed too recently"
    clock.advance(2 * DAY)
    assert await service.archive_logs(DAY) == 1
    assert await service.archive_logs(DAY) == 0, "packed once"
    async with store.read() as tx:
        left = await tx.fetchall("SELECT COUNT(*) AS n FROM actions WHERE game_id = ?", (game_id,))
        packed = await tx.fetchall("SELECT COUNT(*) AS n FROM action_archives WHERE game_id = ?", (game_id,))
    assert left[0]["n"] == 0 and packed[0]["n"] == 1
    assert await store.actions(game_id) == actions
    assert await service.history("chan-1") == history and await service.record(game_id) == record
    assert await store.actions(running.game_id) == running_actions, "a running game's log stays as it is"


async def test_a_damaged_packed_log_breaks_only_its_own_game(service: SessionService, start_game,
                                                             store: StoreBackend, clock) -> None:
    from bot.store import StoreError

    out = await open_all(service, "chan-1", await start_game(options={"rounds": 1}))
    while out.status == "active":
        out = await service.act("chan-1", actor_for(out, out.waiting[0]), "pass")
    clock.advance(2 * DAY)
    assert await service.archive_logs(DAY) == 1
    async with store.write() as tx:
        await tx.execute("UPDATE action_archives SET actions = ? WHERE game_id = ?", (b"not zlib", out.game_id))
    try:
        await store.actions(out.game_id)
    except StoreError as exc:
        assert f"game {out.game_id}" in str(exc)
    else:
        raise AssertionError("a damaged packed log read as fine")
    other = await start_game("chan-2")
    assert other.status == "active" and await store.actions(other.game_id) is not None
