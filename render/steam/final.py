"""The end of a Steam game: the ranking (medals, seat colours, each player's deliveries,
locomotive and income), a breakdown of the final score (deliveries, income, completed links,
ST-14), and every player's victory points after each game turn."""
from __future__ import annotations

from typing import Sequence

from PIL import Image

from games.core.i18n import translate
from games.core.protocol import Result
from games.steam.models import SteamView
from render.kit.chart import score_timeline, stacked_bar_chart
from render.kit.ranking import (RankEntry, RankingLook, category_label, chart_rows, final_totals, render_ranking,
                                tie_notes)
from render.steam import style
from render.steam.sidebar import name_of

LOOK = RankingLook(background=style.PANEL_BG, panel=style.PANEL, panel_edge=style.PANEL_EDGE, text=style.TEXT,
                   muted=style.MUTED_TEXT, swatch_outline=style.CASING, total_size=36)
# Deliveries a deep teal, income a pale gold, completed links a slate blue-gray: none is taken
# for a seat colour (render.kit.vision checks them against the players).
CATEGORY_COLOURS = {"deliveries": (23, 115, 98), "income": (214, 196, 120), "links": (96, 110, 140)}
PAD = 24
TIMELINE_H = 440


def render_final(view: SteamView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")
    state = view.state
    entries = [RankEntry(rank=row.rank, colour=style.player_rgb(row.seat), name=name_of(names, row.seat),
                         stats=stats_line(view, row, lang),
                         total=translate(lang, "steam.render.final.points", {"points": row.total}))
               for row in result.players]
    subtitle = translate(lang, "steam.render.final.turns", {"turns": len(state.history) or state.turn})
    ranking = render_ranking(LOOK, translate(lang, "steam.render.final.title"), subtitle, entries,
                             lambda size: breakdown_chart(result, names, lang, size),
                             notes=tie_notes(result, lang, names), lang=lang)
    width = ranking.width
    history = timeline_rows(view)
    timeline = score_timeline([(name_of(names, seat), style.player_rgb(seat), [row[seat] for row in history])
                               for seat in range(state.n)], (width - 2 * PAD, TIMELINE_H),
                              title=translate(lang, "steam.render.final.timeline"),
                              final=translate(lang, "render.kit.final_score"), markers=style.SYMBOLS.seats)
    img = Image.new("RGB", (width, ranking.height + TIMELINE_H + PAD), style.PANEL_BG)
    img.paste(ranking, (0, 0))
    img.paste(timeline, (PAD, ranking.height))
    return img


def timeline_rows(view: SteamView) -> list[list[int]]:
    """Victory points after each turn, then the final score (ST-14: income and completed links
    count only at the end, so the last point is always the end-of-game scoring)."""
    state = view.state
    rows = [list(row) for row in state.scores]
    if len(rows) == len(state.history) + 1:  # the first row is the start of the game, before turn 1
        rows = rows[1:]
    return [*rows, final_totals(view.result, state.n)]


def stats_line(view: SteamView, row, lang: str) -> str:
    stats = row.stats or {}
    if stats.get("bankrupt"):
        return translate(lang, "steam.render.bankrupt")
    p = view.state.players[row.seat]
    return translate(lang, "steam.render.final.stats", {"delivered": p.delivered, "level": p.locomotive,
                                                         "income": p.income})


def breakdown_chart(result: Result, names: Sequence[str], lang: str, size: tuple[int, int]) -> Image.Image:
    """Per-player stacked bars of the final score: deliveries, income, completed links."""
    categories = list(result.categories)
    rows = chart_rows(result, lambda seat: name_of(names, seat), style.player_rgb)
    labels = [category_label(result, c, lang) for c in categories]
    colours = [CATEGORY_COLOURS.get(c, (150, 150, 150)) for c in categories]
    return stacked_bar_chart(rows, labels, size, title=translate(lang, "steam.render.final.breakdown"),
                             colors=colours)
