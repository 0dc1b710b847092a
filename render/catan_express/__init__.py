"""Catan Express images: the public board, a player's own hand, the final result.

    render_board(view, names, lang) -> PIL.Image   (render.catan_express.board)
    render_hand(view, names, lang)  -> PIL.Image   (render.catan_express.hand)
    render_final(view, names, lang) -> PIL.Image   (render.catan_express.final)

each with its alt text (render.catan_express.alt), and where the rules' places are on the board
for pick pictures (render.catan_express.picks). `RENDERER` is what render.registry loads for
"catan_express" ("render.catan_express:RENDERER"). The palette: six seat colours drawn on the
seven terrains, the sea and the panel; the final image's category colours.
"""
from __future__ import annotations

from render.catan_express import style
from render.catan_express.alt import describe_board, describe_final, describe_hand
from render.catan_express.board import render_board
from render.catan_express.final import CATEGORY_COLOURS, points_history, render_final
from render.catan_express.hand import render_hand
from render.catan_express.picks import PLACES
from render.kit.images import GameImages, Marks, Palette

# Terrains say which resource a hex gives, resources colour the harbours' chips and the hand's
# cards, a blue ring marks a stop and a yellow one the tokens of the number just rolled.
PALETTE = Palette(players=style.PLAYER_COLORS,
                  surfaces={**{f"terrain {k}": v for k, v in style.TERRAIN.items()}, "sea": style.SEA,
                            "panel": style.PANEL_BG},
                  categories=CATEGORY_COLOURS,
                  marks={"terrain": Marks(dict(style.TERRAIN), apart=style.TERRAIN_APART), "resource": Marks(dict(style.RESOURCE)),
                         "marker": Marks({"stop": style.STOP, "produced": style.PRODUCED})})

RENDERER = GameImages(render_board, render_hand, render_final, palette_png=True, describe_board=describe_board,
                      describe_hand=describe_hand, describe_final=describe_final, palette=PALETTE,
                      symbols=style.SYMBOLS,
                      keep_colours=style.key_colours(), places=PLACES,
                      scores=points_history)

__all__ = ["RENDERER", "PALETTE", "render_board", "render_hand", "render_final"]
