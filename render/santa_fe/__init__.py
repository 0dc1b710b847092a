"""Santa Fe images: the public board, a player's private hand, the final result.

    render_board(view, names, lang) -> PIL.Image   (render.santa_fe.board)
    render_hand(view, names, lang)  -> PIL.Image   (render.santa_fe.hand)
    render_final(view, names, lang) -> PIL.Image   (render.santa_fe.final)

`RENDERER` is what render.registry loads for "santa_fe".
"""
from __future__ import annotations

from render.kit.images import GameImages, Marks, Palette
from render.kit.vision import MIN_PLAYER_VS_PLAYER
from render.santa_fe import style
from render.santa_fe.alt import describe_board, describe_final, describe_hand
from render.santa_fe.board import render_board
from render.santa_fe.final import CATEGORY_COLOURS, render_final
from render.santa_fe.hand import render_hand
from render.santa_fe.places import PLACES

# Players are drawn on the land (played-card tags), the panel and its white cards. The railroads
# share a board and touch at every junction: they must stay apart just as seats do, and a
# played-card tag beside a city must not be taken for a railroad reaching it. Rivers and the gold
# of the coast's 7-value cities are told by their colour too.
RAILROAD_COLOURS = {style.rr_code(r): style.rr_rgb(r) for r in range(5)}
PALETTE = Palette(players=style.PLAYER_COLORS,
                  surfaces={"land": style.LAND, "panel": style.SIDEBAR_BG, "card": style.PANEL},
                  categories=list(CATEGORY_COLOURS.values()),
                  marks={"railroad": Marks(RAILROAD_COLOURS, apart=MIN_PLAYER_VS_PLAYER),
                         "map": Marks({"river": style.RIVER, "7-value city": style.SEVEN_FILL})})
RAILROADS = Palette(players=list(RAILROAD_COLOURS.values()))

RENDERER = GameImages(render_board, render_hand, render_final, palette_png=True, describe_board=describe_board,
                      describe_hand=describe_hand, describe_final=describe_final, palette=PALETTE,
                      symbols=style.SYMBOLS, places=PLACES,
                      scores=lambda view: [list(row) for row in view.scores])

__all__ = ["RENDERER", "render_board", "render_hand", "render_final"]
