"""Galactic Railway images: the public board, a player's tiles, the final result.

    render_board(view, names, lang) -> PIL.Image   (render.ginga.board)
    render_hand(view, names, lang)  -> PIL.Image   (render.ginga.hand)
    render_final(view, names, lang) -> PIL.Image   (render.ginga.final)

each with its alt text (render.ginga.alt). `RENDERER` is what render.registry loads for
"ginga". The palette: the kit's seat colours (up to four players) drawn on the night sky,
the empty cells, the ivory tiles (loops and station rings cross them) and the sidebar
panels; the final image charts scores as lines per player, so it has no category colours.
"""
from __future__ import annotations

from render.ginga import style
from render.ginga.alt import describe_board, describe_final, describe_hand
from render.ginga.board import render_board
from render.ginga.final import render_final
from render.ginga.hand import render_hand
from render.ginga.places import PLACES
from games.ginga.tiles import tileset
from render.kit import palette as kit_palette
from render.kit.images import GameImages, Palette
from render.kit.symbols import Symbols

MAX_PLAYERS = tileset().rules.players_max

PALETTE = Palette(
    players=kit_palette.PLAYER_COLORS[:MAX_PLAYERS],
    surfaces={"sky": style.SKY, "empty cell": style.SKY_CELL, "tile": style.TILE, "panel": style.PANEL,
              "page": style.PANEL_BG},
)

# Nothing on the table is told by its shape but the seats, on the score chart.
SYMBOLS = Symbols()

RENDERER = GameImages(render_board, render_hand, render_final, palette_png=True,
                      describe_board=describe_board, describe_hand=describe_hand, describe_final=describe_final,
                      palette=PALETTE, symbols=SYMBOLS, places=PLACES,
                      scores=lambda view: [[0] * view.n, *(list(row) for row in view.score_history)])

__all__ = ["RENDERER", "PALETTE", "render_board", "render_hand", "render_final"]
