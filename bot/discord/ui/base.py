"""How a game shows itself on Discord: the buttons under a turn post, the status embed,
the words under a private hand. One `GameUI` per game (`get(name)`); a game without its own
falls back to `GameUI`, which still offers "Show my hand" and /move for everything.

Public parts (turn buttons, embeds) are built from the SPECTATOR view only, so a public
post cannot leak a hand; private parts get the player's PrivateView and are only ever sent
ephemerally.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord.text import clip, event_text, t
from bot.discord.ui.components import Row, button
from bot.sessions import PrivateView


class GameUI:
    name = ""
    colour = discord.Colour(0x2E7D32)

    # --- words ------------------------------------------------------------------------
    def title(self, lang: str) -> str:
        return t(lang, f"game.{self.name}.title")

    def rules(self, lang: str) -> str:
        return t(lang, f"discord.rules.{self.name}")

    def load_view(self, game: Any, data: Any) -> Any:
        if data is None or isinstance(data, game.view_model):
            return data
        return game.view_model.model_validate(data)

    # --- public -----------------------------------------------------------------------
    def turn_rows(self, view: Any, game_id: int, version: int, lang: str) -> list[Row]:
        """Buttons under a turn post, from the spectator view."""
        if view is None or getattr(view, "result", None) is not None:
            return []
        return [[button(game_id, version, "hand", label=t(lang, "discord.button.hand"), emoji="🃏",
                        style=discord.ButtonStyle.primary)]]

    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        """(description, [(field name, value)]) for the status embed."""
        return "", []

    def waiting_hint(self, view: Any, lang: str) -> str:
        return t(lang, "discord.hint.your_turn")

    # --- private ----------------------------------------------------------------------
    def hand_text(self, pv: PrivateView, lang: str) -> str:
        lines = []
        if pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        return "\n".join(lines)

    def private_rows(self, pv: PrivateView, lang: str) -> list[Row]:
        """Components only this player sees (e.g. a secret choice), for the hand reply."""
        if pv.active and getattr(pv.view, "result", None) is None:
            return self.turn_rows(pv.view, pv.game_id, pv.version, lang)
        return []

    # --- two-step choices (e.g. claim a route, then how to pay) -----------------------
    # The words of the flow: catalog keys <claim_words>.intro / .pick_route / .none /
    # .payment_intro / .pick_payment / .cannot (a game may pick other words, e.g. "railroad").
    claim_words = "discord.claim"

    def claim_targets(self, pv: PrivateView, lang: str) -> list[discord.SelectOption]:
        return []

    def claim_payments(self, pv: PrivateView, target: str, lang: str) -> list[discord.SelectOption]:
        return []

    # --- private simultaneous choices (`pick` selects) ----------------------------------
    def decision_key(self, pv: PrivateView) -> str:
        """What a `pick` select is drawn for; a pick made for another key is stale. Games
        where players choose at the same time return something other players' moves do not
        change (e.g. phase and round); the default is the version, i.e. any move."""
        return str(pv.version)

    def pick_notation(self, pv: PrivateView, values: Sequence[str]) -> str:
        """The move a `pick` select's values stand for (default: the one value's notation)."""
        return values[0] if values else ""

    # --- public words about moves ------------------------------------------------------
    def private_notation(self, notation: str) -> bool:
        """True when a move's notation names hidden things (e.g. which tickets were kept)."""
        return False

    def public_event(self, event: dict[str, Any]) -> dict[str, Any]:
        """An event as everyone may read it: a session event quoting a move whose notation
        is private (an undone or automatic ticket choice) quotes it without the secret."""
        params = event.get("params") or {}
        notation = params.get("notation")
        if isinstance(notation, str) and self.private_notation(notation):
            return {**event, "params": {**params, "notation": {"key": "discord.hidden_move"}}}
        return event

    def route_name(self, target: str, lang: str) -> str:
        return target

    def move_label(self, label: Any, names: Sequence[str], lang: str) -> str:
        return clip(event_text(lang, label, names), 100)


_UIS: dict[str, GameUI] = {}


def register(ui: GameUI) -> None:
    _UIS[ui.name] = ui


def get(name: str) -> GameUI:
    if name not in _UIS and name == "ticket_to_ride":
        from bot.discord.ui import ticket_to_ride  # noqa: F401  (registers itself)
    ui = _UIS.get(name)
    if ui is None:
        ui = GameUI()
        ui.name = name
    return ui
