"""The end of a Ticket to Ride game: the ranking and a score-breakdown chart."""
from __future__ import annotations

from typing import Sequence

from PIL import Image

from games.core.i18n import has_key, translate
from games.core.protocol import Result
from games.ticket_to_ride.models import TTRView
from render.kit.chart import stacked_bar_chart
from render.kit.ranking import RankEntry, RankingLook, category_label, chart_rows, render_ranking
from render.ticket_to_ride import style

LOOK = RankingLook(background=style.SIDEBAR_BG, panel=style.PANEL, panel_edge=style.PANEL_EDGE, text=style.TEXT,
                   muted=style.MUTED_TEXT, swatch_outline=style.CLAIM_OUTLINE)

__all__ = ["render_final", "breakdown_chart", "category_label"]


def render_final(view: TTRView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")
    reason = f"{result.label_prefix or 'ttr'}.ev.game_over_{result.reason}"  # why it ended
    entries = [RankEntry(rank=row.rank, colour=style.player_rgb(row.seat), name=_name(names, row.seat),
                         stats=_stats_line(row, view, lang), total=style.signed(row.total))
               for row in result.players]
    return render_ranking(LOOK, translate(lang, "render.ranking"),
                          translate(lang, reason) if has_key(lang, reason) else None, entries,
                          lambda size: breakdown_chart(result, names, lang, size))


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"#{seat + 1}"


def _stats_line(row, view: TTRView, lang: str) -> str:
    stats = row.stats or {}
    parts = []
    if "completed" in stats and "failed" in stats:
        done, failed = stats["completed"], stats["failed"]
        parts.append(translate(lang, "render.tickets_done_short", {"done": done, "total": done + failed}))
    if "longest" in stats:
        parts.append(translate(lang, "render.longest", {"length": stats["longest"]}))
    return " · ".join(parts)


def breakdown_chart(result: Result, names: Sequence[str], lang: str, size: tuple[int, int]) -> Image.Image:
    """Per-player stacked bars of the result's categories (negative ones below zero)."""
    rows = chart_rows(result, lambda seat: _name(names, seat), style.player_rgb)
    labels = [category_label(result, c, lang) for c in result.categories]
    return stacked_bar_chart(rows, labels, size, title=translate(lang, "render.breakdown"))
