"""A map redrawn from a kept map (render.kit.mapdiff) has the pixels of one drawn afresh."""
from __future__ import annotations

import pytest

from games.catan_express.rules import GAME
from render.catan_express import board as board_mod
from tests.render.catan_express.test_render import NAMES, played
from tests.support.kept_maps import assert_kept_maps_draw_cold_pixels


@pytest.mark.parametrize("case", [(4, "main", "random", 1), (6, "islands", "random", 5)])
def test_boards_in_any_order_have_the_pixels_of_cold_boards(case):
    n = case[0]
    states = played(*case)
    shown = [GAME.view(s, None) for s in states[len(states) // 3::2]][:60]
    # out of order: a kept map from a later board, pieces taken away
    assert_kept_maps_draw_cold_pixels(board_mod, shown, NAMES[:n], "en", shuffle_seed=n, out_of_order=15,
                                      cold_every=6, not_quick_too=True)
