"""Forced moves through the service (Game.forced_action), on the bid game whose players can only
pass once the bid has reached everyone's money (tests/support/bid_game.py FORCED): made at once
by `run_bots`, logged as such and announced, nobody pinged for them, a reminder or a deadline
never fired for them, and a game that never forces anything is left to its people."""
from __future__ import annotations

import random
from typing import Any

import pytest

from bot.sessions import Outcome, SessionService
from bot.store import StoreBackend
from games import registry
from tests.support import ALICE, BOB, CAROL, actor_for, make_service
from tests.support.backends import Backend
from tests.support.bid_game import MONEY

CHANNEL = "chan-forced"


async def start(svc: SessionService, game: str) -> Outcome:
    await svc.create(game, CHANNEL, "guild-1", ALICE, None, "en")
    for actor in (BOB, CAROL):
        await svc.join(CHANNEL, actor)
    return await svc.start(CHANNEL, ALICE)


async def test_a_forced_move_is_made_at_once_logged_and_pings_nobody(svc: SessionService,
                                                                     bid_store: StoreBackend) -> None:
    begun = await start(svc, "bid_forced")
    out = await svc.act(CHANNEL, actor_for(begun, 0), f"bid {MONEY}")
    # the next two can only pass: nobody is pinged, and the caller is told to run the automatic moves
    assert out.waiting == [1] and out.bots_next and out.mention_user_ids == []
    moved = await svc.run_bots(begun.game_id)
    assert [(m.seat, m.notation, m.auto) for m in moved] == [(1, "pass", "forced"), (2, "pass", "forced")]
    first = moved[0].public_events
    assert first[0].key == "session.forced_move" and first[0].params["seat"] == 1
    assert [e.key for e in first[1:]] == ["bid.ev.pass"]
    assert moved[-1].status == "finished" and moved[0].mention_user_ids == []
    log = await bid_store.actions(begun.game_id)
    assert [(a.seat, a.auto, a.actor_user_id) for a in log[-2:]] == [(1, "forced", None), (2, "forced", None)]
    assert await bid_store.timers(begun.game_id) == []


async def test_reminders_and_deadlines_leave_a_forced_seat_alone(svc: SessionService, clock: Any) -> None:
    begun = await start(svc, "bid_forced")
    await svc.settings(CHANNEL, ALICE, deadline_hours=1)
    await svc.act(CHANNEL, actor_for(begun, 0), f"bid {MONEY}")
    # the process stopped before the forced move was made: the timers must not ping or time out seat 1
    clock.advance(30 * 24 * 3600)
    assert await svc.due_reminders() == []
    assert await svc.run_deadlines() == []
    moved = await svc.run_bots(begun.game_id)
    assert [m.auto for m in moved] == ["forced", "forced"] and moved[-1].status == "finished"


async def test_a_move_with_a_choice_left_waits_for_its_person(svc: SessionService) -> None:
    begun = await start(svc, "bid_forced")
    out = await svc.act(CHANNEL, actor_for(begun, 0), f"bid {MONEY - 1}")
    assert out.waiting == [1] and not out.bots_next
    assert out.mention_user_ids == [actor_for(begun, 1).user_id]
    assert await svc.run_bots(begun.game_id) == []


async def test_a_game_that_forces_nothing_asks_every_time(svc: SessionService) -> None:
    begun = await start(svc, "bid")
    out = await svc.act(CHANNEL, actor_for(begun, 0), f"bid {MONEY}")
    assert out.waiting == [1] and not out.bots_next and out.mention_user_ids == [actor_for(begun, 1).user_id]
    assert await svc.run_bots(begun.game_id) == []


@pytest.mark.slow  # a whole game
@pytest.mark.parametrize("name, options, players, bots", [("catan_express", {"map": "islands"}, 2, 4),
                                                     ("steam", {}, 2, 2)])
async def test_a_real_game_makes_its_players_forced_moves(backend: Backend, clock: Any, name, options, players,
                                                          bots) -> None:
    """People whose moves the builder bot picks, beside bots: the moves the rules force on them
    (Catan Express's by a hand's public size, Steam's single legal moves) are made for them,
    logged as forced, and those seats are never pinged for them."""
    store = await backend.open()
    try:
        svc = make_service(store, clock)
        game = registry.get(name)
        await svc.create(name, CHANNEL, "guild-1", ALICE, options, "en")
        for actor in (BOB, CAROL)[:players - 1]:
            await svc.join(CHANNEL, actor)
        for _ in range(bots):
            await svc.add_bot(CHANNEL, ALICE, "builder")
        out = await svc.start(CHANNEL, ALICE)
        people = {seat: actor_for(out, seat) for seat, user in enumerate(out.seat_user_ids) if user}
        picker, rng = game.bots()["builder"], random.Random(5)
        outcomes = [out, *await svc.run_bots(out.game_id)]
        for _ in range(1500):
            row = await store.get_game(out.game_id)
            if row.status != "active":
                break
            state = game.load_state(row.snapshot)
            seat = min(s for s in game.active_players(state) if s in people)
            assert game.forced_action(state, seat) is None  # a forced move is never left to its person
            outcomes.append(await svc.act(CHANNEL, people[seat], game.format_action(picker.choose(game, state, seat, rng))))
            outcomes += await svc.run_bots(out.game_id)
        assert row.status == "finished"
        forced = [o for o in outcomes if o.auto == "forced"]
        assert forced and {o.seat for o in forced} <= set(people)
        assert all(o.public_events[0].key == "session.forced_move" for o in forced)
        log = await store.actions(out.game_id)
        assert sum(a.auto == "forced" for a in log) == len(forced)
        # the move before a forced one named its seat as waited on, without pinging it
        for before, made in zip(outcomes, outcomes[1:]):
            if made.auto == "forced":
                assert people[made.seat].user_id not in before.mention_user_ids
    finally:
        await store.close()
