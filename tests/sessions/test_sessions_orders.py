"""Standing orders through the service, on the bid game (tests/support/bid_game.py): set and
refused, followed after other players' moves, cancelled by one's own move, dropped when the
rules refuse them, kept across a restart, left out of pings, and what they save in waits."""
from __future__ import annotations

import json
from typing import Any

import pytest

from bot.sessions import Outcome, SessionError, SessionService
from bot.store import StoreBackend
from games import registry
from tests.support import ALICE, BOB, CAROL, ERIN, actor_for, make_service
from tests.support.backends import Backend
from tests.support.bid_game import MONEY
from tests.support.bot_games import bot_steps, count_waits

CHANNEL = "chan-orders"


async def start_bid(svc: SessionService, game: str = "bid", players: int = 3) -> Outcome:
    await svc.create(game, CHANNEL, "guild-1", ALICE, None, "en")
    for actor in (BOB, CAROL)[:players - 1]:
        await svc.join(CHANNEL, actor)
    return await svc.start(CHANNEL, ALICE)


async def test_an_order_moves_after_another_players_move(svc: SessionService, bid_store: StoreBackend) -> None:
    start = await start_bid(svc)
    first, second = actor_for(start, 0), actor_for(start, 1)
    info = await svc.set_order(CHANNEL, second, "bid up to 3")
    assert [o.notation for o in info.orders] == ["bid up to 3"] and not info.moves_now
    assert info.orders[0].label.params == {"amount": 3}

    out = await svc.act(CHANNEL, first, "bid 1")
    # seat 1's order will answer: it is not pinged, and the caller is told to run the automatic moves
    assert out.waiting == [1] and out.orders_next and out.bots_next
    assert second.user_id not in out.mention_user_ids
    (moved,) = await svc.run_bots(start.game_id)
    assert (moved.seat, moved.notation, moved.auto) == (1, "bid 2", "order")
    assert moved.public_events[0].key == "session.order_move"
    assert moved.public_events[0].params["seat"] == 1
    assert [e.key for e in moved.public_events[1:]] == ["bid.ev.bid"]
    assert moved.waiting == [2] and moved.mention_user_ids == [actor_for(start, 2).user_id]
    log = await bid_store.actions(start.game_id)
    assert (log[-1].auto, log[-1].actor_user_id, log[-1].notation) == ("order", None, "bid 2")
    # "up to 3" still stands for the next round
    assert (await svc.orders_of(CHANNEL, second)).orders[0].notation == "bid up to 3"

    await svc.act(CHANNEL, actor_for(start, 2), "bid 3")
    await svc.act(CHANNEL, first, "bid 4")
    # 5 is more than 3: the order passes for seat 1 and, used up, is gone
    (passed,) = await svc.run_bots(start.game_id)
    assert (passed.seat, passed.notation, passed.auto) == (1, "pass", "order")
    assert (await svc.orders_of(CHANNEL, second)).orders == []
    assert await bid_store.standing_orders(start.game_id) == {}



async def test_orders_that_move_are_due_work_any_process_takes_over(
        svc: SessionService, bid_store: StoreBackend, clock) -> None:
    """An order's move is due work like a bot's: the change that makes it due (another
    player's move, or the order set on one's own turn) writes the game's 'bots' timer, held by
    the process that made the change; if that process dies first, another one takes it over
    once the lease has run out and makes the move."""
    start = await start_bid(svc)
    other = make_service(bid_store, clock, first_seed=5)  # another process on the database
    info = await svc.set_order(CHANNEL, actor_for(start, 0), "bid up to 5")
    assert info.moves_now
    (timer,) = [t for t in await bid_store.timers(start.game_id) if t.kind == "bots"]
    assert (timer.due_at, timer.claimed_by) == (clock.now, svc.deliveries.owner)
    assert await other.due_bots() == []  # ... and the process that set it dies
    clock.advance(svc.deliveries.lease)
    assert await other.due_bots() == [start.game_id]
    (moved,) = await other.run_bots(start.game_id)
    assert (moved.seat, moved.notation, moved.auto) == (0, "bid 1", "order")
    assert [t.kind for t in await bid_store.timers(start.game_id) if t.kind == "bots"] == []

    await svc.set_order(CHANNEL, actor_for(start, 2), "pass")
    out = await svc.act(CHANNEL, actor_for(start, 1), "bid 2")  # Carol's order answers it
    assert out.orders_next
    (timer,) = [t for t in await bid_store.timers(start.game_id) if t.kind == "bots"]
    assert timer.claimed_by == svc.deliveries.owner

