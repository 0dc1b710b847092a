"""Ticket to Ride images: the public board, a player's private hand, the final result.

    render_board(view, names, lang) -> PIL.Image   (render.ticket_to_ride.board)
    render_hand(view, names, lang)  -> PIL.Image   (render.ticket_to_ride.hand)
    render_final(view, names, lang) -> PIL.Image   (render.ticket_to_ride.final)

`RENDERER` is what render.registry loads for "ticket_to_ride".
"""
from __future__ import annotations

from render.kit import palette as kit_palette
from render.kit.images import GameImages, Palette
from render.ticket_to_ride.board import render_board
from render.ticket_to_ride.final import render_final
from render.ticket_to_ride.hand import render_hand

RENDERER = GameImages(render_board, render_hand, render_final, palette_png=True,
                      # provisional until this game describes its images and declares its palette
                      describe_board=lambda view, names, lang: "", describe_hand=lambda view, names, lang: "",
                      describe_final=lambda view, names, lang: "",
                      palette=Palette(players=kit_palette.PLAYER_COLORS))

__all__ = ["RENDERER", "render_board", "render_hand", "render_final"]
