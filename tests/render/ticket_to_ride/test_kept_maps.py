"""A map redrawn from a kept map (render.kit.mapdiff) has the pixels of one drawn afresh."""
from __future__ import annotations

import pytest

from games.ticket_to_ride.rules import GAME
from render.ticket_to_ride import board as board_mod
from tests.render.ticket_to_ride.test_render import played
from tests.support.kept_maps import assert_kept_maps_draw_cold_pixels

NAMES = ["Alice", "Bob", "Chen", "Dee"]


@pytest.mark.parametrize("seed, n", [(5, 4), (6, 2)])
def test_boards_in_any_order_have_the_pixels_of_cold_boards(seed, n):
    views = [GAME.view(after, None) for *_, after in played(seed, n)]
    shown = views[::2] + [views[-1]]  # two moves apart too: a kept map two claims behind
    # out of order: a kept map from a later board, claims taken away
    assert_kept_maps_draw_cold_pixels(board_mod, shown, NAMES[:n], "en", shuffle_seed=seed, out_of_order=20,
                                      cold_every=3)
