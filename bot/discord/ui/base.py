"""How a game looks on Discord: its colour, the emoji of its menu icons, the status embed,
the words under a private hand. One `GameUI` per game (`get(name)`); a game without its own
falls back to `GameUI`, which still offers the chooser, /move for everything and, where the
game has private information, "Show my hand".

Only presentation lives here. What a player may choose, in which steps and whether it is
secret comes from the rules (`Game.decision`) and is drawn by the one chooser
(bot/discord/chooser.py); no game adds a custom id or reads notation.

Public parts (embeds) are built from the SPECTATOR view only, so a public post cannot leak
a hand; private parts get the player's PrivateView and are only ever sent ephemerally.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import discord

from bot.discord.text import clip, event_text, t
from bot.sessions import PrivateView
from games import registry

# Icons any game's menu may use for moves every kind of game has; a game's look adds its own.
COMMON_EMOJI: Mapping[str, str] = {"pass": "⏭️", "stop": "⏹️", "decline": "🚫", "keep": "✋", "none": "✋"}


class GameUI:
    name = ""
    colour = discord.Colour(0x2E7D32)
    icon_emoji: Mapping[str, str] = {}
    # In a game where nothing is private (Game.private_information is False) "Show my hand"
    # would promise a secret there is not: such a game's look offers no button for a
    # player's own part (None), or names it for what its picture shows.
    public_own_button: tuple[str, str] | None = None  # (catalog key, emoji)

    @property
    def game(self) -> Any:
        """The game's rules, for a look that words its board's own things (tickets, sections)."""
        return registry.get(self.name)

    def own_button(self) -> tuple[str, str] | None:
        """The words (catalog key) and emoji of the turn post's button that shows a player
        their own part privately, or None when the game offers none."""
        if self.game.private_information:
            return "discord.button.hand", "🃏"
        return self.public_own_button

    # --- words ------------------------------------------------------------------------
    def title(self, lang: str) -> str:
        return t(lang, f"{self.name}.title")

    def rules(self, lang: str) -> str:
        return t(lang, f"{self.name}.discord.rules")

    def load_view(self, game: Any, data: Any) -> Any:
        if data is None or isinstance(data, game.view_model):
            return data
        return game.view_model.model_validate(data)

    def emoji(self, icon: str | None) -> str | None:
        """The emoji for a menu pick's icon (a card colour, a railroad), if the game has one."""
        if icon is None:
            return None
        return self.icon_emoji.get(icon) or COMMON_EMOJI.get(icon)

    # --- public -----------------------------------------------------------------------
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

    def move_label(self, label: Any, names: Sequence[str], lang: str) -> str:
        return clip(event_text(lang, label, names), 100)


_UIS: dict[str, GameUI] = {}


def register(ui: GameUI) -> None:
    _UIS[ui.name] = ui


def get(name: str) -> GameUI:
    ui = _UIS.get(name)
    if ui is None:
        ui = GameUI()
        ui.name = name
    return ui
