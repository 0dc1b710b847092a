"""The end of a Galactic Railway game: the ranking and a points-by-category chart."""
from __future__ import annotations

from typing import Sequence

from PIL import Image

from games.core.i18n import has_key, translate
from games.ginga.models import GTView
from render.ginga import style
from render.kit.chart import stacked_bar_chart
from render.kit.ranking import RankEntry, RankingLook, chart_rows, render_ranking

LOOK = RankingLook(background=style.PANEL_BG, panel=style.PANEL, panel_edge=style.PANEL_EDGE, text=style.TEXT,
                   muted=style.MUTED, header_h=76, title_y=30, title_size=40, subtitle_size=24, row_h=84,
                   chart_row_h=64, medal_r=28, rank_size=32, swatch_x=86, swatch_inset=16, name_x=118,
                   total_size=42, stats_size=21)


def render_final(view: GTView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")

    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else f"#{seat + 1}"

    entries = []
    for row in result.players:
        stats = row.stats or {}
        line = translate(lang, "gt.render.final_stats",
                         {"tiles": stats.get("tiles", 0), "loop": stats.get("best_loop", 0)})
        entries.append(RankEntry(rank=row.rank, colour=style.player_rgb(row.seat), name=name(row.seat), stats=line,
                                 total=style.signed(row.total)))
    labels = []
    for c in result.categories:
        key = f"{result.label_prefix}.category.{c}"
        labels.append(translate(lang, key) if has_key("en", key) else c)
    rows = chart_rows(result, name, style.player_rgb)
    return render_ranking(LOOK, translate(lang, "gt.render.ranking"), translate(lang, "game.ginga.title"), entries,
                          lambda size: stacked_bar_chart(rows, labels, size,
                                                         title=translate(lang, "gt.render.score_chart")))
