"""A map redrawn from a kept map (render.kit.mapdiff) has the pixels of one drawn afresh."""
from __future__ import annotations

import random

import pytest

from games.ticket_to_ride.models import Claim
from games.ticket_to_ride.rules import GAME
from render.kit.regions import MAPS, REGIONS
from render.ticket_to_ride import board as board_mod
from render.ticket_to_ride.board import render_board

NAMES = ["Alice", "Bob", "Chen", "Dee"]


def _views(seed: int, n: int) -> list:
    rng = random.Random(seed)
    state = GAME.setup(n, {}, seed)
    views = []
    while state.phase != "over":
        seat = min(GAME.active_players(state))
        actions = GAME.legal_actions(state, seat)
        claims = [a for a in actions if isinstance(a, Claim)]
        action = rng.choice(claims) if claims and rng.random() < 0.6 else rng.choice(actions)
        state = GAME.apply(state, seat, action).state
        views.append(GAME.view(state, None))
    return views


def _cold() -> None:
    MAPS.clear()
    REGIONS.clear()
    board_mod.KEPT_MAPS.clear()


@pytest.mark.parametrize("seed, n", [(5, 4), (6, 2)])
def test_boards_in_any_order_have_the_pixels_of_cold_boards(seed, n):
    views = _views(seed, n)
    shown = views[::2] + [views[-1]]  # two moves apart too: a kept map two claims behind
    _cold()
    in_order = [render_board(v, NAMES[:n], "en").tobytes() for v in shown]
    assert board_mod.KEPT_MAPS.redraws > 0
    shuffled = list(range(len(shown)))
    random.Random(seed).shuffle(shuffled)
    for i in shuffled[:20]:  # out of order: a kept map from a later board, claims taken away
        assert render_board(shown[i], NAMES[:n], "en").tobytes() == in_order[i], i
    for i in range(0, len(shown), 3):
        _cold()
        assert render_board(shown[i], NAMES[:n], "en").tobytes() == in_order[i], i
