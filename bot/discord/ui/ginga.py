"""Galactic Railway's look on Discord: the status embed (scores, the pile, whose turn) and
the private hand (the two tiles, how many places each fits and its best score).

What a player can do comes from the rules' menus (games/ginga/decisions.py): a tile, then
one of its placements, picked by its number on a picture of the table (the hand image's
tables carry the same numbers), with the points it would score, or Stop after a first tile;
the one chooser draws them. A player who cannot place passes automatically (the
rules do it), so there is no pass button.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord.text import clip, event_text, t
from bot.discord.ui.base import GameUI, register
from bot.sessions import PrivateView
from games.ginga.board import cell_name
from games.ginga.notation import ARROWS
from games.ginga.tiles import tileset



class GalacticRailwayUI(GameUI):
    name = "ginga"
    colour = discord.Colour(0x1F2D5C)
    icon_emoji = {"place": "🧩", "loop": "🔁", "stations": "🚉"}
    # Hands are public (GT-7) and on the board; the private picture numbers the places each
    # of the player's tiles fits, as the menu does
    public_own_button = ("ginga.discord.button.tiles", "🧩")

    # --- public -----------------------------------------------------------------------
    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        lines = []
        if view.phase == "over":
            lines.append(t(lang, "ginga.discord.status.over"))
        else:
            what = t(lang, "ginga.discord.status.second" if view.step == "second" else "ginga.discord.status.place")
            lines.append(t(lang, "ginga.discord.status.turn", {"turn": view.turn + 1, "seat": view.current, "what": what},
                           names))
        if view.pile_top:
            lines.append(t(lang, "ginga.discord.status.pile", count=view.pile_size, top=view.pile_top))
        else:
            lines.append(t(lang, "ginga.discord.status.pile_empty"))
        if view.passes_in_row and view.phase != "over":
            lines.append(t(lang, "ginga.discord.status.passes", count=view.passes_in_row, n=view.n))
        fields = []
        for p in view.players:
            marker = "👉 " if p.seat in view.active else ""
            name = clip(marker + (names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"), 256)
            hand = list(p.hand) or t(lang, "ginga.discord.hand.none")  # a list is joined the reader's way
            fields.append((name, t(lang, "ginga.discord.player", total=p.total, stations=p.stations, loops=p.loops,
                                   hand=hand)))
        return "\n".join(lines), fields

    def waiting_hint(self, view: Any, lang: str) -> str:
        if view is not None and view.step == "second":
            return t(lang, "ginga.discord.hint.second")
        return t(lang, "ginga.discord.hint.place")

    # --- private ----------------------------------------------------------------------
    def _kind(self, tile_id: str, lang: str) -> str:
        tile = tileset().find(tile_id)
        if tile is None:
            return ""
        if tile.station:
            return t(lang, "ginga.discord.kind.station")
        return t(lang, "ginga.discord.kind.exits", exits=tile.kind)

    def hand_text(self, pv: PrivateView, lang: str) -> str:
        view = pv.view
        me = view.players[pv.seat]
        tiles = [{"key": "ginga.discord.hand.tile", "params": {"tile": tid, "kind": self._kind(tid, lang)}}
                 for tid in me.hand]
        lines = [t(lang, "ginga.discord.hand.tiles", tiles=tiles or t(lang, "ginga.discord.hand.none"))]
        if pv.active and view.phase != "over":
            for tid in me.hand:
                mine = [o for o in view.options if o.tile == tid]
                if not mine:
                    lines.append("▫️ " + t(lang, "ginga.discord.hand.cannot", tile=tid))
                    continue
                best = max(mine, key=lambda o: (o.points, -len(o.notation)))
                extra = t(lang, "ginga.discord.hand.best", points=best.points, where=self._where(best)) if best.points else ""
                lines.append("🧩 " + t(lang, "ginga.discord.hand.tile_line", tile=tid, count=len(mine), best=extra))
        if pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        elif not pv.active and view.phase != "over":
            lines.append(t(lang, "discord.hand.not_your_turn"))
        return "\n".join(lines)

    @staticmethod
    def _where(o: Any) -> str:
        (ax, ay), (bx, by) = o.cells
        return f"{ARROWS[o.orient]} {cell_name(ax, ay)}–{cell_name(bx, by)}"


register(GalacticRailwayUI())
