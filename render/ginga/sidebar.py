"""The board image's sidebar: whose turn, each player's total and the two tiles they hold
(public in this game, drawn large enough to read their track at 400 px), the pile's top tile,
the whole latest turn in words and a legend of the marks on the table.

The status embed beside the image already carries the scores in text, so the sidebar keeps
to what the eye needs next to the map: few words, nothing smaller than `style.MIN_TEXT`.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ginga.board import cell_name
from games.ginga.models import GingaView
from render.ginga import style
from render.ginga.legend import draw_legend
from render.ginga.tiles import paste_tile, tile_by_id
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.palette import contrast_text
from render.kit.regions import REGIONS
from render.kit.text import draw_text, fit_size, measure

PAD = 14
SX = style.BOARD + 4 + PAD
SW = style.WIDTH - SX - PAD
T = style.MIN_TEXT


def player_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def draw_sidebar(img: Image.Image, view: GingaView, names: Sequence[str], lang: str) -> None:
    d = ImageDraw.Draw(img)
    y = _banner(img, d, view, names, lang, PAD)
    y = _players(img, d, view, names, y + 10)
    y = _pile(img, d, view, lang, y + 4)
    legend_top = style.HEIGHT - PAD - 2 * 34
    _latest_text(img, d, view, names, lang, y + 8, legend_top - 6)
    REGIONS.draw(img, (SX - 2, legend_top - 4, style.WIDTH, style.HEIGHT), ("ginga-legend", lang),
                 lambda: draw_legend(img, (SX, legend_top), SW, lang))


def _banner(img: Image.Image, d: ImageDraw.ImageDraw, view: GingaView, names: Sequence[str], lang: str,
            top: int) -> int:
    height = 80
    if is_abandoned(view):
        bg = style.OVER_BG
        title = translate(lang, ABANDONED_KEY)
        sub = translate(lang, ABANDONED_SUB_KEY)
    elif view.phase == "over":
        bg = style.OVER_BG
        winners = [p.seat for p in view.result.players if p.rank == 1] if view.result else []
        if len(winners) == 1:
            title = translate(lang, "ginga.render.winner", {"seat": winners[0]}, names)
        elif winners:
            title = translate(lang, "ginga.render.winners", {"seats": winners}, names)
        else:
            title = translate(lang, "ginga.render.game_over")
        sub = translate(lang, "ginga.render.game_over")
    else:
        bg = style.player_rgb(view.current)
        title = translate(lang, "ginga.render.turn_of", {"seat": view.current}, names)
        sub = translate(lang, "ginga.render.second" if view.step == "second" else "ginga.render.place")
        if view.passes_in_row:
            sub = translate(lang, "ginga.render.passes", {"count": view.passes_in_row, "n": view.n})
    fg = contrast_text(bg)
    d.rounded_rectangle((SX, top, SX + SW, top + height), 12, fill=bg)
    draw_text(img, (SX + 12, top + 26), title, fit_size(title, SW - 24, 30, 24, bold=True), fg, bold=True,
              anchor="lm", max_width=SW - 24)
    draw_text(img, (SX + 12, top + 60), sub, T, fg, anchor="lm", max_width=SW - 24)
    return top + height


def _players(img: Image.Image, d: ImageDraw.ImageDraw, view: GingaView, names: Sequence[str], top: int) -> int:
    """One row per seat: colour, name, total; below, the two tiles of the hand."""
    n = len(view.players)
    cell = 48 if n <= 3 else 44
    row_h = 44 + cell + 12
    for p in view.players:
        active = p.seat in view.active and not is_abandoned(view)
        # a row is drawn again only when what it shows changes (render.kit.regions)
        key = ("ginga-row", p.seat, active, p.total, player_name(names, p.seat), tuple(p.hand), cell)
        REGIONS.draw(img, (SX - 2, top - 2, style.WIDTH, top + row_h + 3), key,
                     lambda: _player_row(img, d, p, names, top, row_h, cell, active))
        top += row_h + 6
    return top


def _player_row(img: Image.Image, d: ImageDraw.ImageDraw, p, names: Sequence[str], top: int, row_h: int, cell: int,
                active: bool) -> None:
    y = top
    colour = style.player_rgb(p.seat)
    d.rounded_rectangle((SX, y, SX + SW, y + row_h), 10, fill=style.PANEL,
                        outline=style.TEXT if active else style.PANEL_EDGE, width=4 if active else 2)
    d.rounded_rectangle((SX + 8, y + 8, SX + 22, y + row_h - 8), 4, fill=colour, outline=style.TEXT, width=1)
    total = str(p.total)
    tw, _ = measure(total, 34, True)
    draw_text(img, (SX + SW - 12, y + 24), total, 34, style.TEXT, bold=True, anchor="rm")
    draw_text(img, (SX + 32, y + 24), player_name(names, p.seat), 26, style.TEXT, bold=True, anchor="lm",
              max_width=SW - 32 - tw - 24)
    x = SX + 32
    for tile_id in p.hand:
        box = paste_tile(img, tile_by_id(tile_id).index, 0, (x, y + 42), cell)
        x = box[2] + 10


def _pile(img: Image.Image, d: ImageDraw.ImageDraw, view: GingaView, lang: str, top: int) -> int:
    cell = 40
    height = cell + 16
    d.rounded_rectangle((SX, top, SX + SW, top + height), 10, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
    left = translate(lang, "ginga.render.pile_left", {"count": view.pile_size}) if view.pile_size else \
        translate(lang, "ginga.render.pile_empty")
    label = f"{translate(lang, 'gt.render.pile')} · {left}"
    if view.pile_top:
        x = SX + SW - 12 - 2 * cell
        paste_tile(img, tile_by_id(view.pile_top).index, 0, (x, top + 8), cell)
        width = x - SX - 24
    else:
        width = SW - 24
    draw_text(img, (SX + 12, top + height / 2), label, T, style.TEXT, bold=True, anchor="lm", max_width=width)
    return top + height


def _latest_text(img: Image.Image, d: ImageDraw.ImageDraw, view: GingaView, names: Sequence[str], lang: str,
                 top: int, bottom: int) -> None:
    """Every placement of the latest turn (never only the last): its cells and what it scored."""
    if not view.latest:
        draw_text(img, (SX + 2, top + 14), translate(lang, "ginga.render.no_moves_yet"), T, style.MUTED, anchor="lm",
                  max_width=SW - 4)
        return
    seat = view.latest[0].seat
    draw_text(img, (SX + 2, top + 14), translate(lang, "ginga.render.last_of", {"seat": seat}, names), T, style.MUTED,
              bold=True, anchor="lm", max_width=SW - 4)
    y = top + 46
    for p in view.latest:
        if y + 14 > bottom:
            break
        points = p.station_points + p.loop_points
        (ax, ay), (bx, by) = p.cells
        d.rounded_rectangle((SX + 2, y - 12, SX + 14, y + 12), 3, fill=style.player_rgb(p.seat))
        parts = [f"{cell_name(ax, ay)}–{cell_name(bx, by)}"]
        if p.loop_points:
            parts.append(f"🔁{p.loop_points}")
        if p.station_points:
            parts.append(f"🚉{p.station_points}")
        right = f"+{points}" if points else translate(lang, "ginga.render.scored_nothing")
        rw, _ = measure(right, 26 if points else T, bold=bool(points))
        draw_text(img, (SX + SW - 4, y), right, 26 if points else T, style.TEXT if points else style.MUTED,
                  bold=bool(points), anchor="rm")
        draw_text(img, (SX + 22, y), "  ".join(parts), T, style.TEXT, bold=True, anchor="lm",
                  max_width=SW - 22 - rw - 12)
        y += 34
