"""The end of a Santa Fe game: the ranking with a breakdown chart (money and city cards), the
score after every turn, and each player's played cities with what each scored."""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import has_key, translate
from games.core.protocol import Result
from games.santa_fe.map import west
from games.santa_fe.models import SantaFeView
from render.kit.chart import score_timeline, stacked_bar_chart
from render.kit.legibility import min_font_px
from render.kit.text import draw_text, measure
from render.kit.ranking import (RankEntry, RankingLook, category_label, chart_rows, ending_on_totals, render_ranking,
                                tie_notes)
from render.santa_fe import icons, style
from render.santa_fe.sidebar import name_of
from render.santa_fe.tags import tag_patch

LOOK = RankingLook(background=style.SIDEBAR_BG, panel=style.PANEL, panel_edge=style.PANEL_EDGE, text=style.TEXT,
                   muted=style.MUTED_TEXT, swatch_outline=style.TILE_EDGE, total_size=36)
# Money in a deep green, city cards in a pale gold: neither is taken for a seat colour
# (render.kit.vision checks them against the players).
CATEGORY_COLOURS = {"money": (0, 120, 72), "cities": (192, 192, 120)}
OTHER_COLOURS = [(52, 120, 198), (142, 84, 190), (80, 170, 190)]

__all__ = ["render_final", "breakdown_chart", "category_label", "CATEGORY_COLOURS"]


