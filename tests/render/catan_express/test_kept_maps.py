"""A map redrawn from a kept map (render.kit.mapdiff) has the pixels of one drawn afresh."""
from __future__ import annotations

import random

import pytest

from games.catan_express.rules import GAME
from render.catan_express import board as board_mod
from render.catan_express.board import render_board
from render.kit.regions import MAPS, REGIONS
from tests.render.catan_express.test_render import NAMES, played


def _cold() -> None:
    MAPS.clear()
    REGIONS.clear()
    board_mod.KEPT_MAPS.clear()


@pytest.mark.parametrize("case", [(4, "main", "random", 1), (6, "islands", "random", 5)])
def test_boards_in_any_order_have_the_pixels_of_cold_boards(case):
    n = case[0]
    states = played(*case)
    shown = [GAME.view(s, None) for s in states[len(states) // 3::2]][:60]
    _cold()
    in_order = [render_board(v, NAMES[:n], "en").tobytes() for v in shown]
    assert board_mod.KEPT_MAPS.redraws > 0
    order = list(range(len(shown)))
    random.Random(n).shuffle(order)
    for i in order[:15]:  # out of order: a kept map from a later board, pieces taken away
        assert render_board(shown[i], NAMES[:n], "en").tobytes() == in_order[i], i
    for i in range(0, len(shown), 6):
        _cold()
        assert render_board(shown[i], NAMES[:n], "en").tobytes() == in_order[i], i
        assert render_board(shown[i], NAMES[:n], "en", quick=False).tobytes() == in_order[i], i
