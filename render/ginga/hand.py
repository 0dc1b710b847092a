"""A player's tiles and, on their turn, where each can go: the table drawn once per tile with
every legal placement numbered exactly as the menu numbers it (games/ginga/decisions.py,
`Option.number` in the view), so "3" in the picture is "3." in the menu.

A number sits in the cell that half L (the station, or the grey dot) would cover, a little
towards half R, with a tick pointing at R's cell: the same pair of cells taken the other way
round puts its number in the other cell, so no two numbers share a spot. Numbers of
placements that score now are gold.

The image is as wide as one table and grows downwards, one section per tile: its numbers
stay above the kit's legibility floor when the image is shown 400 px wide.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ginga.models import GTView, Option
from render.ginga import style
from render.ginga.board import Grid, table_image
from render.ginga.tiles import paste_tile, tile_by_id
from render.kit.text import draw_text, measure, wrap

WIDTH = 1000
PAD = 28
TABLE = WIDTH - 2 * PAD
HEADER_H = 150
SECTION_HEAD = 112
TEXT = 24  # 9.6 px when shown 400 px wide
NUMBER = 22
DIR_VEC = ((1, 0), (0, 1), (-1, 0), (0, -1))  # orient 0 right, 1 down, 2 left, 3 up
OFFSET = 0.27  # of a cell, from half L's centre towards half R


def render_hand(view: GTView, names: Sequence[str], lang: str = "en") -> Image.Image:
    if view.viewer is None:
        raise ValueError("a hand is drawn from a player's own view (viewer is None)")
    seat = view.viewer
    me = view.players[seat]
    playing = seat in view.active and view.phase != "over"
    sections = []
    for tile_id in me.hand:
        mine = [o for o in view.options if o.tile == tile_id] if playing else []
        table = _numbered_table(view, mine) if mine else None
        sections.append((tile_id, mine, table))
    how = wrap(translate(lang, "gt.render.numbers_how"), TEXT, WIDTH - 2 * PAD, lang) if playing else []
    height = HEADER_H + sum(SECTION_HEAD + (s[2].height + 12 if s[2] else 0) + 16 for s in sections)
    height += max(1, len(how)) * (TEXT + 10) + PAD + (60 if not sections else 0)
    img = Image.new("RGB", (WIDTH, height), style.PANEL_BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((PAD, PAD, PAD + 18, PAD + 52), 5, fill=style.player_rgb(seat), outline=style.TEXT, width=1)
    draw_text(img, (PAD + 32, PAD + 26), translate(lang, "gt.render.hand_title", {"seat": seat}, names), 40,
              style.TEXT, bold=True, anchor="lm", max_width=WIDTH - 2 * PAD - 40)
    if playing:
        key = "gt.prompt.second" if view.step == "second" else "gt.prompt.place"
        prompt = translate(lang, key, {"tiles": list(me.hand)})
    elif view.phase == "over":
        prompt = translate(lang, "gt.render.game_over")
    else:
        prompt = translate(lang, "gt.render.not_your_turn")
    draw_text(img, (PAD, PAD + 90), prompt, 26, style.TEXT, anchor="lm", max_width=WIDTH - 2 * PAD)
    y = HEADER_H
    if not sections:
        draw_text(img, (PAD, y + 30), translate(lang, "gt.render.pile_empty"), TEXT, style.MUTED, anchor="lm")
        y += 60
    for tile_id, mine, table in sections:
        y = _section_head(img, d, tile_id, mine, playing, y, lang)
        if table is not None:
            img.paste(table, (PAD, y))
            y += table.height + 12
        y += 16
    for line in how:
        draw_text(img, (PAD, y + TEXT / 2), line, TEXT, style.MUTED, anchor="lm")
        y += TEXT + 10
    return img


def _section_head(img: Image.Image, d: ImageDraw.ImageDraw, tile_id: str, mine: list[Option], playing: bool,
                  top: int, lang: str) -> int:
    d.rounded_rectangle((PAD, top, WIDTH - PAD, top + SECTION_HEAD - 12), 14, fill=style.PANEL,
                        outline=style.PANEL_EDGE, width=2)
    cell = 44
    box = paste_tile(img, tile_by_id(tile_id).index, 0, (PAD + 16, top + (SECTION_HEAD - 12 - cell) / 2), cell,
                     mark_half=True)
    mid = top + (SECTION_HEAD - 12) / 2
    draw_text(img, (box[2] + 18, mid), tile_id, 44, style.TEXT, bold=True, anchor="lm")
    x = box[2] + 18 + measure(tile_id, 44, True)[0] + 24
    if playing:
        if not mine:
            text, colour = translate(lang, "gt.render.no_place"), style.SCORE
        else:
            best = max(o.points for o in mine)
            key = "gt.render.tile_summary_best" if best else "gt.render.tile_summary"
            text, colour = translate(lang, key, {"count": len(mine), "points": best}), style.TEXT
        draw_text(img, (x, mid), text, 28, colour, bold=True, anchor="lm", max_width=WIDTH - PAD - 16 - x)
    return top + SECTION_HEAD


def number_spot(grid: Grid, option: Option) -> tuple[float, float]:
    """Where the option's number is drawn: in half L's cell, towards half R."""
    (lx, ly), _ = option.cells
    cx, cy = grid.centre(lx, ly)
    dx, dy = DIR_VEC[option.orient]
    return cx + dx * OFFSET * grid.cell, cy + dy * OFFSET * grid.cell


def _numbered_table(view: GTView, options: list[Option]) -> Image.Image:
    img, grid = table_image(view, TABLE, cells=[c for o in options for c in o.cells])
    draw_numbers(img, grid, options)
    return img


def draw_numbers(img: Image.Image, grid: Grid, options: list[Option]) -> None:
    d = ImageDraw.Draw(img)
    c = grid.cell
    r = max(NUMBER * 0.62, min(c * 0.2, 20))
    for o in options:  # ticks first, so no tick crosses another placement's number
        x, y = number_spot(grid, o)
        dx, dy = DIR_VEC[o.orient]
        ex, ey = x + dx * (0.5 - OFFSET) * c + dx * 2, y + dy * (0.5 - OFFSET) * c + dy * 2
        d.line((x, y, ex, ey), fill=_fill(o), width=max(4, round(c * 0.06)))
    for o in options:
        x, y = number_spot(grid, o)
        d.ellipse((x - r, y - r, x + r, y + r), fill=_fill(o), outline=style.SKY, width=2)
        size = NUMBER if o.number < 100 else NUMBER - 2
        draw_text(img, (x, y), str(o.number), size, style.TEXT, bold=True, anchor="mm")


def _fill(option: Option) -> tuple[int, int, int]:
    return style.FRAME if option.points else style.STATION