async def test_own_move_cancels_orders(svc: SessionService, bid_store: StoreBackend) -> None:
    start = await start_bid(svc)
    first = actor_for(start, 0)
    await svc.set_order(CHANNEL, actor_for(start, 2), "pass")
    # an order set by the player who is to move now applies at once
    info = await svc.set_order(CHANNEL, first, "bid up to 5")
    assert info.active and info.moves_now
    (moved,) = await svc.run_bots(start.game_id, limit=1)
    assert (moved.seat, moved.notation) == (0, "bid 1")
    await svc.set_order(CHANNEL, first, "pass")  # a second order of the same player
    out = await svc.act(CHANNEL, actor_for(start, 1), "bid 2")
    assert not out.orders_cancelled  # Bob had none
    (passed,) = await svc.run_bots(start.game_id, limit=1)  # Carol's "pass"
    assert (passed.seat, passed.notation) == (2, "pass")
    # Alice moves herself: "bid up to 5" and "pass" are both cancelled
    before = await bid_store.standing_orders(start.game_id)
    assert before == {0: ["bid up to 5", "pass"]}
    # her orders would have moved for her, but she answered first (the run had not come yet)
    assert not (await svc.orders_of(CHANNEL, first)).kept_by_own_moves  # the protocol's default
    out = await svc.act(CHANNEL, first, "bid 6")
    assert out.orders_cancelled and out.seat == 0 and out.orders_kept == 0
    assert await bid_store.standing_orders(start.game_id) == {}
    assert (await svc.orders_of(CHANNEL, first)).orders == []


async def test_a_game_may_keep_orders_across_ones_own_move(svc: SessionService, bid_store: StoreBackend) -> None:
    """Game.orders_after_own_move: the bid game whose "pass at" limits stand for the whole
    auction cancels only those one's own bid has reached, and says so truthfully."""
    start = await start_bid(svc, "bid_keeping")
    first = actor_for(start, 0)
    for limit in (9, 11, 12):
        info = await svc.set_order(CHANNEL, first, f"pass at {limit}")
    assert not info.moves_now and info.kept_by_own_moves
    out = await svc.act(CHANNEL, first, "bid 10")
    assert out.orders_cancelled and out.orders_kept == 2
    assert await bid_store.standing_orders(start.game_id) == {0: ["pass at 11", "pass at 12"]}
    # a move of one's own that cancels none says none went
    await svc.act(CHANNEL, actor_for(start, 1), "pass")
    await svc.set_order(CHANNEL, actor_for(start, 2), "pass at 12")
    out = await svc.act(CHANNEL, actor_for(start, 2), "bid 11")
    assert not out.orders_cancelled and out.orders_kept == 1


async def test_a_failing_orders_after_own_move_cancels_them_all(svc: SessionService, bid_store: StoreBackend,
                                                                 monkeypatch, expect_error) -> None:
    expect_error("railyard.sessions", r"orders_after_own_move failed")
    from tests.support.bid_game import KEEPING

    def broken(*args: Any) -> list[str]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(KEEPING, "orders_after_own_move", broken)
    start = await start_bid(svc, "bid_keeping")
    await svc.set_order(CHANNEL, actor_for(start, 0), "pass at 9")
    out = await svc.act(CHANNEL, actor_for(start, 0), "bid 1")  # the move is made all the same
    assert out.orders_cancelled and out.orders_kept == 0 and out.notation == "bid 1"
    assert await bid_store.standing_orders(start.game_id) == {}


async def test_refused_orders_change_nothing(svc: SessionService, backend: Backend, toy_game) -> None:
    start = await start_bid(svc)
    before = await backend.dump()
    with pytest.raises(SessionError) as e:
        await svc.set_order(CHANNEL, actor_for(start, 1), "bid whatever you like")
    assert e.value.code == "order_unparsable" and e.value.params == {"text": "bid whatever you like"}
    with pytest.raises(SessionError) as e:
        await svc.set_order(CHANNEL, actor_for(start, 1), f"bid up to {MONEY + 1}")
    assert e.value.code == "order_not_offered"
    with pytest.raises(SessionError) as e:
        await svc.set_order(CHANNEL, actor_for(start, 1), "bid up to 0")  # below the opening bid
    assert e.value.code == "order_not_offered"
    with pytest.raises(SessionError) as e:
        await svc.set_order(CHANNEL, ERIN, "pass")
    assert e.value.code == "not_in_game"
    with pytest.raises(SessionError) as e:
        await svc.orders_of(CHANNEL, ERIN)
    assert e.value.code == "not_in_game"
    with pytest.raises(SessionError) as e:
        await svc.cancel_order(CHANNEL, actor_for(start, 1), "pass")
    assert e.value.code == "no_such_order"
    assert await backend.dump() == before
    # a game without standing orders says so
    await svc.create("toy", "chan-toy", "guild-1", ALICE, None, "en")
    await svc.join("chan-toy", BOB)
    await svc.start("chan-toy", ALICE)
    with pytest.raises(SessionError) as e:
        await svc.orders_of("chan-toy", ALICE)
    assert e.value.code == "orders_unsupported"


