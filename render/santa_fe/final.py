"""The end of a Santa Fe game: the ranking and a breakdown chart (money and city cards)."""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import has_key, translate
from games.core.protocol import Result
from games.santa_fe.models import SFView
from render.kit.chart import stacked_bar_chart
from render.kit.palette import contrast_text
from render.kit.text import draw_text, measure
from render.santa_fe import style
from render.santa_fe.sidebar import name_of

WIDTH = 1100
PAD = 28
ROW_H = 78
ROW_GAP = 10
CHART_BASE_H = 150  # chart title, legend and margins
CHART_ROW_H = 62

MEDALS = {1: (212, 165, 32), 2: (160, 166, 176), 3: (176, 110, 60)}
# Money in the money green of the sidebar; city cards in the gold of the 7-value cities.
CATEGORY_COLOURS = {"money": (46, 150, 90), "cities": (214, 150, 40)}
OTHER_COLOURS = [(52, 120, 198), (142, 84, 190), (80, 170, 190)]


def render_final(view: SFView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")
    n = len(result.players)
    top = PAD + 70
    chart_h = CHART_BASE_H + n * CHART_ROW_H
    height = top + n * (ROW_H + ROW_GAP) + 20 + chart_h + PAD
    img = Image.new("RGB", (WIDTH, height), style.SIDEBAR_BG)
    d = ImageDraw.Draw(img)
    title = translate(lang, "render.sf.ranking")
    draw_text(img, (PAD, PAD + 28), title, 38, style.TEXT, bold=True, anchor="lm")
    reason = f"{result.label_prefix or 'sf'}.end.{result.reason}"  # why it ended
    if has_key(lang, reason):
        text = translate(lang, "render.sf.ended", {"reason": translate(lang, reason)})
        draw_text(img, (WIDTH - PAD, PAD + 30), text, 20, style.MUTED_TEXT, anchor="rm",
                  max_width=WIDTH - 2 * PAD - measure(title, 38, True)[0] - 30)
    y = top
    for row in result.players:
        _rank_row(img, d, row, names, lang, y)
        y += ROW_H + ROW_GAP
    chart = breakdown_chart(result, names, lang, (WIDTH - 2 * PAD, chart_h))
    img.paste(chart, (PAD, y + 20))
    return img


def category_label(result: Result, category: str, lang: str) -> str:
    key = f"{result.label_prefix}.category.{category}" if result.label_prefix else f"category.{category}"
    if has_key(lang, key) or has_key("en", key):
        return translate(lang, key)
    return category.replace("_", " ").capitalize()


def _rank_row(img: Image.Image, d: ImageDraw.ImageDraw, row, names: Sequence[str], lang: str, y: int) -> None:
    colour = style.player_rgb(row.seat)
    box = (PAD, y, WIDTH - PAD, y + ROW_H)
    first = row.rank == 1
    d.rounded_rectangle(box, 14, fill=style.PANEL, outline=MEDALS[1] if first else style.PANEL_EDGE,
                        width=4 if first else 2)
    mid = y + ROW_H // 2
    cx = PAD + 44
    medal = MEDALS.get(row.rank, style.PANEL_EDGE)
    d.ellipse((cx - 26, mid - 26, cx + 26, mid + 26), fill=medal)
    draw_text(img, (cx, mid), str(row.rank), 30, contrast_text(medal), bold=True, anchor="mm")
    d.rounded_rectangle((PAD + 84, y + 14, PAD + 100, y + ROW_H - 14), 5, fill=colour,
                        outline=style.TILE_EDGE, width=2)
    total = translate(lang, "render.sf.points", {"points": row.total})
    tw, _ = measure(total, 36, True)
    right = WIDTH - PAD - 22
    draw_text(img, (right, mid), total, 36, style.TEXT, bold=True, anchor="rm")
    stats = _stats_line(row, lang)
    sw, _ = measure(stats, 20, False)
    name_x = PAD + 116
    stats_x = right - tw - 28
    draw_text(img, (stats_x, mid), stats, 20, style.MUTED_TEXT, anchor="rm")
    draw_text(img, (name_x, mid), name_of(names, row.seat), 32, style.TEXT, bold=True, anchor="lm",
              max_width=stats_x - sw - 20 - name_x)


def _stats_line(row, lang: str) -> str:
    stats = row.stats or {}
    parts = []
    if "money" in stats:
        parts.append(f"${stats['money']}")
    if "cards" in stats:
        parts.append(translate(lang, "render.sf.cards_played", {"count": stats["cards"]}))
    if stats.get("sevens"):
        parts.append(translate(lang, "render.sf.sevens", {"count": stats["sevens"]}))
    return " · ".join(parts)


def breakdown_chart(result: Result, names: Sequence[str], lang: str, size: tuple[int, int]) -> Image.Image:
    """Per-player stacked bars of the result's categories: money, then city cards."""
    categories = list(result.categories)
    rows = []
    for row in result.players:
        per = row.by_category()
        rows.append((name_of(names, row.seat), [per.get(c, 0) for c in categories], style.player_rgb(row.seat)))
    labels = [category_label(result, c, lang) for c in categories]
    colours = [CATEGORY_COLOURS.get(c, OTHER_COLOURS[i % len(OTHER_COLOURS)]) for i, c in enumerate(categories)]
    return stacked_bar_chart(rows, labels, size, title=translate(lang, "render.sf.breakdown"), colors=colours)
