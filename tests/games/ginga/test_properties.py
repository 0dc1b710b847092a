"""Whole random Galactic Railway games: they never crash or dead-end, always reach the end
(everyone passed in a row), keep all 32 tiles at every step, never change the state they were
given, and every legal move survives its notation."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from games.core.errors import IllegalAction
from games.replay import GameRecord, ReplayError, replay
from games.ginga.models import Place, Stop
from games.ginga.rules import GAME
from games.ginga.scoring import totals
from tests.support.protocol_checks import walk_checking_decisions, walk_checking_round_trips
from tests.support.random_play import checked_game, random_walk

MAX_STEPS = 200  # a game has at most 32 placements and their stops


def _the_current_player(state, active: list[int]) -> int:
    assert active == [state.current], "exactly the current player moves"
    assert GAME.legal_actions(state, state.current), "the player to move always has a move (passes are automatic)"
    return state.current


def play(seed: int, n: int, check_every: int = 1, bots=("random",)):
    return checked_game(GAME, seed, n, MAX_STEPS, bots=bots, check_every=check_every, seat_of=_the_current_player)


@pytest.mark.parametrize("block", range(10))
def test_thousand_random_games_end_and_conserve_the_tiles(block):
    for seed in range(block * 100, block * 100 + 100):
        n = 2 + seed % 3
        state, steps = play(seed, n, check_every=3)
        GAME.check_invariants(state)
        result = GAME.result(state)
        assert len(result.players) == n and result.players[0].rank == 1
        assert state.passes_in_row == n  # GT-8: it ended because everyone passed in a row
        for p in result.players:
            assert p.total == sum(totals(state, p.seat))


@pytest.mark.parametrize("seed", range(12))
def test_scorer_games_conserve_at_every_step_and_beat_random_play(seed):
    state, _ = play(seed, 2, bots=("scorer", "random"))
    result = GAME.result(state)
    assert result.players


def test_the_scorer_wins_most_games_against_random_players():
    wins = 0
    for seed in range(30):
        state, _ = play(seed, 2, check_every=50, bots=("scorer", "random"))
        result = GAME.result(state)
        wins += next(p for p in result.players if p.seat == 0).rank == 1
    assert wins >= 22, wins


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**40), st.integers(2, 4), st.integers(0, 80))
def test_apply_never_mutates_and_notation_round_trips(seed, n, steps):
    walk_checking_round_trips(GAME, seed, n, steps)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**40), st.integers(2, 4), st.integers(0, 80))
def test_every_legal_move_is_offered_once_by_the_menus(seed, n, steps):
    walk_checking_decisions(GAME, seed, n, steps)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 60))
def test_actions_that_are_not_legal_are_refused_without_change(seed, steps):
    state, rng = random_walk(GAME, seed, 3, steps, seat_of=lambda s: s.current)
    if GAME.result(state) is not None:
        return
    seat = state.current
    legal = set(GAME.legal_actions(state, seat))
    snapshot = state.model_dump_json()
    tried = 0
    for _ in range(60):
        tile = rng.choice(state.hands[seat] + [rng.randrange(32)])
        action = Place(tile=tile, x=rng.randrange(15), y=rng.randrange(15), orient=rng.randrange(4))
        if action in legal:
            continue
        # a symmetric tile's other way round is the same placement: also legal
        try:
            GAME.apply(state, seat, action)
        except IllegalAction as exc:
            assert exc.code.startswith(("ginga.", "not_active")), exc.code
            tried += 1
        else:
            from games.ginga.tiles import tileset

            assert tileset().tiles[action.tile].symmetric and action.orient >= 2
        assert state.model_dump_json() == snapshot
    if Stop() not in legal:
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, Stop())
    assert tried > 0
    with pytest.raises(IllegalAction):
        GAME.apply(state, (seat + 1) % 3, next(iter(legal)))


def test_the_same_seed_gives_the_same_game():
    a, _ = play(77, 3)
    b, _ = play(77, 3)
    assert a == b
    c, _ = play(78, 3)
    assert c != a


def test_views_round_trip_and_never_show_the_pile_below_its_top():
    state, _ = play(5, 3)
    rng = random.Random(5)
    state = GAME.setup(3, None, 5)
    for _ in range(10):
        state = GAME.apply(state, state.current, rng.choice(GAME.legal_actions(state, state.current))).state
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        assert type(view).model_validate_json(view.model_dump_json()) == view
        text = view.model_dump_json()
        for hidden in state.pile[1:]:
            assert f'"T{hidden + 1}"' not in text


# --------------------------------------------------------------------------- recorded games
FIXTURES = sorted(Path("tests/fixtures/ginga").glob("*.json"))


def test_there_are_recorded_games():
    assert len(FIXTURES) >= 3
    players = {json.loads(p.read_text(encoding="utf-8"))["players"] for p in FIXTURES}
    assert players == {2, 3, 4}


def test_a_tampered_record_stops_at_the_bad_move():
    data = json.loads(FIXTURES[0].read_text(encoding="utf-8"))
    seat = data["moves"][6][0]
    data["moves"][6] = [seat, "place T1 at A1 right"]
    with pytest.raises(ReplayError) as err:
        replay(GameRecord.model_validate(data))
    assert err.value.index == 6 and "move 7" in str(err.value)
