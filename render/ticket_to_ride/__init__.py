"""Ticket to Ride images: the public board, a player's private hand, the final result.

    render_board(view, names, lang) -> PIL.Image   (render.ticket_to_ride.board)
    render_hand(view, names, lang)  -> PIL.Image   (render.ticket_to_ride.hand)
    render_final(view, names, lang) -> PIL.Image   (render.ticket_to_ride.final)

`RENDERER` is what render.registry loads for "ticket_to_ride".
"""
from __future__ import annotations

from render.kit import palette as kit_palette
from render.kit.images import GameImages, Palette
from render.ticket_to_ride import style
from render.ticket_to_ride.alt import describe_board, describe_final, describe_hand
from render.ticket_to_ride.board import render_board
from render.ticket_to_ride.final import render_final
from render.ticket_to_ride.hand import render_hand

# Seats keep Ticket to Ride's train colours (the kit's first five); their cars stand on the
# parchment map, their chips on white panels and the strips' paper. The final image charts
# scores per player (in seat colours), so no category colour is drawn.
PALETTE = Palette(players=kit_palette.PLAYER_COLORS[:5],
                  surfaces={"map": style.MAP_BG, "panel": style.PANEL, "strip": style.SIDEBAR_BG})

RENDERER = GameImages(render_board, render_hand, render_final, palette_png=True,
                      describe_board=describe_board, describe_hand=describe_hand, describe_final=describe_final,
                      palette=PALETTE)

__all__ = ["RENDERER", "render_board", "render_hand", "render_final"]
