"""The end of a Santa Fe game: the ranking and a breakdown chart (money and city cards)."""
from __future__ import annotations

from typing import Sequence

from PIL import Image

from games.core.i18n import has_key, translate
from games.core.protocol import Result
from games.santa_fe.models import SFView
from render.kit.chart import stacked_bar_chart
from render.kit.ranking import RankEntry, RankingLook, category_label, chart_rows, render_ranking
from render.santa_fe import style
from render.santa_fe.sidebar import name_of

LOOK = RankingLook(background=style.SIDEBAR_BG, panel=style.PANEL, panel_edge=style.PANEL_EDGE, text=style.TEXT,
                   muted=style.MUTED_TEXT, swatch_outline=style.TILE_EDGE, total_size=36)
# Money in the money green of the sidebar; city cards in the gold of the 7-value cities.
CATEGORY_COLOURS = {"money": (46, 150, 90), "cities": (214, 150, 40)}
OTHER_COLOURS = [(52, 120, 198), (142, 84, 190), (80, 170, 190)]

__all__ = ["render_final", "breakdown_chart", "category_label", "CATEGORY_COLOURS"]


def render_final(view: SFView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")
    reason = f"{result.label_prefix or 'sf'}.end.{result.reason}"  # why it ended
    subtitle = translate(lang, "render.sf.ended", {"reason": translate(lang, reason)}) if has_key(lang, reason) else None
    entries = [RankEntry(rank=row.rank, colour=style.player_rgb(row.seat), name=name_of(names, row.seat),
                         stats=_stats_line(row, lang), total=translate(lang, "render.sf.points", {"points": row.total}))
               for row in result.players]
    return render_ranking(LOOK, translate(lang, "render.sf.ranking"), subtitle, entries,
                          lambda size: breakdown_chart(result, names, lang, size))


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
    rows = chart_rows(result, lambda seat: name_of(names, seat), style.player_rgb)
    labels = [category_label(result, c, lang) for c in categories]
    colours = [CATEGORY_COLOURS.get(c, OTHER_COLOURS[i % len(OTHER_COLOURS)]) for i, c in enumerate(categories)]
    return stacked_bar_chart(rows, labels, size, title=translate(lang, "render.sf.breakdown"), colors=colours)
