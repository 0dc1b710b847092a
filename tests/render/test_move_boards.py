"""Boards drawn move after move, with everything kept from the boards before (panel parts named
by their ground, kept maps, kept name choices), have the pixels of boards drawn from nothing, and
their PNGs (kept bands, digests taken from the last image's bands) decode to the indices they
were given."""
from __future__ import annotations

import importlib
import io
import random

import pytest
from PIL import Image

from games import registry as games
from render import registry as renderers
from render.kit import bandpng
from render.kit.encode import few_colours
from render.kit.regions import MAPS, REGIONS
from tests.support.bot_games import bot_states

NAMES = ["Alice", "山田太郎", "Zoë", "Bob", "Carol"]
GAMES = ["santa_fe", "steam", "ticket_to_ride", "ginga", "catan_express"]


def _forget_everything_kept() -> None:
    """Every part, map, name choice and band kept from earlier boards (not the static layers)."""
    REGIONS.clear()
    MAPS.clear()
    for name in GAMES:
        board = importlib.import_module(f"render.{name}.board")
        kept = getattr(board, "KEPT_MAPS", None)
        if kept is not None:
            kept.clear()
    for name in ("santa_fe", "steam"):
        importlib.import_module(f"render.{name}.names")._PLACER._chosen.clear()
    bandpng.BANDS.clear()
    bandpng._LAST.clear()


@pytest.mark.parametrize("name", GAMES)
def test_boards_in_move_order_have_the_pixels_of_boards_drawn_from_nothing(name):
    game = games.get(name)
    renderer = renderers.get(name)
    n = min(4, game.max_players)
    states = bot_states(game, n, 3, next(iter(game.bots())))
    views = [game.view(s, None) for s in states[len(states) // 3:]][:70]
    _forget_everything_kept()
    in_order = []
    for view in views:
        img = renderer.board_image(view, NAMES[:n], "en")
        in_order.append(img.tobytes())
        mapped = few_colours(img, renderer._images)
        assert Image.open(io.BytesIO(bandpng.palette_png(mapped))).tobytes() == mapped.tobytes()
    # out of order, parts kept from later and earlier boards alike
    order = list(range(len(views)))
    random.Random(7).shuffle(order)
    for i in order[:12]:
        assert renderer.board_image(views[i], NAMES[:n], "en").tobytes() == in_order[i], i
    for i in range(0, len(views), 9):
        _forget_everything_kept()
        assert renderer.board_image(views[i], NAMES[:n], "en").tobytes() == in_order[i], i
