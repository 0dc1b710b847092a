"""A map redrawn from a kept map (render.kit.mapdiff) has the pixels of one drawn afresh."""
from __future__ import annotations

import random

import pytest

from games.steam.rules import GAME
from render.kit.regions import MAPS, REGIONS
from render.steam import board as board_mod
from render.steam.board import render_board
from tests.render.steam.test_render import NAMES, played


def _cold() -> None:
    MAPS.clear()
    REGIONS.clear()
    board_mod.KEPT_MAPS.clear()


@pytest.mark.parametrize("case, lang", [(("northeast", 4, 1, False), "en"), (("rhine_ruhr", 5, 5, False), "de")])
def test_boards_in_any_order_have_the_pixels_of_cold_boards(case, lang):
    n = case[1]
    states = played(*case)
    # every move from a third of the way in, then two apart: a kept map one or two builds behind
    later = states[len(states) // 3:]
    shown = [GAME.view(s, None) for s in later[:40] + later[40::2]][:90]
    _cold()
    in_order = [render_board(v, NAMES[:n], lang).tobytes() for v in shown]
    assert board_mod.KEPT_MAPS.redraws > 0
    order = list(range(len(shown)))
    random.Random(n).shuffle(order)
    for i in order[:20]:  # out of order: a kept map from a later board, track and names taken away
        assert render_board(shown[i], NAMES[:n], lang).tobytes() == in_order[i], i
    for i in range(0, len(shown), 7):
        _cold()
        assert render_board(shown[i], NAMES[:n], lang).tobytes() == in_order[i], i
