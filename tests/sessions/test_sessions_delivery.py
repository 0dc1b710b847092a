"""The outbox as the dispatcher sees it (bot/sessions/delivery.py), on both backends: a game
post given up leaves its live board waiting on nobody it never pinged, and a game whose
channel was deleted is ended once, in one write, however many processes meet the deletion."""
from __future__ import annotations

import asyncio

from bot.sessions import SessionError, SessionService
from bot.sessions.delivery import Deliveries
from bot.sessions.live import LiveBoard
from bot.store import ClaimLost, StoreBackend
from tests.support import ALICE, BOB, actor_for, make_service, open_all
from tests.support.backends import Backend

LEASE = 30.0
DAY = 86400.0
NOTICE = {"problem": "deleted", "game_id": 0, "host_user_id": ALICE.user_id, "locale": "en"}


async def _live(store: StoreBackend, game_id: int) -> LiveBoard:
    stored = await store.live_board(game_id)
    assert stored is not None
    return LiveBoard.model_validate_json(stored)


async def test_a_game_post_given_up_forgets_who_it_newly_waited_on(service: SessionService, start_game,
                                                                     store: StoreBackend, clock) -> None:
    start = await start_game()
    deliveries = Deliveries(store, clock, owner="A")
    (row,) = await deliveries.claim(LEASE)
    assert row.id == start.outbox_id
    # the start went out as a live message waiting on both players
    board = LiveBoard(message_id="m1", waiting_user_ids=[ALICE.user_id, BOB.user_id])
    await deliveries.finish_step(start.game_id, board.model_dump_json(), [row.id])

    moved = await service.act("chan-1", actor_for(start, start.waiting[0]), "open red")
    (row,) = await deliveries.claim(LEASE)
    assert row.id == moved.outbox_id and moved.mention_user_ids  # the post waits on the other one
    await deliveries.give_up(row.id, [], "refused 400", notice=None, notice_every=DAY)
    after = await _live(store, start.game_id)
    # whoever the post stopped waiting on is forgotten; the one it still waits on stays
    assert after.waiting_user_ids == moved.mention_user_ids and after.message_id == "m1"

    async with store.write() as tx:  # a row that cannot be read may have waited on anyone
        junk = await tx.add_outbox(start.game_id, "move", "not JSON {", clock.now)
    (row,) = await deliveries.claim(LEASE)
    assert row.id == junk
    await deliveries.give_up(row.id, [], "error", notice=None, notice_every=DAY)
    assert (await _live(store, start.game_id)).waiting_user_ids == []
    assert [r.dead for r in await store.outbox_rows(start.game_id)] == [False, True, True]


async def test_a_deleted_channel_ends_its_game_once_whoever_meets_it(backend: Backend, service: SessionService,
                                                                     start_game, store: StoreBackend, clock) -> None:
    """Two processes (two stores on one database): the first claimed the game's post, its
    lease ran out and the second took it over. Both meet Unknown Channel at once: the first
    may record nothing (ClaimLost, or nothing left once the second has recorded it), the
    second ends the game; meeting it again changes nothing. The game is abandoned one version further, its timers and orders are gone,
    every post still to deliver is given up, and one notice is queued for its host."""
    start = await open_all(service, "chan-1", await start_game())
    async with store.write() as tx:
        await tx.set_standing_orders(start.game_id, 0, ["open red"], clock.now)
    other = await backend.open()
    try:
        first = Deliveries(store, clock, owner="first")
        second = Deliveries(other, clock, owner="second")
        (row,) = await first.claim(LEASE)
        clock.advance(LEASE + 1)
        (taken,) = await second.claim(LEASE)
        assert taken.id == row.id and taken.takeovers == 1
        pending = [r.id for r in await store.outbox_rows(start.game_id) if r.delivered_at is None]
        assert len(pending) > 1
        version = (await service.status("chan-1")).version

        notice = (start.game_id, "deleted", {**NOTICE, "game_id": start.game_id})
        results = await asyncio.gather(
            first.channel_deleted(row.id, [], "not found 10003: Unknown Channel", notice=notice, notice_every=DAY),
            second.channel_deleted(row.id, [], "not found 10003: Unknown Channel", notice=notice, notice_every=DAY),
            return_exceptions=True)
        # the first either finds the row held by the second, or already given up by it
        assert results[1] is True and (isinstance(results[0], ClaimLost) or results[0] is False), results
        assert await second.channel_deleted(row.id, [], "again", notice=notice, notice_every=DAY) is False

        status = await service.status("chan-1")
        assert status.info.status == "abandoned" and status.version == version + 1
        assert await store.timers(start.game_id) == [] and await store.standing_orders(start.game_id) == {}
        rows = await store.outbox_rows(start.game_id)
        assert [r.id for r in rows if not r.dead and r.delivered_at is None] == []
        assert all(r.dead for r in rows if r.id in pending) and not [r for r in rows if r.claimed_by]
        notices = [r for r in await store.outbox_rows() if r.kind == "notice"]
        assert [n.payload["problem"] for n in notices] == ["deleted"]
    finally:
        await other.close()


async def test_a_move_racing_the_deletion_lands_before_it_or_not_at_all(backend: Backend, service: SessionService,
                                                                        start_game, store: StoreBackend, clock) -> None:
    """The game is ended under its version guard: a move committed at the same moment either
    comes first (and its post is given up with the rest) or is refused, never applied to an
    abandoned game."""
    start = await open_all(service, "chan-1", await start_game())
    other = await backend.open()
    try:
        mover = make_service(other, clock)
        deliveries = Deliveries(store, clock, owner="first")
        (row,) = await deliveries.claim(LEASE)
        seat = start.waiting[0]
        notice = (start.game_id, "deleted", {**NOTICE, "game_id": start.game_id})
        version = start.version
        moves = len(await store.actions(start.game_id))
        results = await asyncio.gather(
            deliveries.channel_deleted(row.id, [], "not found 10003", notice=notice, notice_every=DAY),
            mover.act("chan-1", actor_for(start, seat), "pass"),
            return_exceptions=True)
        assert results[0] is True, results
        status = await service.status("chan-1")
        assert status.info.status == "abandoned"
        actions = await store.actions(start.game_id)
        if isinstance(results[1], Exception):
            assert isinstance(results[1], SessionError), results[1]
            assert status.version == version + 1 and len(actions) == moves
        else:
            assert status.version == version + 2 and len(actions) == moves + 1
        assert [r for r in await store.outbox_rows(start.game_id) if not r.dead and r.delivered_at is None] == []
    finally:
        await other.close()

