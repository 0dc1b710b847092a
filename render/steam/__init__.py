"""Steam images: the public board, a player's own card, the final result.

    render_board(view, names, lang) -> PIL.Image   (render.steam.board)
    render_hand(view, names, lang)  -> PIL.Image   (render.steam.hand)
    render_final(view, names, lang) -> PIL.Image   (render.steam.final)

`RENDERER` is what render.registry loads for "steam" ("render.steam:RENDERER").
"""
from __future__ import annotations

from render.kit.images import GameImages, Marks, Palette
from render.kit.vision import MIN_PLAYER_VS_PLAYER
from render.steam import style
from render.steam.alt import describe_board, describe_final, describe_hand
from render.steam.board import render_board
from render.steam.final import CATEGORY_COLOURS, render_final
from render.steam.hand import render_hand
from render.steam.places import PLACES

# Players' links run over plains and hills; their rows and cards sit on the panel. The goods
# colours share every city and cube: they must stay apart just as seats do. Black edges, unowned
# links and rivers are told by their colour too, and all of them lie beside the players' links.
PALETTE = Palette(players=style.PLAYER_COLORS,
                  surfaces={"plains": style.PLAINS, "hills": style.HILLS, "panel": style.PANEL_BG},
                  categories=list(CATEGORY_COLOURS.values()),
                  marks={"goods": Marks(dict(style.GOODS), apart=MIN_PLAYER_VS_PLAYER),
                         "map": Marks({"black edge": style.BLACK_EDGE, "unowned link": style.UNOWNED,
                                       "river": style.RIVER})})

RENDERER = GameImages(render_board, render_hand, render_final, palette_png=True, describe_board=describe_board,
                      describe_hand=describe_hand, describe_final=describe_final, palette=PALETTE,
                      symbols=style.SYMBOLS,
                      keep_colours=style.key_colours(), places=PLACES,
                      scores=lambda view: [list(row) for row in view.state.scores])

__all__ = ["RENDERER", "render_board", "render_hand", "render_final"]
