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
from render.kit import palette as kit_palette
from render.kit.images import GameImages, Palette

RENDERER = GameImages(render_board, render_hand, render_final, palette_png=True,
                      # provisional until this game describes its images and declares its palette
                      describe_board=lambda view, names, lang: "", describe_hand=lambda view, names, lang: "",
                      describe_final=lambda view, names, lang: "",
                      palette=Palette(players=kit_palette.PLAYER_COLORS))

__all__ = ["RENDERER", "render_board", "render_hand", "render_final"]
