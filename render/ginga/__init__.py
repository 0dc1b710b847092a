"""Galactic Railway images: the public board, a player's tiles, the final result.

    render_board(view, names, lang) -> PIL.Image   (render.ginga.board)
    render_hand(view, names, lang)  -> PIL.Image   (render.ginga.hand)
    render_final(view, names, lang) -> PIL.Image   (render.ginga.final)

`RENDERER` is what render.registry loads for "ginga".
"""
from __future__ import annotations

from render.ginga.board import render_board
from render.ginga.final import render_final
from render.ginga.hand import render_hand


class GalacticRailwayImages:
    palette_png = True  # flat colours: a 256-colour PNG looks the same and encodes faster
    board_image = staticmethod(render_board)
    hand_image = staticmethod(render_hand)
    final_image = staticmethod(render_final)


RENDERER = GalacticRailwayImages()

__all__ = ["RENDERER", "render_board", "render_hand", "render_final"]
