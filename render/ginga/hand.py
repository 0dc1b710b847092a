"""A player's tiles, drawn large with what they can do now.

Both tiles are public (GT-7), but this image is the player's own page: each tile in its
directions (the station or the grey dot marks half L, the cell a move names), how many places
it fits in each direction, and the best-scoring placements right now.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ginga.board import cell_name
from games.ginga.models import GTView
from games.ginga.notation import ARROWS
from render.ginga import style
from render.ginga.tiles import paste_tile, tile_by_id
from render.kit.text import draw_text, fit_size

WIDTH = 1160
PAD = 28
CELL = 72
SLOT = 168  # width of one direction's drawing
ROW_H = 2 * CELL + 118
BEST_X = PAD + 130 + 4 * SLOT + 16
BEST_LINES = 3


def render_hand(view: GTView, names: Sequence[str], lang: str = "en") -> Image.Image:
    if view.viewer is None:
        raise ValueError("a hand is drawn from a player's own view (viewer is None)")
    seat = view.viewer
    me = view.players[seat]
    rows = max(1, len(me.hand))
    height = 146 + rows * (ROW_H + 14) + 52
    img = Image.new("RGB", (WIDTH, height), style.PANEL_BG)
    d = ImageDraw.Draw(img)
    colour = style.player_rgb(seat)
    d.rounded_rectangle((PAD, PAD, PAD + 18, PAD + 52), 5, fill=colour)
    draw_text(img, (PAD + 32, PAD + 26), translate(lang, "gt.render.hand_title", {"seat": seat}, names), 40,
              style.TEXT, bold=True, anchor="lm", max_width=WIDTH - 2 * PAD - 40)
    if seat in view.active:
        key = "gt.prompt.second" if view.step == "second" else "gt.prompt.place"
        prompt = translate(lang, key, {"tiles": list(me.hand)})
    elif view.phase == "over":
        prompt = translate(lang, "gt.render.game_over")
    else:
        prompt = translate(lang, "gt.render.not_your_turn")
    draw_text(img, (PAD, PAD + 86), prompt, fit_size(prompt, WIDTH - 2 * PAD, 28, 18), style.TEXT, anchor="lm",
              max_width=WIDTH - 2 * PAD)
    y = 146
    if not me.hand:
        draw_text(img, (PAD, y + 40), translate(lang, "gt.render.pile_empty"), 26, style.MUTED, anchor="lm")
    for tile_id in me.hand:
        _tile_row(img, d, view, tile_id, y, lang)
        y += ROW_H + 14
    how = translate(lang, "gt.render.how_to")
    draw_text(img, (PAD, height - 30), how, fit_size(how, WIDTH - 2 * PAD, 21, 14), style.MUTED, anchor="lm",
              max_width=WIDTH - 2 * PAD)
    return img


def _tile_row(img: Image.Image, d: ImageDraw.ImageDraw, view: GTView, tile_id: str, top: int, lang: str) -> None:
    tile = tile_by_id(tile_id)
    d.rounded_rectangle((PAD, top, WIDTH - PAD, top + ROW_H), 14, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
    draw_text(img, (PAD + 20, top + 38), tile_id, 44, style.TEXT, bold=True, anchor="lm")
    playing = view.viewer in view.active
    mine = [o for o in view.options if o.tile == tile_id]
    per_orient = [sum(1 for o in mine if o.orient == k) for k in range(4)]
    base = top + 18
    for slot, k in enumerate((0, 1) if tile.symmetric else (0, 1, 2, 3)):
        x = PAD + 130 + slot * SLOT
        flat = k in (0, 2)
        w = 2 * CELL if flat else CELL
        left = x + (SLOT - w) / 2
        # paste_tile wants half L's cell: the right cell when pointing left, the lower when up
        lx = left + (CELL if k == 2 else 0)
        ly = base + (CELL / 2 if flat else 0) + (CELL if k == 3 else 0)
        paste_tile(img, tile.index, k, (lx, ly), CELL, mark_half=True)
        label = f"{ARROWS[k]} {translate(lang, f'gt.render.direction.{k}')}"
        cx = x + SLOT / 2
        draw_text(img, (cx, base + 2 * CELL + 24), label, 24, style.TEXT, bold=True, anchor="mm")
        if playing:
            count = per_orient[k] + (per_orient[k + 2] if tile.symmetric else 0)
            draw_text(img, (cx, base + 2 * CELL + 56), translate(lang, "gt.render.places", {"count": count}), 19,
                      style.MUTED if count else style.SCORE, anchor="mm")
    if not playing:
        return
    if not mine:
        draw_text(img, (BEST_X, top + 44), translate(lang, "gt.render.no_place"), 24, style.SCORE, bold=True,
                  anchor="lm", max_width=WIDTH - PAD - BEST_X - 12)
        return
    if not any(o.points for o in mine):
        draw_text(img, (BEST_X, top + 44), translate(lang, "gt.render.no_points"), 22, style.MUTED, anchor="lm",
                  max_width=WIDTH - PAD - BEST_X - 12)
        return
    draw_text(img, (BEST_X, top + 34), translate(lang, "gt.render.best"), 22, style.MUTED, bold=True, anchor="lm")
    y = top + 80
    for o in sorted(mine, key=lambda o: (-o.points, o.notation))[:BEST_LINES]:
        (ax, ay), (bx, by) = o.cells
        draw_text(img, (BEST_X, y), f"{ARROWS[o.orient]} {cell_name(ax, ay)}–{cell_name(bx, by)}", 26, style.TEXT,
                  bold=True, anchor="lm")
        pts = f"+{o.points}" if o.points else "±0"
        draw_text(img, (WIDTH - PAD - 18, y), pts, 28, style.SCORE if o.points else style.MUTED, bold=True,
                  anchor="rm")
        y += 44
