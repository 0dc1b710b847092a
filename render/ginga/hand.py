"""A player's tiles and, on their turn, where each can go: one numbered table per held tile
(render.ginga.placements), side by side, under a card naming the tile and its best score.

Discord fits an image into a preview box about 400 px wide and 350 px tall, so a tall image
is shown tiny until clicked: the tables stand side by side and share one cut of the table
(the cells any held tile can use), and the cells are sized so the image is
never taller than it is wide. A legend shows the two badge styles (scores now / not).
"""
from __future__ import annotations

import math
from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ginga.models import GingaView, Option
from render.ginga import style
from render.ginga.placements import bounds, cell_for, draw_badge, numbered_table, table_size
from render.ginga.places import menu_numbers
from render.ginga.tiles import paste_tile, tile_by_id
from render.kit.legibility import MIN_TEXT_PX_AT_400, SHOWN_AT
from render.kit.text import draw_text, measure, wrap

WIDTH = 1200
PAD = 16
GAP = 16  # between the tables
HEADER_H = 140
HEAD = 96  # a tile's card and the space under it
TEXT = 24  # 8 px when shown 400 px wide
LEGEND_H = 56
SUMMARY = 26  # a tile's placements and best score
FLOOR = math.ceil(MIN_TEXT_PX_AT_400 * WIDTH / SHOWN_AT)  # the smallest legible text at this width


def render_hand(view: GingaView, names: Sequence[str], lang: str = "en") -> Image.Image:
    if view.viewer is None:
        raise ValueError("a hand is drawn from a player's own view (viewer is None)")
    seat = view.viewer
    me = view.players[seat]
    playing = seat in view.active and view.phase != "over"
    per_tile = [(t, [o for o in view.options if o.tile == t] if playing else []) for t in me.hand]
    numbered = [o for _, mine in per_tile for o in mine]
    cols = max(1, min(2, len(per_tile)))
    rows = math.ceil(len(per_tile) / cols)
    col_w = (WIDTH - 2 * PAD - (cols - 1) * GAP) // cols
    numbers = {t: menu_numbers(view, mine) for t, mine in per_tile}
    how = wrap(translate(lang, "ginga.render.numbers_how"), TEXT, WIDTH - 2 * PAD, lang) if numbered else []
    if any(None in n for n in numbers.values()):  # the menu numbers these by part of the table
        how += wrap(translate(lang, "ginga.render.numbers_parts"), TEXT, WIDTH - 2 * PAD, lang)
    foot = (LEGEND_H + len(how) * (TEXT + 10)) if numbered else 0
    box = bounds(view, numbered)
    table_h = 0
    if numbered:  # the tables take what is left of a square image
        room = (WIDTH - HEADER_H - rows * (HEAD + 16) - foot - PAD) // rows  # rows >= 1: tiles are held
        cell = cell_for(box, col_w, room)
        table_h = table_size(box, cell)[1]
    height = HEADER_H + rows * (HEAD + table_h + 16) + foot + PAD + (60 if not per_tile else 0)
    img = Image.new("RGB", (WIDTH, height), style.PANEL_BG)
    _header(img, view, me.hand, seat, names, playing, lang)
    y = HEADER_H
    if not per_tile:
        draw_text(img, (PAD, y + 30), translate(lang, "ginga.render.pile_empty"), TEXT, style.MUTED, anchor="lm")
    for i, (tile_id, mine) in enumerate(per_tile):
        x = PAD + (i % cols) * (col_w + GAP)
        top = y + (i // cols) * (HEAD + table_h + 16)
        _tile_card(img, tile_id, mine, playing, x, top, col_w, lang)
        if mine:
            table, _ = numbered_table(view, mine, numbers[tile_id], box, cell, FLOOR)
            img.paste(table, (x + (col_w - table.width) // 2, top + HEAD))
    if numbered:
        y += rows * (HEAD + table_h + 16)
        _legend(img, y, lang)
        y += LEGEND_H
        for line in how:
            draw_text(img, (PAD, y + TEXT / 2), line, TEXT, style.MUTED, anchor="lm")
            y += TEXT + 10
    return img


def _header(img: Image.Image, view: GingaView, hand: Sequence[str], seat: int, names: Sequence[str], playing: bool,
            lang: str) -> None:
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((PAD, PAD, PAD + 18, PAD + 52), 5, fill=style.player_rgb(seat), outline=style.TEXT, width=1)
    draw_text(img, (PAD + 32, PAD + 26), translate(lang, "ginga.render.hand_title", {"seat": seat}, names), 40,
              style.TEXT, bold=True, anchor="lm", max_width=WIDTH - 2 * PAD - 40)
    if playing:
        key = "ginga.prompt.second" if view.step == "second" else "ginga.prompt.place"
        prompt = translate(lang, key, {"tiles": list(hand)})
    elif view.phase == "over":
        prompt = translate(lang, "ginga.render.game_over")
    else:
        prompt = translate(lang, "ginga.render.not_your_turn")
    draw_text(img, (PAD, PAD + 88), prompt, 26, style.TEXT, anchor="lm", max_width=WIDTH - 2 * PAD)


def _tile_card(img: Image.Image, tile_id: str, mine: list[Option], playing: bool, left: int, top: int, width: int,
               lang: str) -> None:
    d = ImageDraw.Draw(img)
    h = HEAD - 14
    d.rounded_rectangle((left, top, left + width, top + h), 14, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
    cell = 42
    tile_box = paste_tile(img, tile_by_id(tile_id).index, 0, (left + 16, top + (h - cell) / 2), cell, mark_half=True)
    mid = top + h / 2
    draw_text(img, (tile_box[2] + 16, mid), tile_id, 42, style.TEXT, bold=True, anchor="lm")
    x = tile_box[2] + 16 + measure(tile_id, 42, True)[0] + 20
    if playing:
        if not mine:
            text, colour = translate(lang, "ginga.render.no_place"), style.SCORE
        else:
            best = max(o.points for o in mine)
            key = "ginga.render.tile_summary_best" if best else "ginga.render.tile_summary"
            text, colour = translate(lang, key, {"count": len(mine), "points": best}), style.TEXT
        # half a hand's width: a long summary takes two lines rather than losing its end
        lines = wrap(text, SUMMARY, left + width - 14 - x, lang, bold=True)[:2]
        first = mid - (len(lines) - 1) * (SUMMARY + 6) / 2
        for i, line in enumerate(lines):
            draw_text(img, (x, first + i * (SUMMARY + 6)), line, SUMMARY, colour, bold=True, anchor="lm",
                      max_width=left + width - 14 - x)


def _legend(img: Image.Image, top: int, lang: str) -> None:
    """One badge of each style with what it means, on a strip of the table's sky."""
    d = ImageDraw.Draw(img)
    side = LEGEND_H - 16
    x = PAD
    for number, scores, key in ((1, True, "ginga.render.numbers_scoring"), (2, False, "ginga.render.numbers_plain")):
        label = translate(lang, key)
        w = side + 12 + measure(label, TEXT, bold=True)[0] + 24
        d.rounded_rectangle((x, top + 4, x + w, top + 4 + side + 4), 10, fill=style.SKY)
        draw_badge(img, (x + 4, top + 6, x + 4 + side, top + 6 + side), number, scores, FLOOR + 2)
        draw_text(img, (x + side + 16, top + 6 + side / 2), label, TEXT, style.STATION, bold=True, anchor="lm")
        x += w + 24
