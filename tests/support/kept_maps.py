"""The check every game's board must pass where it redraws its map from a kept one
(render.kit.mapdiff): boards drawn in any order have the pixels of boards drawn afresh."""
from __future__ import annotations

import random
from types import ModuleType
from typing import Any, Sequence

from render.kit.regions import MAPS, REGIONS


def forget_kept_maps(board: ModuleType) -> None:
    """No map kept: the next board is drawn afresh (cold)."""
    MAPS.clear()
    REGIONS.clear()
    board.KEPT_MAPS.clear()


def assert_kept_maps_draw_cold_pixels(board: ModuleType, shown: Sequence[Any], names: Sequence[str], lang: str, *,
                                      shuffle_seed: Any, out_of_order: int, cold_every: int,
                                      not_quick_too: bool = False) -> None:
    """Draw the views `shown` in order with `board.render_board` (some from kept maps), then
    `out_of_order` of them shuffled by `shuffle_seed` (a kept map from a later board, pieces
    taken away), then every `cold_every`-th cold: each has the pixels it had in order (and,
    with `not_quick_too`, drawn with quick=False as well)."""
    forget_kept_maps(board)
    in_order = [board.render_board(v, names, lang).tobytes() for v in shown]
    assert board.KEPT_MAPS.redraws > 0
    order = list(range(len(shown)))
    random.Random(shuffle_seed).shuffle(order)
    for i in order[:out_of_order]:
        assert board.render_board(shown[i], names, lang).tobytes() == in_order[i], i
    for i in range(0, len(shown), cold_every):
        forget_kept_maps(board)
        assert board.render_board(shown[i], names, lang).tobytes() == in_order[i], i
        if not_quick_too:
            assert board.render_board(shown[i], names, lang, quick=False).tobytes() == in_order[i], i
