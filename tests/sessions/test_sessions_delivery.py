"""The outbox as the dispatcher sees it (bot/sessions/delivery.py), on both backends: a game
post given up leaves its live board waiting on nobody it never pinged."""
from __future__ import annotations

from bot.sessions import SessionService
from bot.sessions.delivery import Deliveries
from bot.sessions.live import LiveBoard
from bot.store import StoreBackend
from tests.support import ALICE, BOB, actor_for

LEASE = 30.0
DAY = 86400.0


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
