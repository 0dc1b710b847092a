"""Steam's look on Discord: cube colours and action tiles as emoji, the status embed (turn,
phase, whose move, each player's cash, income, points, locomotive and action tile in turn
order) and the private text (the player's own numbers and what the game asks of them).

Everything in Steam is public (ST-15): the turn posts carry no "Show my hand" (the board and
its table show every player), and the private text, which `/game hand` still gives, only
gathers what concerns the reader. What a player can do comes from the rules' menus
(games/steam/decisions.py): bids and capital as amounts, an action tile, a build as hex →
tile laid in place, a delivery as cube → route, income or points; the one chooser draws them
(the places on pictures of the map, bot/discord/picking.py), and every move also works with
`/move`.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord.text import clip, event_text, t
from bot.discord.ui.base import GameUI, register
from bot.sessions import PrivateView
from games.steam.derived import board_map
from games.steam.models import COLOURS

CUBES = {"red": "🟥", "blue": "🟦", "yellow": "🟨", "purple": "🟪", "gray": "⬜"}
TILES = {"turn_order": "🔢", "first_deliver": "📦", "engineer": "👷", "first_build": "🏗️",
         "city_growth": "🌱", "locomotive": "🚂", "urbanize": "🏙️"}
ICONS = {**CUBES, **TILES, "build": "🛤️", "upgrade": "⏫", "redirect": "↪️", "done": "✅", "town": "🏘️",
         "supply": "📥", "income": "💵", "points": "⭐"}
PHASES = ("first_auction", "capital", "auction", "actions", "build", "deliver", "over")


class SteamUI(GameUI):
    name = "steam"
    colour = discord.Colour(0x5B4636)
    icon_emoji = ICONS

    @staticmethod
    def _name(seat: int, names: Sequence[str]) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    @staticmethod
    def tile_text(tile: str | None, declined: bool, lang: str) -> str:
        if tile is None:
            return "—"
        text = f"{TILES.get(tile, '')} {t(lang, f'steam.tile.{tile}')}".strip()
        return t(lang, "steam.discord.declined", tile=text) if declined else text

    def _phase_line(self, view: Any, names: Sequence[str], lang: str) -> str:
        state = view.state
        if state.phase == "over":
            return t(lang, "steam.discord.status.over", turns=state.turn)
        waiting = list(view.active)
        who = {"seats": waiting} if waiting else {"seats": []}
        if state.phase == "deliver" and state.pending:
            seat, points = state.pending[0]
            return t(lang, "steam.discord.status.score", {"seat": seat}, names, points=points, turn=state.turn,
                     turns=state.turns)
        phase = {"key": f"steam.phase.{state.phase}"}
        if state.phase == "deliver":
            phase = {"key": "steam.discord.deliver_round", "params": {"round": state.deliver_round}}
        return t(lang, "steam.discord.status.turn", who, names, turn=state.turn, turns=state.turns, phase=phase)

    # --- public -----------------------------------------------------------------------
    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        state = view.state
        m = board_map(state)
        lines = [self._phase_line(view, names, lang)]
        mode = "steam.discord.mode.standard" if state.options.standard else "steam.discord.mode.basic"
        lines.append(t(lang, "steam.discord.status.map", map=dict(m.title), mode={"key": mode}))
        if state.phase != "over" and state.order:
            order = " → ".join(self._name(s, names) for s in state.order)
            lines.append(t(lang, "steam.discord.status.order", order=order))
        if state.last_route_places:
            lines.append("📦 " + t(lang, "steam.discord.status.last_delivery", route="→".join(state.last_route_places)))
        left = sum(1 for s in state.supply if any(s))
        lines.append(t(lang, "steam.discord.status.supply", spaces=left, growth=state.growth_left))
        fields = []
        seats = list(state.order) + [i for i in range(state.n) if i not in state.order]
        for seat in seats:
            p = state.players[seat]
            marker = "👉 " if seat in view.active else ""
            name = clip(marker + self._name(seat, names), 256)
            if p.bankrupt:
                fields.append((name, "💀 " + t(lang, "steam.discord.player.bankrupt")))
                continue
            value = [t(lang, "steam.discord.player.money", cash=p.cash, income=p.income, points=p.points),
                     t(lang, "steam.discord.player.engine", level=p.locomotive, delivered=p.delivered),
                     t(lang, "steam.discord.player.tile", tile=self.tile_text(p.action, p.declined, lang))]
            fields.append((name, "\n".join(value)))
        return "\n".join(lines), fields

    def waiting_hint(self, view: Any, lang: str) -> str:
        state = getattr(view, "state", None)
        if state is None:
            return t(lang, "discord.hint.your_turn")
        if state.phase == "deliver" and state.pending:
            return t(lang, "steam.discord.hint.score")
        if state.phase in PHASES and state.phase != "over":
            return t(lang, f"steam.discord.hint.{state.phase}")
        return t(lang, "discord.hint.your_turn")

    # --- private ----------------------------------------------------------------------
    def hand_text(self, pv: PrivateView, lang: str) -> str:
        view = pv.view
        state = view.state
        p = state.players[pv.seat]
        lines = [t(lang, "steam.discord.player.money", cash=p.cash, income=p.income, points=p.points),
                 t(lang, "steam.discord.player.engine", level=p.locomotive, delivered=p.delivered),
                 t(lang, "steam.discord.player.tile", tile=self.tile_text(p.action, p.declined, lang))]
        if state.phase == "build" and pv.active:
            lines.append(t(lang, "steam.discord.hand.placed", placed=state.placed))
        if state.phase == "deliver" and not state.pending and pv.active:
            cubes = [f"{CUBES[c]} {n}" for c, n in zip(COLOURS, _cubes_total(state)) if n]
            lines.append(t(lang, "steam.discord.hand.cubes", cubes=" · ".join(cubes) or "—"))
        if pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        elif state.phase != "over":
            lines.append(t(lang, "discord.hand.not_your_turn"))
        return "\n".join(lines)


def _cubes_total(state: Any) -> list[int]:
    """Cubes waiting on the board, per colour."""
    totals = [0] * len(COLOURS)
    for counts in state.cubes.values():
        for k, n in enumerate(counts):
            totals[k] += n
    return totals


UI = SteamUI()
register(UI)
