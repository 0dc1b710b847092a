"""Whole random Santa Fe games (basic, advanced, buy-track): they never crash or dead-end,
conserve cards and tiles at every step, never change the state they were given, every legal move
survives its notation, and the secret choice shows in no view but its owner's until the reveal."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from games.santa_fe.models import Play
from games.santa_fe.rules import GAME
from tests.support.protocol_checks import walk_checking_decisions, walk_checking_round_trips
from tests.support.random_play import checked_game, random_walk

MAX_STEPS = 4000
OPTIONS = [{}, {"advanced": True}, {"buy_track": True}, {"advanced": True, "buy_track": True}]


def play(seed: int, n: int, options: dict, bots=("random",), check_every: int = 1):
    return checked_game(GAME, seed, n, MAX_STEPS, options, bots=bots, check_every=check_every)[0]


@pytest.mark.parametrize("block", range(4))
def test_random_games_end_and_conserve(block):
    for seed in range(block * 50, block * 50 + 50):
        n = 2 + seed % 4
        state = play(seed, n, OPTIONS[seed % 4], check_every=3)
        GAME.check_invariants(state)
        result = GAME.result(state)
        assert len(result.players) == n and result.players[0].rank == 1
        assert state.end_reason in ("all_placed", "blocked", "all_passed")


@pytest.mark.parametrize("seed", range(12))
def test_builder_against_random_conserves_at_every_step(seed):
    state = play(seed, 2 + seed % 4, OPTIONS[seed % 4], bots=("builder", "random"))
    assert GAME.result(state).players


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**40), st.integers(2, 5), st.integers(0, 300), st.sampled_from(OPTIONS))
def test_apply_never_mutates_and_notation_round_trips(seed, n, steps, options):
    walk_checking_round_trips(GAME, seed, n, steps, options)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**40), st.integers(2, 5), st.integers(0, 300), st.sampled_from(OPTIONS))
def test_every_legal_move_is_offered_once_by_the_menus(seed, n, steps, options):
    walk_checking_decisions(GAME, seed, n, steps, options)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**40), st.integers(2, 5), st.integers(0, 200))
def test_secret_choice_is_only_in_its_owners_view_until_the_reveal(seed, n, steps):
    state, rng = random_walk(GAME, seed, n, steps)
    if GAME.result(state) is not None or state.phase != "choose":
        return
    chooser = min(GAME.active_players(state))
    action = rng.choice(GAME.legal_actions(state, chooser))
    assert isinstance(action, Play)
    after = GAME.apply(state, chooser, action)
    if after.state.phase == "choose":  # not the last chooser: still secret
        for viewer in [None, *range(n)]:
            v = GAME.view(after.state, viewer)
            p = v.players[chooser]
            assert p.chosen and p.revealed is None
            assert (p.choice is not None) == (viewer == chooser)
            assert p.played == state.players[chooser].played  # the card has not left the hand
        assert all(e.to == (chooser,) for e in after.events if "you_chose" in e.key)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 150))
def test_illegal_actions_are_refused_without_change(seed, steps):
    from games.core.errors import IllegalAction

    pool = set()  # every legal move of the walk, tried again where it is no longer legal
    state, rng = random_walk(GAME, seed, 3, steps, {"advanced": True, "buy_track": True}, offered=pool)
    if GAME.result(state) is not None:
        return
    seat = rng.choice(sorted(GAME.active_players(state)))
    legal = set(GAME.legal_actions(state, seat))
    snapshot = state.model_dump_json()
    for action in list(pool - legal)[:40]:
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, action)
    assert state.model_dump_json() == snapshot
