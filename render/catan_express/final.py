"""The end of a Catan Express game: the ranking (medals, seat colours, each player's buildings,
knights and towers), a breakdown of the final score by category, and every player's victory
points after each turn when the game kept them."""
from __future__ import annotations

from typing import Sequence

from PIL import Image

from games.catan_express.models import CatanView
from games.core.i18n import translate
from games.core.protocol import Result
from render.catan_express import style
from render.catan_express.sidebar import name_of
from render.kit.chart import score_timeline, stacked_bar_chart
from render.kit.ranking import (RankEntry, RankingLook, category_label, chart_rows, ending_on_totals, render_ranking,
                                tie_notes)

LOOK = RankingLook(background=style.PANEL_BG, panel=style.PANEL, panel_edge=style.PANEL_EDGE, text=style.TEXT,
                   muted=style.MUTED_TEXT, swatch_outline=style.CASING, total_size=36)
# Muted tints none of which can be taken for a seat: each is at least 13.7 ΔE00 from every
# player colour in normal vision, deuteranopia and protanopia (render.kit.vision asks 12), and
# 14.8 from each other in normal vision (9.6 for dichromats; the legend and the numbers in the
# bars do the rest). Categories take them in the result's order.
CATEGORY_COLOURS: list[tuple[int, int, int]] = [
    (127, 191, 186),  # light teal
    (230, 230, 80),   # lemon
    (98, 67, 191),    # iris
    (191, 191, 143),  # khaki
    (115, 63, 63),    # maroon
    (172, 201, 230),  # powder blue
    (153, 101, 84),   # clay
]
PAD = 24
TIMELINE_H = 420


def points_history(view: CatanView) -> list[list[int]]:
    """Each player's victory points after each turn, from the state's history (rows that carry
    no per-seat points are skipped)."""
    n = view.state.n
    out = []
    for row in view.state.history:
        pts = row.get("points") if isinstance(row, dict) else None
        if isinstance(pts, list) and len(pts) == n and all(isinstance(v, int) for v in pts):
            out.append(list(pts))
    return out


def render_final(view: CatanView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")
    state = view.state
    entries = [RankEntry(rank=row.rank, colour=style.player_rgb(row.seat), name=name_of(names, row.seat),
                         stats=stats_line(view, row.seat, lang),
                         total=translate(lang, "catan_express.render.final.points", {"points": row.total}))
               for row in result.players]
    subtitle = translate(lang, "catan_express.render.final.turns", {"turns": state.turn})
    if state.race_winner is not None:
        subtitle = translate(lang, "catan_express.render.final.race_winner", {"seat": state.race_winner, "turns": state.turn},
                             names)
    sections = []
    history = ending_on_totals(points_history(view), result, state.n)
    if len(history) >= 2:
        def timeline(size):
            return score_timeline([(name_of(names, seat), style.player_rgb(seat), [row[seat] for row in history])
                                   for seat in range(state.n)], size,
                                  title=translate(lang, "catan_express.render.final.timeline"))
        sections.append((TIMELINE_H, timeline))
    return render_ranking(LOOK, translate(lang, "catan_express.render.final.title"), subtitle, entries,
                          lambda size: breakdown_chart(result, names, lang, size), sections,
                          notes=tie_notes(result, lang, names), lang=lang)


def stats_line(view: CatanView, seat: int, lang: str) -> str:
    s = view.seats[seat]
    return translate(lang, "catan_express.render.final.stats", {"settlements": s.settlements, "cities": s.cities,
                                                     "knights": s.knights, "towers": s.towers})


def breakdown_chart(result: Result, names: Sequence[str], lang: str, size: tuple[int, int]) -> Image.Image:
    """Per-player stacked bars of the final score, one segment per category."""
    categories = list(result.categories)
    rows = chart_rows(result, lambda seat: name_of(names, seat), style.player_rgb)
    labels = [category_label(result, c, lang) for c in categories]
    colours = [CATEGORY_COLOURS[k % len(CATEGORY_COLOURS)] for k in range(len(categories))]
    return stacked_bar_chart(rows, labels, size, title=translate(lang, "catan_express.render.final.breakdown"), colors=colours)
