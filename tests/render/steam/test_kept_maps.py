"""A map redrawn from a kept map (render.kit.mapdiff) has the pixels of one drawn afresh."""
from __future__ import annotations

import pytest

from games.steam.rules import GAME
from render.steam import board as board_mod
from tests.render.steam.test_render import NAMES, played
from tests.support.kept_maps import assert_kept_maps_draw_cold_pixels


@pytest.mark.parametrize("case, lang", [(("northeast", 4, 1, False), "en"), (("rhine_ruhr", 5, 5, False), "de")])
def test_boards_in_any_order_have_the_pixels_of_cold_boards(case, lang):
    n = case[1]
    states = played(*case)
    # every move from a third of the way in, then two apart: a kept map one or two builds behind
    later = states[len(states) // 3:]
    shown = [GAME.view(s, None) for s in later[:40] + later[40::2]][:90]
    # out of order: a kept map from a later board, track and names taken away
    assert_kept_maps_draw_cold_pixels(board_mod, shown, NAMES[:n], lang, shuffle_seed=n, out_of_order=20,
                                      cold_every=7)
