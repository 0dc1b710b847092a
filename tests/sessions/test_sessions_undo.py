"""Undo within the rules of fairness, and the snapshot always equal to seed + log replay."""
from __future__ import annotations

import random

import pytest

from bot.sessions import SessionError, SessionService
from bot.store import StoreBackend
from games.core import IllegalAction
from tests.support import actor_for, make_service, open_all


async def _undo_error(service: SessionService, actor) -> SessionError:
    with pytest.raises(SessionError) as e:
        await service.undo("chan-1", actor)
    return e.value


async def test_undo_own_public_move_restores_the_state(service: SessionService, start_game, store) -> None:
    out = await open_all(service, "chan-1", await start_game())
    mover = actor_for(out, 0)
    before = await service.private_view("chan-1", mover.user_id)
    card = before.view.hand[1]
    played = await service.act("chan-1", mover, f"play {card}")
    assert played.waiting == [1]
    undone = await service.undo("chan-1", mover)
    assert undone.kind == "undo" and undone.notation == f"play {card}"
    assert undone.version == played.version + 1
    assert [e.key for e in undone.public_events] == ["session.undone"]
    assert undone.public_events[0].params == {"seat": 0, "notation": f"play {card}"}
    assert undone.waiting == [0] and undone.mention_user_ids == [mover.user_id]
    after = await service.private_view("chan-1", mover.user_id)
    assert after.view == before.view.model_copy(update={})
    history = await service.history("chan-1")
    assert [(h.kind, h.notation, h.undone) for h in history[-2:]] == [
        ("move", f"play {card}", True), ("undo", f"play {card}", False)]
    # the undo itself was written to the outbox like a move
    assert (await store.outbox_rows(out.game_id))[-1].kind == "undo"


async def test_undo_refusals(service: SessionService, start_game, db_path) -> None:
    start = await start_game()
    first, second = actor_for(start, 0), actor_for(start, 1)
    assert (await _undo_error(service, first)).code == "nothing_to_undo"

    await service.act("chan-1", first, "open red")
    err = await _undo_error(service, second)  # second has made no move at all
    assert (err.code, err.params, err.message_key) == (
        "nothing_of_yours_to_undo", {}, "error.nothing_of_yours_to_undo")
    await service.act("chan-1", second, "open blue")  # reveals both choices
    err = await _undo_error(service, second)
    assert err.params == {"reason": "hidden_info_revealed"}
    # first opened before second, but the game now waits on first's turn, in which first
    # has not moved yet: nothing of theirs can be taken back
    assert (await _undo_error(service, first)).code == "nothing_of_yours_to_undo"

    await service.act("chan-1", first, "draw")  # a blind draw: hidden information
    assert (await _undo_error(service, first)).params == {"reason": "hidden_info_revealed"}


async def test_undo_too_late_or_with_nothing_of_ones_own(service: SessionService, start_game) -> None:
    out = await open_all(service, "chan-1", await start_game(players=3))
    first, second, third = (actor_for(out, seat) for seat in range(3))
    hand = (await service.private_view("chan-1", first.user_id)).view.hand
    await service.act("chan-1", first, f"play {hand[0]}")
    await service.act("chan-1", second, "pass")
    # first moved, then second: too late for first, who is not to move now
    assert (await _undo_error(service, first)).params == {"reason": "someone_moved_since"}
    # third is to move and has not moved in this turn
    assert (await _undo_error(service, third)).code == "nothing_of_yours_to_undo"
    # second's pass is the last move: second may still take it back
    assert (await service.undo("chan-1", second)).notation == "pass"


async def test_undo_in_a_simultaneous_phase_and_chained_undos(service: SessionService, start_game) -> None:
    start = await start_game()
    first, second = actor_for(start, 0), actor_for(start, 1)
    await service.act("chan-1", first, "open red")
    out = await service.undo("chan-1", first)
    assert out.waiting == [0, 1]
    out = await open_all(service, "chan-1", out)
    await service.act("chan-1", first, "pass")
    await service.act("chan-1", second, "pass")
    await service.undo("chan-1", second)
    out = await service.undo("chan-1", first)  # now the last move in force is first's again
    assert out.waiting == [0]
    # the move in force before that is second's opening, which revealed both colours; first
    # is to move and has not moved in this turn
    assert (await _undo_error(service, first)).code == "nothing_of_yours_to_undo"
    assert (await _undo_error(service, second)).params == {"reason": "hidden_info_revealed"}
    state = await service.rebuild(start.game_id)
    assert state.turn == 0 and state.round == 1 and state.phase == "play"


async def test_no_undo_after_the_end(service: SessionService, start_game) -> None:
    out = await open_all(service, "chan-1", await start_game(options={"rounds": 1}))
    await service.act("chan-1", actor_for(out, 0), "pass")
    last = await service.act("chan-1", actor_for(out, 1), "pass")
    assert last.status == "finished"
    assert (await _undo_error(service, actor_for(out, 1))).code == "no_game_here"


async def _assert_snapshot_matches_replay(service: SessionService, store: StoreBackend, toy_game, game_id: int) -> None:
    row = await store.get_game(game_id)
    stored = toy_game.load_state(row.snapshot)
    rebuilt = await service.rebuild(game_id)
    assert rebuilt == stored
    toy_game.check_invariants(stored)


@pytest.mark.parametrize("seed", range(8))
async def test_snapshot_equals_replay_after_random_moves_and_undos(
        seed: int, backend, toy_game, clock) -> None:
    rng = random.Random(seed)
    async with await backend.open() as store:
        service = make_service(store, clock, first_seed=seed * 7919)
        players = 2 + seed % 3
        from tests.support import PLAYERS

        await service.create("toy", "chan-1", "g", PLAYERS[0], {"rounds": 12, "deck_size": 30})
        for actor in PLAYERS[1:players]:
            await service.join("chan-1", actor)
        out = await service.start("chan-1", PLAYERS[0])
        undos = moves = 0
        last_mover = None
        for step in range(400):
            if out.status != "active":
                break
            clock.advance(rng.randint(1, 5000))
            seat = rng.choice(out.waiting)
            actor = actor_for(out, seat)
            if rng.random() < 0.3:
                if last_mover is not None and rng.random() < 0.8:
                    actor = last_mover  # usually the one who may undo; sometimes not
                try:
                    out = await service.undo("chan-1", actor)
                    undos += 1
                except SessionError as exc:
                    assert exc.code in ("nothing_to_undo", "nothing_of_yours_to_undo", "undo_not_allowed")
                continue
            view = await service.private_view("chan-1", actor.user_id)
            if rng.random() < 0.1:  # sometimes an illegal move: refused, nothing changes
                with pytest.raises(IllegalAction):
                    await service.act("chan-1", actor, "play 0")
                continue
            out = await service.act("chan-1", actor, rng.choice(view.legal).notation)
            last_mover = actor
            moves += 1
            if step % 10 == 0:
                await _assert_snapshot_matches_replay(service, store, toy_game, out.game_id)
        await _assert_snapshot_matches_replay(service, store, toy_game, out.game_id)
        assert moves > 10 and undos > 0
        history = await service.history("chan-1")
        assert sum(1 for h in history if h.kind == "undo") == undos
        assert [h.seq for h in history] == list(range(1, len(history) + 1))
