"""Moves through the service: turns, simultaneous choices, refusals that change nothing,
outbox rows, bots, the end of a game, and races between two processes."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.sessions import SessionError, SessionService
from bot.store import StoreBackend
from games.core import IllegalAction
from tests.support import ALICE, BOB, CAROL, actor_for, make_service, open_all
from tests.support.toy_game import Play


async def _outbox_payloads(store: StoreBackend, game_id: int) -> list[dict[str, Any]]:
    return [json.loads(r.payload_json) for r in await store.outbox_rows(game_id)]


async def test_simultaneous_opening_then_turns(service: SessionService, start_game, store) -> None:
    start = await start_game()
    first, second = actor_for(start, 0), actor_for(start, 1)
    out = await service.act("chan-1", second, "open blue")
    assert out.seat == 1 and out.notation == "open blue" and out.kind == "move"
    assert out.waiting == [0] and out.mention_user_ids == [first.user_id]
    assert [e.key for e in out.public_events] == ["toy.opened"]
    assert [e.key for e in out.private_events[1]] == ["toy.you_opened"]
    assert out.view.openings == [None, None]  # the spectator view keeps the secret
    out = await service.act("chan-1", first, "OPEN  red")
    assert [e.key for e in out.public_events] == ["toy.opened", "toy.revealed"]
    assert out.view.openings == ["red", "blue"] and out.waiting == [0]
    assert out.version == start.version + 2


async def test_refused_moves_change_nothing(service: SessionService, start_game, backend) -> None:
    start = await start_game()
    out = await open_all(service, "chan-1", start)
    mover, other = actor_for(out, 0), actor_for(out, 1)
    before = await backend.dump()

    with pytest.raises(IllegalAction) as e:
        await service.act("chan-1", other, "pass")
    assert e.value.code == "not_active" and e.value.params == {"waiting": [0]}
    with pytest.raises(SessionError) as e:
        await service.act("chan-1", CAROL, "pass")
    assert e.value.code == "not_in_game"
    with pytest.raises(IllegalAction) as e:
        await service.act("chan-1", mover, "fly to the moon")
    assert e.value.code == "unparsable" and e.value.params == {"text": "fly to the moon"}
    with pytest.raises(IllegalAction) as e:
        await service.act("chan-1", mover, {"kind": "teleport"})
    assert e.value.code == "unparsable"
    with pytest.raises(IllegalAction) as e:
        await service.act("chan-1", mover, "play 999")
    assert e.value.code == "card_not_in_hand"
    with pytest.raises(IllegalAction) as e:
        await service.act("chan-1", mover, "open red")
    assert e.value.code == "wrong_phase"
    with pytest.raises(SessionError) as e:
        await service.act("chan-1", mover, "pass", expected_version=out.version - 1)
    assert e.value.code == "stale_version" and e.value.params == {"version": out.version}
    with pytest.raises(SessionError) as e:
        await service.undo("chan-1", CAROL)
    assert e.value.code == "not_in_game"

    assert await backend.dump() == before
    # and the right move with the right version still works
    ok = await service.act("chan-1", mover, "pass", expected_version=out.version)
    assert ok.version == out.version + 1


async def test_actions_may_be_given_as_models(service: SessionService, start_game) -> None:
    out = await open_all(service, "chan-1", await start_game())
    view = await service.private_view("chan-1", out.seat_user_ids[0])
    card = view.view.hand[0]
    played = await service.act("chan-1", actor_for(out, 0), Play(card=card))
    assert played.notation == f"play {card}"
    assert played.view.table[0] == [card]


async def test_outbox_rows_are_written_with_the_move_and_stay_public(
        service: SessionService, start_game, store: StoreBackend) -> None:
    start = await start_game()
    out = await open_all(service, "chan-1", start)
    drew = await service.act("chan-1", actor_for(out, 0), "draw")
    secret = drew.private_events[0][0]
    assert secret.key == "toy.you_drew" and secret.to == (0,)
    assert all(e.to is None for e in drew.public_events)

    rows = await store.outbox_rows(start.game_id)
    assert len(rows) == 1 + 2 + 1  # start, two openings, the draw
    assert [r.kind for r in rows] == ["start", "move", "move", "move"]
    assert rows[-1].id == drew.outbox_id
    for row in rows:
        payload = json.loads(row.payload_json)
        assert payload["game_id"] == start.game_id and payload["channel_id"] == "chan-1"
        for event in payload["events"]:
            assert event["to"] is None
            assert not event["key"].startswith("toy.you_")
        assert payload["view"]["hand"] is None  # the spectator view, never a hand
        assert "you_drew" not in row.payload_json and "you_opened" not in row.payload_json
    last = json.loads(rows[-1].payload_json)
    assert last["version"] == drew.version and last["notation"] == "draw"
    assert last["mention_user_ids"] == drew.mention_user_ids == [drew.seat_user_ids[1]]
    # the action log keeps only the public events too
    history = await service.history("chan-1")
    assert [e.key for e in history[-1].events] == ["toy.drew"]


async def test_a_game_plays_to_its_end(service: SessionService, start_game, store: StoreBackend) -> None:
    out = await open_all(service, "chan-1", await start_game(options={"rounds": 2}))
    while out.status == "active":
        seat = out.waiting[0]
        view = await service.private_view("chan-1", out.seat_user_ids[seat])
        move = f"play {view.view.hand[0]}" if view.view.hand else "pass"
        assert move in [m.notation for m in view.legal]
        out = await service.act("chan-1", actor_for(out, seat), move)
    assert out.status == "finished" and out.result is not None
    assert out.waiting == [] and out.mention_user_ids == [] and not out.bots_next
    assert [p.rank for p in out.result.players][0] == 1
    assert await store.timers(out.game_id) == []
    payload = json.loads((await store.outbox_rows(out.game_id))[-1].payload_json)
    assert payload["finished"] is True and payload["result"]["players"]
    with pytest.raises(SessionError) as e:
        await service.act("chan-1", ALICE, "pass")
    assert e.value.code == "no_game_here"  # the channel is free for a new game
    status = await service.status("chan-1")  # but the last game can still be looked at
    assert status.info.status == "finished" and status.result is not None and status.waiting == []
    assert (await service.private_view("chan-1", ALICE.user_id)).active is False
    await service.create("toy", "chan-1", "guild-1", BOB)


async def test_status_private_view_history_and_waiting(service: SessionService, start_game) -> None:
    start = await start_game()
    await start_game(channel="chan-2", guild="guild-2")
    status = await service.status("chan-1")
    assert status.waiting == [0, 1] and status.version == start.version
    assert sorted(status.waiting_user_ids) == sorted(u for u in start.seat_user_ids if u)
    assert status.view.hand is None

    mine = await service.private_view("chan-1", ALICE.user_id)
    assert mine.view.hand is not None and len(mine.view.hand) == 3
    assert [m.notation for m in mine.legal] == ["open red", "open blue"]
    assert mine.prompt is not None and mine.prompt.key == "toy.prompt.opening"
    with pytest.raises(SessionError) as e:
        await service.private_view("chan-1", CAROL.user_id)
    assert e.value.code == "not_in_game"

    waiting = await service.games_waiting_on(ALICE.user_id)
    assert sorted(w.channel_id for w in waiting) == ["chan-1", "chan-2"]
    assert [w.channel_id for w in await service.games_waiting_on(ALICE.user_id, "guild-2")] == ["chan-2"]
    await service.act("chan-1", ALICE, "open red")
    assert [w.channel_id for w in await service.games_waiting_on(ALICE.user_id)] == ["chan-2"]
    assert await service.games_waiting_on(CAROL.user_id) == []

    history = await service.history("chan-1")
    assert [(h.seq, h.kind, h.name, h.notation) for h in history] == [(1, "move", "Alice", "open red")]


async def test_bots_move_until_a_human_is_needed(service: SessionService, start_game) -> None:
    start = await start_game(players=1, bots=("random",))
    assert start.bots_next is True
    bot_seat = next(s for s, u in enumerate(start.seat_user_ids) if u is None)
    human_seat = 1 - bot_seat
    outs = await service.run_bots(start.game_id)
    assert [o.seat for o in outs] == [bot_seat] and outs[0].auto == "bot"
    assert await service.step_bot(start.game_id) is None  # waiting on the human now
    out = await service.act("chan-1", ALICE, "open red")
    while out.status == "active":
        if out.bots_next:
            outs = await service.run_bots(out.game_id)
            assert outs and all(o.seat == bot_seat for o in outs)
            out = outs[-1]
        else:
            assert out.waiting == [human_seat] and out.mention_user_ids == [ALICE.user_id]
            out = await service.act("chan-1", ALICE, "pass")
    history = await service.history("chan-1")
    assert {h.auto for h in history if h.seat == bot_seat} == {"bot"}
    assert {h.auto for h in history if h.seat == human_seat} == {None}


async def test_bot_games_are_reproducible(backend, toy_game, clock) -> None:
    results = []
    for run in range(2):
        async with await (await backend.fresh()).open() as store:
            service = make_service(store, clock)
            await service.create("toy", "c", "g", ALICE, {"rounds": 6})
            for _ in range(3):
                await service.add_bot("c", ALICE, "random")
            start = await service.start("c", ALICE)
            await service.kick("c", ALICE, ALICE.user_id)  # resign: a bot takes over
            outs = await service.run_bots(start.game_id)
            assert outs[-1].status == "finished"
            results.append(([o.notation for o in outs], outs[-1].result))
    assert results[0] == results[1]


async def test_run_bots_respects_its_limit(service: SessionService, start_game) -> None:
    start = await start_game(players=1, bots=("first",), options={"rounds": 50})
    await service.kick("chan-1", ALICE, ALICE.user_id)
    outs = await service.run_bots(start.game_id, limit=7)
    assert len(outs) == 7 and outs[-1].status == "active"


async def test_two_processes_same_move_same_version_exactly_one_applies(
        backend, toy_game, clock, start_game) -> None:
    a_store, b_store = await backend.open(), await backend.open()
    try:
        a, b = make_service(a_store, clock), make_service(b_store, clock, first_seed=5)
        start = await start_game(svc=a)
        out = await open_all(a, "chan-1", start)
        mover = actor_for(out, 0)

        barrier = asyncio.Barrier(2)
        for svc in (a, b):  # both read the board before either writes: a real race
            original = svc.core.read_channel

            async def read_then_wait(*args, _original=original, _first=[True], **kwargs):
                result = await _original(*args, **kwargs)
                if _first[0]:
                    _first[0] = False
                    await barrier.wait()
                return result

            svc.core.read_channel = read_then_wait  # type: ignore[method-assign]

        results = await asyncio.gather(
            a.act("chan-1", mover, "pass", expected_version=out.version),
            b.act("chan-1", mover, "pass", expected_version=out.version),
            return_exceptions=True,
        )
        applied = [r for r in results if not isinstance(r, Exception)]
        refused = [r for r in results if isinstance(r, SessionError)]
        assert len(applied) == 1 and len(refused) == 1, results
        assert refused[0].code == "stale_version" and refused[0].params["version"] == out.version + 1
        history = await a.history("chan-1")
        assert [h.notation for h in history].count("pass") == 1
        assert (await b.status("chan-1")).version == out.version + 1
    finally:
        await a_store.close()
        await b_store.close()


async def test_typed_moves_without_a_version_are_retried_after_a_lost_race(
        backend, toy_game, clock, start_game) -> None:
    a_store, b_store = await backend.open(), await backend.open()
    try:
        a, b = make_service(a_store, clock), make_service(b_store, clock, first_seed=5)
        start = await start_game(svc=a)
        barrier = asyncio.Barrier(2)
        for svc in (a, b):
            original = svc.core.read_channel

            async def read_then_wait(*args, _original=original, _first=[True], **kwargs):
                result = await _original(*args, **kwargs)
                if _first[0]:
                    _first[0] = False
                    await barrier.wait()
                return result

            svc.core.read_channel = read_then_wait  # type: ignore[method-assign]
        # both seats choose at the same time: different moves, both must land
        r0, r1 = await asyncio.gather(
            a.act("chan-1", actor_for(start, 0), "open red"),
            b.act("chan-1", actor_for(start, 1), "open blue"),
        )
        assert sorted([r0.version, r1.version]) == [start.version + 1, start.version + 2]
        state = await a.rebuild(start.game_id)
        assert state.openings == ["red", "blue"] and state.phase == "play"
    finally:
        await a_store.close()
        await b_store.close()

