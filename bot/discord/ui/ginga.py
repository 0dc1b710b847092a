"""Galactic Railway on Discord.

Turn post (from the public view): "Place a tile…" opens the player's own page (the `hand`
reply: their two tiles drawn in every direction, and under it one select per tile listing
only that tile's legal placements, best-scoring first, with the points each would score), and
"Stop" once a first tile is down. Choosing a placement plays it at once (a `pay` select:
version-checked, so a stale page cannot play on a changed board). A tile with more than 25
placements gets a second select; if the two tiles together need more selects than a message
holds (five rows), the placements are packed by score across the rows and the rest are left
to /move, whose autocomplete lists every legal placement in words (e.g. "Place T17 → on
H8–I8, station on H8 · +6 (loop 4, stations 2)").

A player who cannot place passes automatically (the rules do it), so there is no pass button.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord import ids
from bot.discord.text import clip, event_text, t
from bot.discord.ui.base import GameUI, register
from bot.discord.ui.components import OPTIONS_PER_SELECT, GameSelect, Row, button, option
from bot.sessions import PrivateView
from games.ginga.board import cell_name
from games.ginga.notation import ARROWS, score_words
from games.ginga.tiles import tileset

MAX_ROWS = 5


class GalacticRailwayUI(GameUI):
    name = "ginga"
    colour = discord.Colour(0x1F2D5C)

    # --- public -----------------------------------------------------------------------
    def turn_rows(self, view: Any, game_id: int, version: int, lang: str) -> list[Row]:
        if view is None or view.phase == "over":
            return []
        row: Row = [button(game_id, version, "hand", label=t(lang, "discord.gt.button.place"), emoji="🧩",
                           style=discord.ButtonStyle.success)]
        if view.step == "second":
            rest = view.players[view.current].hand
            row.append(button(game_id, version, "act", "stop", label=t(lang, "discord.gt.button.stop", tiles=rest),
                              emoji="⏹️"))
        return [row]

    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        lines = []
        if view.phase == "over":
            lines.append(t(lang, "discord.gt.status.over"))
        else:
            what = t(lang, "discord.gt.status.second" if view.step == "second" else "discord.gt.status.place")
            lines.append(t(lang, "discord.gt.status.turn", {"turn": view.turn + 1, "seat": view.current, "what": what},
                           names))
        if view.pile_top:
            lines.append(t(lang, "discord.gt.status.pile", count=view.pile_size, top=view.pile_top))
        else:
            lines.append(t(lang, "discord.gt.status.pile_empty"))
        if view.passes_in_row and view.phase != "over":
            lines.append(t(lang, "discord.gt.status.passes", count=view.passes_in_row, n=view.n))
        fields = []
        for p in view.players:
            marker = "👉 " if p.seat in view.active else ""
            name = clip(marker + (names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"), 256)
            hand = ", ".join(p.hand) if p.hand else t(lang, "discord.gt.hand.none")
            fields.append((name, t(lang, "discord.gt.player", total=p.total, stations=p.stations, loops=p.loops,
                                   hand=hand)))
        return "\n".join(lines), fields

    def waiting_hint(self, view: Any, lang: str) -> str:
        if view is not None and view.step == "second":
            return t(lang, "discord.gt.hint.second")
        return t(lang, "discord.gt.hint.place")

    # --- private ----------------------------------------------------------------------
    def _kind(self, tile_id: str, lang: str) -> str:
        tile = tileset().find(tile_id)
        if tile is None:
            return ""
        if tile.station:
            return t(lang, "discord.gt.kind.station")
        return t(lang, "discord.gt.kind.exits", exits=tile.kind)

    def hand_text(self, pv: PrivateView, lang: str) -> str:
        view = pv.view
        me = view.players[pv.seat]
        tiles = [f"**{tid}** ({self._kind(tid, lang)})" for tid in me.hand]
        lines = [t(lang, "discord.gt.hand.tiles", tiles=", ".join(tiles) if tiles else t(lang, "discord.gt.hand.none"))]
        if pv.active and view.phase != "over":
            for tid in me.hand:
                mine = [o for o in view.options if o.tile == tid]
                if not mine:
                    lines.append("▫️ " + t(lang, "discord.gt.hand.cannot", tile=tid))
                    continue
                best = max(mine, key=lambda o: (o.points, -len(o.notation)))
                extra = t(lang, "discord.gt.hand.best", points=best.points, where=self._where(best)) if best.points else ""
                lines.append("🧩 " + t(lang, "discord.gt.hand.tile_line", tile=tid, count=len(mine), best=extra))
            shown, total = self._layout_counts(pv)
            if shown < total:
                lines.append(t(lang, "discord.gt.more", count=total - shown))
        if pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        elif not pv.active and view.phase != "over":
            lines.append(t(lang, "discord.hand.not_your_turn"))
        return "\n".join(lines)

    @staticmethod
    def _where(o: Any) -> str:
        (ax, ay), (bx, by) = o.cells
        return f"{ARROWS[o.orient]} {cell_name(ax, ay)}–{cell_name(bx, by)}"

    def _option(self, o: Any, lang: str, with_tile: bool) -> discord.SelectOption:
        label = (f"{o.tile} " if with_tile else "") + self._where(o)
        score = score_words(o.stations, o.loop)
        if score:
            label += event_text(lang, score, None)
        emoji = "🔁" if o.loop else "🚉" if o.stations else "▫️"
        return option(label, o.notation, description=o.notation, emoji=emoji)

    def _groups(self, pv: PrivateView) -> tuple[list[tuple[str | None, list[Any]]], int]:
        """Selects to show: [(tile id or None when mixed, options)], and how many options were
        left out (when even five selects cannot hold them all)."""
        view = pv.view
        capacity = MAX_ROWS - (1 if view.step == "second" else 0)
        per_tile = []
        for tid in view.players[pv.seat].hand:
            mine = sorted((o for o in view.options if o.tile == tid), key=lambda o: (-o.points, o.notation))
            if mine:
                per_tile.append((tid, mine))
        needed = sum(-(-len(opts) // OPTIONS_PER_SELECT) for _, opts in per_tile)
        if needed <= capacity:
            groups: list[tuple[str | None, list[Any]]] = []
            for tid, opts in per_tile:
                for i in range(0, len(opts), OPTIONS_PER_SELECT):
                    groups.append((tid, opts[i:i + OPTIONS_PER_SELECT]))
            return groups, 0
        everything = sorted((o for _, opts in per_tile for o in opts), key=lambda o: (-o.points, o.notation))
        kept = everything[: capacity * OPTIONS_PER_SELECT]
        groups = [(None, kept[i:i + OPTIONS_PER_SELECT]) for i in range(0, len(kept), OPTIONS_PER_SELECT)]
        return groups, len(everything) - len(kept)

    def _layout_counts(self, pv: PrivateView) -> tuple[int, int]:
        groups, left_out = self._groups(pv)
        shown = sum(len(opts) for _, opts in groups)
        return shown, shown + left_out

    def private_rows(self, pv: PrivateView, lang: str) -> list[Row]:
        view = pv.view
        if not pv.active or view.phase == "over":
            return []
        rows: list[Row] = []
        groups, _ = self._groups(pv)
        counts: dict[str | None, int] = {}
        for tid, opts in groups:
            counts[tid] = counts.get(tid, 0) + 1
        seen: dict[str | None, int] = {}
        for n, (tid, opts) in enumerate(groups):
            seen[tid] = seen.get(tid, 0) + 1
            total = sum(1 for o in view.options if o.tile == tid) if tid else len(view.options)
            if tid:
                placeholder = t(lang, "discord.gt.pick", tile=tid, count=total)
            else:
                placeholder = t(lang, "discord.gt.pick_all", count=total)
            if counts[tid] > 1:
                placeholder += f" ({seen[tid]}/{counts[tid]})"
            select = discord.ui.Select(custom_id=ids.make_id(pv.game_id, pv.version, "pay", str(n)),
                                       placeholder=clip(placeholder, 150),
                                       options=[self._option(o, lang, tid is None) for o in opts])
            rows.append([GameSelect(select)])
        if view.step == "second":
            rows.append([button(pv.game_id, pv.version, "act", "stop", emoji="⏹️",
                                label=t(lang, "discord.gt.button.stop", tiles=view.players[pv.seat].hand))])
        return rows


register(GalacticRailwayUI())