async def test_an_order_the_rules_refuse_is_dropped(svc: SessionService, bid_store: StoreBackend) -> None:
    start = await start_bid(svc, "bid_hasty")
    first, second = actor_for(start, 0), actor_for(start, 1)
    await svc.set_order(CHANNEL, second, "bid up to 3")
    await svc.act(CHANNEL, first, "bid 3")  # "bid 3" outright is no raise any more
    out = await svc.run_bots(start.game_id)
    assert out == []  # no move, no crash
    assert await bid_store.standing_orders(start.game_id) == {}
    status = await svc.status(CHANNEL)
    assert status.waiting == [1]  # the game waits on the person, as without orders
    done = await svc.act(CHANNEL, second, "bid 4")
    assert done.seat == 1 and not done.orders_cancelled


async def test_orders_survive_a_restart(backend: Backend, bid_games: None, clock: Any) -> None:
    store = await backend.open()
    svc = make_service(store, clock)
    start = await start_bid(svc)
    await svc.set_order(CHANNEL, actor_for(start, 2), "bid up to 9")
    await store.close()
    raw = (await backend.dump())["standing_orders"]
    assert [(r[0], r[1], json.loads(r[2])) for r in raw] == [(start.game_id, 2, ["bid up to 9"])]

    store = await backend.open()
    try:
        svc = make_service(store, clock, first_seed=5000)
        assert [o.notation for o in (await svc.orders_of(CHANNEL, actor_for(start, 2))).orders] == ["bid up to 9"]
        await svc.act(CHANNEL, actor_for(start, 0), "bid 1")
        await svc.act(CHANNEL, actor_for(start, 1), "bid 2")
        (moved,) = await svc.run_bots(start.game_id)
        assert (moved.seat, moved.notation, moved.auto) == (2, "bid 3", "order")
    finally:
        await store.close()


async def test_reminders_and_deadlines_leave_order_seats_alone(svc: SessionService, bid_store: StoreBackend,
                                                               clock: Any) -> None:
    start = await start_bid(svc)
    await svc.set_order(CHANNEL, actor_for(start, 1), "bid up to 4")
    await svc.settings(CHANNEL, ALICE, deadline_hours=1)
    await svc.act(CHANNEL, actor_for(start, 0), "bid 1")
    # the process stopped before the order moved: the timers must not ping or time out seat 1
    clock.advance(30 * 24 * 3600)
    assert await svc.due_reminders() == []
    assert await svc.run_deadlines() == []
    (moved,) = await svc.run_bots(start.game_id)
    assert moved.auto == "order" and moved.seat == 1
    # now the game waits on seat 2, who has no orders: reminded as usual
    clock.advance(30 * 24 * 3600)
    reminders = await svc.due_reminders()
    assert [r.user_ids for r in reminders] == [[actor_for(start, 2).user_id]]


def test_counting_waits_with_and_without_orders(bid_games: None) -> None:
    game = registry.get("bid")
    people = {0, 1}
    saved = 0
    for seed in range(8):
        without = count_waits(game, 3, seed, people, "eager")
        expected = sum(1 for step in bot_steps(game, 3, seed, "eager") if step.seat in people)
        assert without.waits == expected and without.order_moves == 0
        with_orders = count_waits(game, 3, seed, people, "eager",
                                  order_policy=lambda state, seat: [f"bid up to {MONEY}"])
        # each person is asked once; their order bids for them every later turn
        assert with_orders.waits <= len(people)
        assert with_orders.waits + with_orders.order_moves <= with_orders.moves
        if without.waits > len(people):
            assert with_orders.order_moves > 0 and with_orders.waits < without.waits
            saved += without.waits - with_orders.waits
    assert saved > 0  # some of these auctions went round the table more than once


async def test_a_kicked_players_orders_leave_with_them(svc: SessionService, bid_store: StoreBackend) -> None:
    start = await start_bid(svc)
    await svc.set_order(CHANNEL, actor_for(start, 2), "pass")
    await svc.set_order(CHANNEL, actor_for(start, 1), "pass")
    assert set(await bid_store.standing_orders(start.game_id)) == {1, 2}
    await svc.kick(CHANNEL, ALICE, 2)
    assert await bid_store.standing_orders(start.game_id) == {1: ["pass"]}
