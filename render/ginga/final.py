"""The end of a Galactic Railway game: the ranking, each score after every turn (the kit's
timeline chart) and, per player, the final table with their best loop and their best
station network drawn on it and what each scored."""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ginga.models import Best, GingaView
from render.ginga import style
from render.ginga.board import Grid, table_image
from render.kit.chart import score_timeline
from render.kit.ranking import (RankEntry, RankingLook, draw_notes, draw_rank_row, ending_on_totals, notes_height,
                                tie_notes)
from render.kit.text import draw_text

WIDTH = 1100
PAD = 28
TEXT = 22  # 8 px when shown 400 px wide
LOOK = RankingLook(background=style.PANEL_BG, panel=style.PANEL, panel_edge=style.PANEL_EDGE, text=style.TEXT,
                   muted=style.MUTED, width=WIDTH, pad=PAD, row_h=80, medal_r=28, rank_size=32, swatch_x=86,
                   swatch_inset=16, swatch_outline=style.TEXT, name_x=118, total_size=42, stats_size=TEXT)
CHART_H = 420
CAPTION_H = 48


def render_final(view: GingaView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    n = len(result.players)
    cols = 2 if n in (2, 4) else 3
    col_w = (WIDTH - 2 * PAD - (cols - 1) * 16) // cols
    detail_rows = -(-n // cols)
    rows_top = PAD + 76
    notes = tie_notes(result, lang, names)
    chart_top = rows_top + n * (LOOK.row_h + LOOK.row_gap) + notes_height(LOOK, notes, lang) + 12
    details_top = chart_top + CHART_H + 24
    height = details_top + 44 + detail_rows * (col_w + CAPTION_H + 16) + PAD
    img = Image.new("RGB", (WIDTH, height), style.PANEL_BG)
    d = ImageDraw.Draw(img)
    draw_text(img, (PAD, PAD + 30), translate(lang, "ginga.render.ranking"), 40, style.TEXT, bold=True, anchor="lm")
    draw_text(img, (WIDTH - PAD, PAD + 30), translate(lang, "ginga.title"), 26, style.MUTED, anchor="rm")
    y = rows_top
    for row in result.players:
        per = row.by_category()
        stats = translate(lang, "ginga.render.breakdown", {"stations": per.get("stations", 0), "loops": per.get("loops", 0)})
        draw_rank_row(img, d, LOOK, RankEntry(rank=row.rank, colour=style.player_rgb(row.seat), name=name(row.seat),
                                              stats=stats, total=str(row.total)), y)
        y += LOOK.row_h + LOOK.row_gap
    draw_notes(img, LOOK, notes, y, lang)
    img.paste(score_timeline(timeline(view, name), (WIDTH - 2 * PAD, CHART_H),
                             title=translate(lang, "ginga.render.timeline")), (PAD, chart_top))
    draw_text(img, (PAD, details_top + 18), translate(lang, "ginga.render.bests"), 28, style.TEXT, bold=True,
              anchor="lm")
    bests = {b.seat: b for b in view.bests}
    for i, row in enumerate(result.players):
        x = PAD + (i % cols) * (col_w + 16)
        top = details_top + 44 + (i // cols) * (col_w + CAPTION_H + 16)
        best = bests.get(row.seat, Best(seat=row.seat))
        img.paste(best_table(view, best, col_w), (x, top))
        _caption(img, d, best, name(row.seat), (x, top + col_w), col_w, lang)
    return img


def timeline(view: GingaView, name) -> list[tuple[str, tuple[int, int, int], list[int]]]:
    """Per seat: name, colour, total after each turn from 0; the final totals end every line."""
    history = [[0] * view.n] + [list(h) for h in view.score_history]
    if view.result is not None:
        history = ending_on_totals(history, view.result, view.n)
    return [(name(seat), style.player_rgb(seat), [h[seat] for h in history]) for seat in range(view.n)]


def best_table(view: GingaView, best: Best, size: int) -> Image.Image:
    """The final table with the player's best station network (its tiles tinted, its stations
    ringed) and best loop (a thick line in the player's colour with a dark casing)."""
    img, grid = table_image(view, size, margin=10, coordinates=False)
    colour = style.player_rgb(best.seat)
    c = grid.cell
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    for x, y in best.track:
        px, py = grid.origin(x, y)
        od.rectangle((px, py, px + c - 1, py + c - 1), fill=(*colour, 80))
    img.paste(overlay, (0, 0), overlay)
    d = ImageDraw.Draw(img)
    for x, y in best.stations:
        cx, cy = grid.centre(x, y)
        r = c * 0.36
        d.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), outline=style.TEXT, width=max(2, c // 14) + 4)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(2, c // 14))
    if len(best.loop) >= 4:
        _loop(d, grid, best.loop, colour)
    return img


def _loop(d: ImageDraw.ImageDraw, grid: Grid, loop: list[tuple[int, int]], colour) -> None:
    pts = [grid.centre(x, y) for x, y in loop]
    pts.append(pts[0])
    w = max(5, round(grid.cell * 0.22))
    d.line(pts, fill=style.TEXT, width=w + 6, joint="curve")
    d.line(pts, fill=colour, width=w, joint="curve")


def _caption(img: Image.Image, d: ImageDraw.ImageDraw, best: Best, who: str, xy: tuple[int, int], width: int,
             lang: str) -> None:
    x, y = xy
    mid = y + CAPTION_H / 2
    d.rounded_rectangle((x, mid - 12, x + 12, mid + 12), 3, fill=style.player_rgb(best.seat), outline=style.TEXT)
    text = translate(lang, "ginga.render.best_line", {"loop": best.loop_points, "stations": best.station_points})
    draw_text(img, (x + 20, mid), f"{who} · {text}", TEXT, style.TEXT, bold=True, anchor="lm", max_width=width - 22)
