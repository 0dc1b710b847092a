"""Answers that lapse (Game.lapse_action), through the service with the fake clock, on Catan
Express's trade offers (CE-B5): an offer nobody answers closes as refused once the game's
reminder delay has passed since it was made — each missing answer made by the rules in one
transaction, announced and logged as lapsed — and nobody is reminded of an answer that lapses.
An answer given meanwhile does not put the lapse off; the offerer picking a partner ends it;
the timer is stored, so a restarted process fires it; standing orders answer first."""
from __future__ import annotations

import random
from typing import Any

import pytest
import pytest_asyncio

from bot.sessions import Outcome, SessionService
from bot.store import StoreBackend
from games import registry
from tests.support import ALICE, BOB, CAROL, actor_for, make_service
from tests.support.backends import Backend

CHANNEL = "chan-lapse"
GAME = registry.get("catan_express")


@pytest_asyncio.fixture
async def ce_store(backend: Backend):
    s = await backend.open()
    yield s
    await s.close()


@pytest.fixture
def svc_ce(ce_store: StoreBackend, clock: Any) -> SessionService:
    return make_service(ce_store, clock)


async def start(svc: SessionService) -> Outcome:
    await svc.create("catan_express", CHANNEL, "guild-1", ALICE, {"layout": "beginner"}, "en")
    for actor in (BOB, CAROL):
        await svc.join(CHANNEL, actor)
    return await svc.start(CHANNEL, ALICE)


async def state_of(store: StoreBackend, game_id: int) -> Any:
    return GAME.load_state((await store.get_game(game_id)).snapshot)


async def to_an_offer(svc: SessionService, store: StoreBackend, begun: Outcome) -> Outcome:
    """Play the game (the builder bot's moves, turns ended at once) to a main phase where the
    player to move can offer one card for one of a resource both others hold (so either may
    accept), and make that offer. Returns its outcome."""
    picker, rng = GAME.bots()["builder"], random.Random(3)
    names = ("lumber", "brick", "wool", "grain", "ore")
    for _ in range(400):
        state = await state_of(store, begun.game_id)
        seat = min(GAME.active_players(state))
        if state.phase == "main" and not state.moving and state.offers_made == 0:
            hand = state.players[seat].hand
            others = [p.hand for s, p in enumerate(state.players) if s != seat]
            for get in range(5):
                give = next((i for i, n in enumerate(hand) if n and i != get), None)
                if give is not None and all(h[get] for h in others):
                    return await svc.act(CHANNEL, actor_for(begun, seat), f"offer 1{names[give]} 1{names[get]}")
        if state.phase == "main":
            move = "end"
        elif state.phase == "answer":
            move = "refuse"
        else:
            move = GAME.format_action(picker.choose(GAME, state, seat, rng))
        await svc.act(CHANNEL, actor_for(begun, seat), move)
        await svc.run_bots(begun.game_id)
    raise AssertionError("no offer came up")


def lapse_timer(timers) -> Any:
    found = [t for t in timers if t.kind == "lapse"]
    return found[0] if found else None


async def test_an_offer_nobody_answers_closes_as_refused_after_the_reminder_delay(
        svc_ce: SessionService, ce_store: StoreBackend, clock: Any) -> None:
    svc, store = svc_ce, ce_store
    begun = await start(svc)
    offered = await to_an_offer(svc, store, begun)
    offerer = offered.seat
    others = sorted(s for s in range(3) if s != offerer)
    assert offered.waiting == others and len(offered.mention_user_ids) == 2
    delay = 720 * 60.0  # the default reminder delay
    timer = lapse_timer(await store.timers(begun.game_id))
    assert timer is not None and timer.due_at == clock.now + delay

    clock.advance(delay - 1)
    assert await svc.run_lapses() == [] and await svc.due_reminders() == []
    clock.advance(1)
    # the reminder is due too, but an answer that lapses is not reminded of
    assert await svc.due_reminders() == []
    version = offered.version
    closed = await svc.run_lapses()
    assert [(o.seat, o.notation, o.auto) for o in closed] == [(s, "refuse", "lapsed") for s in others]
    assert [o.version for o in closed] == [version + 1, version + 2]  # one after the other, nothing between
    first = closed[0].public_events[0]
    assert first.key == "session.lapsed_move" and first.params == {
        "seat": others[0], "move": {"key": "catan_express.do.refuse", "params": {}}}
    assert closed[0].post.notation == "answer"  # the log's public notation, as for any answer
    assert closed[-1].public_events[-1].key == "catan_express.ev.answers"
    after = await state_of(store, begun.game_id)
    assert after.phase == "main" and after.offer is None and closed[-1].waiting == [offerer]
    assert closed[-1].mention_user_ids == [actor_for(begun, offerer).user_id]
    log = await store.actions(begun.game_id)
    assert [(a.seat, a.auto, a.actor_user_id) for a in log[-2:]] == [(s, "lapsed", None) for s in others]
    assert lapse_timer(await store.timers(begun.game_id)) is None
    assert await svc.run_lapses() == []
    # the offerer is waited on now, and reminded as usual after the delay
    clock.advance(delay)
    (reminder,) = await svc.due_reminders()
    assert reminder.user_ids == [actor_for(begun, offerer).user_id]