def render_final(view: SantaFeView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")
    reason = f"{result.label_prefix or 'sf'}.end.{result.reason}"  # why it ended
    subtitle = (translate(lang, "santa_fe.render.ended", {"reason": translate(lang, reason)})
                if has_key(lang, reason) else None)
    entries = [RankEntry(rank=row.rank, colour=style.player_rgb(row.seat), name=name_of(names, row.seat),
                         stats=_stats_line(row, lang), total=translate(lang, "santa_fe.render.points", {"points": row.total}))
               for row in result.players]
    ranking = render_ranking(LOOK, translate(lang, "santa_fe.render.ranking"), subtitle, entries,
                             lambda size: breakdown_chart(result, names, lang, size),
                             notes=tie_notes(result, lang, names), lang=lang)
    width = ranking.width
    history = ending_on_totals(view.scores, result, view.n)
    timeline = score_timeline([(name_of(names, seat), style.player_rgb(seat), [row[seat] for row in history])
                               for seat in range(view.n)], (width - 2 * PAD, TIMELINE_H),
                              title=translate(lang, "santa_fe.render.timeline"), markers=style.SYMBOLS.seats)
    details = _details(view, names, lang, width)
    img = Image.new("RGB", (width, ranking.height + TIMELINE_H + PAD + details.height), style.SIDEBAR_BG)
    img.paste(ranking, (0, 0))
    img.paste(timeline, (PAD, ranking.height))
    img.paste(details, (0, ranking.height + TIMELINE_H + PAD))
    return img


PAD = 24
TIMELINE_H = 440


def detail_lines(view: SantaFeView, seat: int, lang: str) -> list[str]:
    """Each city the seat played and what it scored: value × railroads reaching it."""
    result = view.result
    row = next(r for r in result.players if r.seat == seat) if result else None
    out = []
    for line in (row.lines if row else []):
        if line.category == "cities":
            out.append(translate(lang, "santa_fe.render.city_scored", {**line.params, "points": line.points}))
    return out


def _details(view: SantaFeView, names: Sequence[str], lang: str, width: int) -> Image.Image:
    """Per player (in ranking order): the name and the points from cities, then every played
    city as a chip (its value as on the map, × the railroads reaching it = its points)."""
    board = west()
    size = min_font_px(width)
    head_h, chip_h, gap = size + 14, size + 20, 8
    rows = []
    for r in view.result.players:
        chips = [(city, bin(view.connected[city]).count("1")) for city in view.players[r.seat].played]
        rows.append((r.seat, chips, _flow([_chip_width(board.city_label(c, lang), k, board.values[c], size)
                                           for c, k in chips], width - 2 * PAD - 26, gap)))
    height = PAD + sum(head_h + (1 + max((y for _, y in pos), default=0)) * (chip_h + gap) + 14
                       for _, _, pos in rows) + PAD
    img = Image.new("RGB", (width, height), style.SIDEBAR_BG)
    d = ImageDraw.Draw(img)
    y = PAD
    for seat, chips, pos in rows:
        # the seat's mark, as on the board and the score chart above
        patch, offset = tag_patch(seat, (PAD + 9, y + head_h / 2), min(10.0, (head_h - 8) / 2))
        img.paste(patch, offset, patch)
        end = draw_text(img, (PAD + 26, y + head_h / 2), name_of(names, seat), size + 2, style.TEXT, bold=True,
                        anchor="lm")[2]
        total = sum(board.values[c] * k for c, k in chips)
        draw_text(img, (end + 14, y + head_h / 2), translate(lang, "santa_fe.render.cities_total", {"points": total}),
                  size, style.MUTED_TEXT, anchor="lm")
        y += head_h
        if not chips:
            draw_text(img, (PAD + 26, y + chip_h / 2), translate(lang, "santa_fe.render.no_cards_played"), size,
                      style.MUTED_TEXT, anchor="lm")
        for (city, k), (x, row) in zip(chips, pos):
            _chip(img, d, (PAD + 26 + x, y + row * (chip_h + gap)), chip_h, board.city_label(city, lang), k,
                  board.values[city], size)
        y += (1 + max((r for _, r in pos), default=0)) * (chip_h + gap) + 14
    return img


def _chip_width(name: str, k: int, value: int, size: int) -> int:
    return size * 2 + 8 + measure(name, size, True)[0] + 8 + measure(_worth(k, value), size)[0] + 16


def _worth(k: int, value: int) -> str:
    return f"×{k} = {value * k}"


def _flow(widths: list[int], room: int, gap: int) -> list[tuple[int, int]]:
    """(x, row) of each item laid left to right, wrapping to a new row when it would not fit."""
    out, x, row = [], 0, 0
    for w in widths:
        if x and x + w > room:
            x, row = 0, row + 1
        out.append((x, row))
        x += w + gap
    return out


def _chip(img: Image.Image, d: ImageDraw.ImageDraw, xy: tuple[int, int], h: int, name: str, k: int, value: int,
          size: int) -> None:
    x, y = xy
    w = _chip_width(name, k, value, size)
    d.rounded_rectangle((x, y, x + w, y + h), h // 2, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
    icons.value_badge(img, (x + h / 2, y + h / 2), value, h / 2 - 2, faded=k == 0)
    end = draw_text(img, (x + h + 2, y + h / 2), name, size, style.TEXT, bold=True, anchor="lm")[2]
    draw_text(img, (end + 8, y + h / 2), _worth(k, value), size, style.MUTED_TEXT if k == 0 else style.MONEY,
              bold=k > 0, anchor="lm")


def _stats_line(row, lang: str) -> str:
    stats = row.stats or {}
    parts = []
    if "money" in stats:
        parts.append(f"${stats['money']}")
    if "cards" in stats:
        parts.append(translate(lang, "santa_fe.render.cards_played", {"count": stats["cards"]}))
    if stats.get("sevens"):
        parts.append(translate(lang, "santa_fe.render.sevens", {"count": stats["sevens"]}))
    return " · ".join(parts)


def breakdown_chart(result: Result, names: Sequence[str], lang: str, size: tuple[int, int]) -> Image.Image:
    """Per-player stacked bars of the result's categories: money, then city cards."""
    categories = list(result.categories)
    rows = chart_rows(result, lambda seat: name_of(names, seat), style.player_rgb)
    labels = [category_label(result, c, lang) for c in categories]
    colours = [CATEGORY_COLOURS.get(c, OTHER_COLOURS[i % len(OTHER_COLOURS)]) for i, c in enumerate(categories)]
    return stacked_bar_chart(rows, labels, size, title=translate(lang, "santa_fe.render.breakdown"), colors=colours)
