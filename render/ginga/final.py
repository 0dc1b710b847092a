"""The end of a Galactic Railway game: the ranking and a points-by-category chart."""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import has_key, translate
from games.ginga.models import GTView
from render.ginga import style
from render.kit.chart import stacked_bar_chart
from render.kit.palette import contrast_text
from render.kit.text import draw_text, measure

WIDTH = 1100
PAD = 28
ROW_H = 84
ROW_GAP = 10
CHART_BASE_H = 150
CHART_ROW_H = 64
MEDALS = {1: (212, 165, 32), 2: (160, 166, 176), 3: (176, 110, 60)}


def render_final(view: GTView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")
    n = len(result.players)
    top = PAD + 76
    chart_h = CHART_BASE_H + n * CHART_ROW_H
    height = top + n * (ROW_H + ROW_GAP) + 20 + chart_h + PAD
    img = Image.new("RGB", (WIDTH, height), style.PANEL_BG)
    d = ImageDraw.Draw(img)
    title = translate(lang, "gt.render.ranking")
    draw_text(img, (PAD, PAD + 30), title, 40, style.TEXT, bold=True, anchor="lm")
    draw_text(img, (WIDTH - PAD, PAD + 30), translate(lang, "game.ginga.title"), 24, style.MUTED, anchor="rm",
              max_width=WIDTH - 2 * PAD - measure(title, 40, True)[0] - 30)
    y = top
    for row in result.players:
        _rank_row(img, d, row, names, lang, y)
        y += ROW_H + ROW_GAP
    labels = []
    for c in result.categories:
        key = f"{result.label_prefix}.category.{c}"
        labels.append(translate(lang, key) if has_key("en", key) else c)
    rows = []
    for row in result.players:
        per = row.by_category()
        rows.append((names[row.seat] if row.seat < len(names) else f"#{row.seat + 1}",
                     [per.get(c, 0) for c in result.categories], style.player_rgb(row.seat)))
    chart = stacked_bar_chart(rows, labels, (WIDTH - 2 * PAD, chart_h), title=translate(lang, "gt.render.score_chart"))
    img.paste(chart, (PAD, y + 20))
    return img


def _rank_row(img: Image.Image, d: ImageDraw.ImageDraw, row, names: Sequence[str], lang: str, y: int) -> None:
    colour = style.player_rgb(row.seat)
    first = row.rank == 1
    d.rounded_rectangle((PAD, y, WIDTH - PAD, y + ROW_H), 14, fill=style.PANEL,
                        outline=MEDALS[1] if first else style.PANEL_EDGE, width=4 if first else 2)
    mid = y + ROW_H // 2
    cx = PAD + 44
    medal = MEDALS.get(row.rank, style.PANEL_EDGE)
    d.ellipse((cx - 28, mid - 28, cx + 28, mid + 28), fill=medal)
    draw_text(img, (cx, mid), str(row.rank), 32, contrast_text(medal), bold=True, anchor="mm")
    d.rounded_rectangle((PAD + 86, y + 16, PAD + 102, y + ROW_H - 16), 5, fill=colour)
    total = style.signed(row.total)
    tw, _ = measure(total, 42, True)
    right = WIDTH - PAD - 22
    draw_text(img, (right, mid), total, 42, style.TEXT, bold=True, anchor="rm")
    stats = row.stats or {}
    line = translate(lang, "gt.render.final_stats", {"tiles": stats.get("tiles", 0), "loop": stats.get("best_loop", 0)})
    sw, _ = measure(line, 21)
    stats_x = right - tw - 28
    draw_text(img, (stats_x, mid), line, 21, style.MUTED, anchor="rm")
    name = names[row.seat] if row.seat < len(names) else f"#{row.seat + 1}"
    draw_text(img, (PAD + 118, mid), name, 32, style.TEXT, bold=True, anchor="lm",
              max_width=stats_x - sw - 20 - PAD - 118)