async def test_an_answer_given_meanwhile_does_not_put_the_lapse_off(
        svc_ce: SessionService, ce_store: StoreBackend, clock: Any) -> None:
    svc, store = svc_ce, ce_store
    begun = await start(svc)
    offered = await to_an_offer(svc, store, begun)
    offerer = offered.seat
    first, second = sorted(s for s in range(3) if s != offerer)
    due = lapse_timer(await store.timers(begun.game_id)).due_at
    clock.advance(3600)
    accepted = await svc.act(CHANNEL, actor_for(begun, first), "accept")
    # the offerer may pick now: waited on and pinged; the other answer still lapses on time
    assert accepted.waiting == sorted([offerer, second])
    assert actor_for(begun, offerer).user_id in accepted.mention_user_ids
    assert lapse_timer(await store.timers(begun.game_id)).due_at == due
    clock.advance(due - clock.now)
    assert await svc.due_reminders() == []  # the reminder's delay runs from the last move, the answer
    (lapsed,) = await svc.run_lapses()
    assert (lapsed.seat, lapsed.auto) == (second, "lapsed")
    state = await state_of(store, begun.game_id)
    assert state.phase == "pick" and GAME.acceptors(state) == [first] and lapsed.waiting == [offerer]


async def test_picking_a_partner_closes_the_answers_and_the_lapse(
        svc_ce: SessionService, ce_store: StoreBackend, clock: Any) -> None:
    svc, store = svc_ce, ce_store
    begun = await start(svc)
    offered = await to_an_offer(svc, store, begun)
    offerer = offered.seat
    first, second = sorted(s for s in range(3) if s != offerer)
    await svc.act(CHANNEL, actor_for(begun, first), "accept")
    traded = await svc.act(CHANNEL, actor_for(begun, offerer), f"trade @{first + 1}")
    assert traded.waiting == [offerer] and actor_for(begun, second).user_id not in traded.mention_user_ids
    assert [e.key for e in traded.public_events][:1] == ["catan_express.ev.answers_closed"]
    assert lapse_timer(await store.timers(begun.game_id)) is None
    clock.advance(30 * 24 * 3600)
    assert await svc.run_lapses() == []


async def test_the_lapse_is_stored_and_a_restarted_process_fires_it(
        backend: Backend, clock: Any) -> None:
    store = await backend.open()
    try:
        svc = make_service(store, clock)
        begun = await start(svc)
        offered = await to_an_offer(svc, store, begun)
    finally:
        await store.close()
    clock.advance(720 * 60.0)
    store = await backend.open()  # a new process on the same database
    try:
        fresh = make_service(store, clock, first_seed=77)
        closed = await fresh.run_lapses()
        assert [o.auto for o in closed] == ["lapsed", "lapsed"] and closed[-1].waiting == [offered.seat]
        assert (await state_of(store, begun.game_id)).phase == "main"
    finally:
        await store.close()


async def test_standing_orders_answer_before_anything_lapses(
        svc_ce: SessionService, ce_store: StoreBackend, clock: Any) -> None:
    svc, store = svc_ce, ce_store
    begun = await start(svc)
    # both players who will answer the first offer refuse every offer by order (the offerer's
    # own order never answers: set it for everyone)
    for seat in range(3):
        await svc.set_order(CHANNEL, actor_for(begun, seat), "refuse all")
    offered = await to_an_offer(svc, store, begun)
    assert offered.bots_next and offered.mention_user_ids == []  # the orders answer: nobody pinged
    assert lapse_timer(await store.timers(begun.game_id)) is None  # nothing to lapse
    moved = await svc.run_bots(begun.game_id)
    assert [(m.notation, m.auto) for m in moved] == [("refuse", "order"), ("refuse", "order")]
    assert moved[0].post.notation == "answer" and moved[-1].waiting == [offered.seat]


async def test_a_game_without_lapses_writes_no_lapse_timer(svc: SessionService, bid_store: StoreBackend) -> None:
    await svc.create("bid", CHANNEL, "guild-1", ALICE, None, "en")
    await svc.join(CHANNEL, BOB)
    begun = await svc.start(CHANNEL, ALICE)
    await svc.act(CHANNEL, actor_for(begun, 0), "bid 1")
    assert {t.kind for t in await bid_store.timers(begun.game_id)} == {"reminder"}
