"""Alt text (Discord's attachment description) for the Galactic Railway images: in words what
a sighted player reads off them — whose turn, the scores, the tiles each player holds, the
pile, and the whole latest turn (every tile placed and what it scored); for the hand, each
tile and how many places it fits; for the final image, the ranking with each player's best
loop and station network."""
from __future__ import annotations

from typing import Any, Sequence

from games.core.i18n import translate
from games.ginga.board import cell_name
from games.ginga.models import GingaView, LastPlacement
from render.kit import alt
from render.kit.ranking import tie_notes

def describe_board(view: GingaView, names: Sequence[str], lang: str = "en") -> str:
    waiting = [] if view.phase == "over" else [view.current]
    lines = [alt.board_heading(lang, "ginga", view.turn + 1, waiting, names)]
    if view.phase == "over":
        lines.append(translate(lang, "ginga.alt.over"))
    elif view.step == "second":
        lines.append(translate(lang, "ginga.alt.second", {"seat": view.current}, names))
    lines.append(alt.scores_sentence(lang, [(p.seat, p.total) for p in view.players], names))
    if view.latest:
        lines.append(alt.last_move_sentence(lang, _latest(view.latest, names, lang)))
    if view.passes_in_row and view.phase != "over":
        lines.append(translate(lang, "ginga.alt.passes", {"count": view.passes_in_row, "n": view.n}))
    hands = [{"key": "ginga.alt.hand_of", "params": {"seat": p.seat, "tiles": list(p.hand)}} for p in view.players if p.hand]
    if hands:
        lines.append(translate(lang, "ginga.alt.hands", {"entries": hands}, names))
    if view.pile_top:
        lines.append(translate(lang, "ginga.alt.pile", {"count": view.pile_size, "top": view.pile_top}))
    else:
        lines.append(translate(lang, "ginga.alt.pile_empty"))
    return alt.alt_text(lines)


def describe_hand(view: GingaView, names: Sequence[str], lang: str = "en") -> str:
    if view.viewer is None:
        return ""
    me = view.players[view.viewer]
    playing = view.viewer in view.active and view.phase != "over"
    tiles: list[Any] = []
    for tile_id in me.hand:
        mine = [o for o in view.options if o.tile == tile_id]
        if not playing:
            tiles.append(tile_id)
        elif not mine:
            tiles.append({"key": "ginga.alt.hand_tile", "params": {"tile": tile_id,
                                                                "summary": {"key": "ginga.render.no_place"}}})
        else:
            best = max(o.points for o in mine)
            summary = {"key": "ginga.render.tile_summary_best" if best else "ginga.render.tile_summary",
                       "params": {"count": len(mine), "points": best}}
            tiles.append({"key": "ginga.alt.hand_tile", "params": {"tile": tile_id, "summary": summary}})
    lines = [alt.hand_heading(lang, view.viewer, names), translate(lang, "ginga.alt.hand", {"tiles": tiles})]
    if playing and view.options:
        lines.append(translate(lang, "ginga.alt.hand_numbers"))
    elif view.phase != "over":
        lines.append(translate(lang, "ginga.render.not_your_turn"))
    return alt.alt_text(lines)


def describe_final(view: GingaView, names: Sequence[str], lang: str = "en") -> str:
    if view.result is None:
        return ""
    lines = [alt.ranking_sentence(lang, "ginga", [(r.rank, r.seat, r.total) for r in view.result.players], names),
             *tie_notes(view.result, lang, names)]
    best = {b.seat: b for b in view.bests}
    for row in view.result.players:
        b = best.get(row.seat)
        if b is not None:
            lines.append(translate(lang, "ginga.alt.best", {"seat": row.seat, "loop": b.loop_points,
                                                         "stations": b.station_points}, names))
    lines.append(translate(lang, "ginga.alt.final_chart"))
    return alt.alt_text(lines)


def _latest(latest: Sequence[LastPlacement], names: Sequence[str], lang: str) -> list[str]:
    """Every placement of the latest turn, in order, each with what it scored."""
    out = []
    for p in latest:
        (ax, ay), (bx, by) = p.cells
        parts = []
        if p.loop_points:
            parts.append({"key": "ginga.alt.loop", "params": {"length": p.loop_points}})
        if p.station_points:
            parts.append({"key": "ginga.alt.stations", "params": {"count": p.station_points}})
        points = p.loop_points + p.station_points
        result = {"key": "ginga.alt.scored", "params": {"points": points, "parts": parts}} if points \
            else {"key": "ginga.alt.nothing"}
        out.append(translate(lang, "ginga.alt.placement", {
            "seat": p.seat, "tile": p.tile, "a": cell_name(ax, ay), "b": cell_name(bx, by), "result": result}, names))
    return out
