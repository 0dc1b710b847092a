"""Ticket to Ride images: the public board, a player's private hand, the final result.

    render_board(view, names, lang) -> PIL.Image   (render.ticket_to_ride.board)
    render_hand(view, names, lang)  -> PIL.Image   (render.ticket_to_ride.hand)
    render_final(view, names, lang) -> PIL.Image   (render.ticket_to_ride.final)

`RENDERER` is what render.registry loads for "ticket_to_ride".
"""
from __future__ import annotations

from render.kit import palette as kit_palette
from render.kit.images import GameImages, Marks, Palette
from render.ticket_to_ride import icons, style
from render.ticket_to_ride.alt import describe_board, describe_final, describe_hand
from render.ticket_to_ride.board import render_board
from render.ticket_to_ride.final import render_final
from render.ticket_to_ride.hand import render_hand
from render.ticket_to_ride.places import PLACES

# Seats keep Ticket to Ride's train colours (the kit's first five); their cars stand on the
# parchment map, their chips on white panels and the strips' paper. The final image charts
# scores per player (in seat colours), so no category colour is drawn.
# The card colours are the routes' colours too; the players' trains are card colours by the rules,
# so only the card colours are held apart from each other (each also has its shape).
PALETTE = Palette(players=kit_palette.PLAYER_COLORS[:5],
                  surfaces={"map": style.MAP_BG, "panel": style.PANEL, "strip": style.SIDEBAR_BG},
                  marks={"card colour": Marks(dict(style.CARD_COLORS), of_players=True)})

RENDERER = GameImages(render_board, render_hand, render_final, palette_png=True,
                      describe_board=describe_board, describe_hand=describe_hand, describe_final=describe_final,
                      palette=PALETTE, symbols=icons.SYMBOLS, places=PLACES,
                      scores=lambda view: [list(row) for row in view.history])

__all__ = ["RENDERER", "render_board", "render_hand", "render_final"]
