"""Whole random games: they never crash or dead-end, conserve 110 cards, 30 tickets and 45
trains a player at every step, never change the state they were given, and every legal move
survives its notation."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from games.core.errors import IllegalAction
from games.core.graph import longest_trail
from games.ticket_to_ride.rules import GAME
from tests.games.ticket_to_ride.test_face_up import assert_face_up_settled
from tests.support.protocol_checks import walk_checking_decisions, walk_checking_round_trips
from tests.support.random_play import checked_game, random_walk

MAX_STEPS = 3000  # a real game takes a few hundred actions; more means a dead end


def play(seed: int, n: int, check_every: int = 1, bots=("random",)):
    return checked_game(GAME, seed, n, MAX_STEPS, bots=bots, check_every=check_every, check=assert_face_up_settled)


@pytest.mark.slow  # a thousand whole games
@pytest.mark.parametrize("block", range(10))
def test_thousand_random_games_end_and_conserve(block):
    for seed in range(block * 100, block * 100 + 100):
        n = 2 + seed % 4
        state, steps = play(seed, n, check_every=7)
        GAME.check_invariants(state)
        result = GAME.result(state)
        assert len(result.players) == n and result.players[0].rank == 1


@pytest.mark.slow  # whole games
@pytest.mark.parametrize("seed", range(20))
def test_planner_games_conserve_at_every_step(seed):
    state, _ = play(seed, 2 + seed % 4, bots=("planner", "random"))
    assert GAME.result(state).players


@pytest.mark.slow  # forty walks of up to 400 moves
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**40), st.integers(2, 5), st.integers(0, 400))
def test_apply_never_mutates_and_notation_round_trips(seed, n, steps):
    walk_checking_round_trips(GAME, seed, n, steps)


@pytest.mark.slow  # a whole game
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**40), st.integers(2, 5), st.integers(0, 400))
def test_every_legal_move_is_offered_once_by_the_menus(seed, n, steps):
    walk_checking_decisions(GAME, seed, n, steps)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 200))
def test_illegal_actions_are_refused_without_change(seed, steps):
    """Every action that is not in legal_actions is refused with a code and no change."""
    state, rng = random_walk(GAME, seed, 3, steps)
    if GAME.result(state) is not None:
        return
    seat = rng.choice(sorted(GAME.active_players(state)))
    legal = {GAME.format_action(a) for a in GAME.legal_actions(state, seat)}
    candidates = ["draw deck", "tickets", "pass"] + [f"draw {c}" for c in GAME.board.card_colors]
    candidates += [f"claim {r.code} {c}" for r in GAME.board.routes[::7] for c in ("red", "locomotive")]
    candidates += ["keep 1,2", "keep 30"]
    before = state.model_dump_json()
    for text in candidates:
        if text in legal:
            continue
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, seat, GAME.parse_action(text))
        assert err.value.code
        assert state.model_dump_json() == before
    other = next(i for i in range(3) if i not in GAME.active_players(state)) if len(GAME.active_players(state)) < 3 else None
    if other is not None:
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, other, GAME.legal_actions(state, seat)[0])
        assert err.value.code == "not_active"


@pytest.mark.parametrize("text", ["", "   ", "claim", "claim Nowhere-Atlantis red", "draw", "keep",
                                  "keep a,b", "fly to the moon", "draw plaid", "claim Atlanta-Miami blue+x",
                                  "x" * 500, "claim Atlanta-Raleigh red", "ドロー"])
def test_garbage_text_is_refused_with_a_code(text):
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action(text)
    assert err.value.code in {"unparsable", "ticket_to_ride.unknown_color", "ticket_to_ride.unknown_route", "ticket_to_ride.ambiguous_route"}


def test_notation_accepts_either_city_order_aliases_and_case():
    a = GAME.parse_action("CLAIM miami-atlanta Blue+2")
    assert GAME.format_action(a) == "claim Atlanta-Miami blue+2"
    assert GAME.parse_action("draw wild").source == "locomotive"
    assert GAME.parse_action("claim Atlanta-New Orleans yellow") == GAME.parse_action("claim Atlanta-New Orleans/yellow yellow")


# --- the longest trail is exact ---------------------------------------------------------
def brute_force_trail(edges):
    best = 0

    def walk(node, used, length):
        nonlocal best
        best = max(best, length)
        for i, (a, b, w) in enumerate(edges):
            if i in used or node not in (a, b):
                continue
            walk(b if node == a else a, used | {i}, length + w)

    for node in {x for e in edges for x in e[:2]}:
        walk(node, frozenset(), 0)
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(1, 6)), max_size=9))
def test_longest_trail_matches_brute_force(edges):
    edges = [e for e in edges if e[0] != e[1]]
    assert longest_trail(edges) == brute_force_trail(edges)


def test_longest_trail_uses_a_loop_and_a_detour():
    # A triangle with a tail: the trail goes round the loop and out along the tail.
    assert longest_trail([(0, 1, 2), (1, 2, 2), (2, 0, 2), (0, 3, 5)]) == 11
    # Two separate pieces: the longer one counts; a figure eight is used whole.
    assert longest_trail([(0, 1, 1), (5, 6, 3), (6, 7, 3), (7, 5, 3)]) == 9
    assert longest_trail([(0, 1, 1), (1, 2, 1), (2, 0, 1), (0, 3, 1), (3, 4, 1), (4, 0, 1)]) == 6
    assert longest_trail([]) == 0


def test_a_ticket_choice_has_one_spelling():
    """Found by the property test above: "keep 1,2" and "keep 2,1" are the same move."""
    assert GAME.parse_action("keep 2,1") == GAME.parse_action("keep 1, 2")
    state = GAME.setup(3, None, 221)
    legal = [GAME.format_action(a) for a in GAME.legal_actions(state, 0)]
    assert len(legal) == len(set(legal)) == 4
    assert all(list(map(int, x[5:].split(","))) == sorted(map(int, x[5:].split(","))) for x in legal)
