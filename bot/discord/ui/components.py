"""Restart-proof buttons and selects (discord.ui.DynamicItem) and helpers to lay them out.

Nothing about a game is kept in memory: a click is routed by its custom id (see
bot.discord.ids) to the client's `on_game_component` (RailyardBot hands it to
bot.discord.play), which reloads the game from the database. So a button drawn by an
earlier process works the same after a restart. Going through the client keeps this module
below the code that handles clicks, with no import back up.

discord.py only logs exceptions raised in a dynamic item's callback; ours hand every
exception to the one error handler (bot.discord.errors.report_error), so each failure is
answered ephemerally.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord import ids
from bot.discord.text import LABEL_MAX, OPTION_TEXT_MAX, clip

MAX_ROWS = 5
BUTTONS_PER_ROW = 5
OPTIONS_PER_SELECT = 25


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.BUTTON_TEMPLATE):
    def __init__(self, item: discord.ui.Button) -> None:
        super().__init__(item)
        self.ref = ids.ComponentId.parse(item.custom_id or "")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any) -> "GameButton":
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.on_game_component(interaction, self.ref, [])  # type: ignore[attr-defined]


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.SELECT_TEMPLATE):
    def __init__(self, item: discord.ui.Select) -> None:
        super().__init__(item)
        self.ref = ids.ComponentId.parse(item.custom_id or "")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: Any) -> "GameSelect":
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.on_game_component(  # type: ignore[attr-defined]
            interaction, self.ref, list(self.item.values))


def button(game_id: int, version: int, verb: str, arg: str | None = None, *, label: str,
           style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None,
           disabled: bool = False) -> GameButton | None:
    """A button, or None when its custom id would not fit Discord's 100 characters."""
    if not ids.fits(game_id, version, verb, arg):
        return None
    return GameButton(discord.ui.Button(
        label=clip(label, LABEL_MAX), style=style, emoji=emoji, disabled=disabled,
        custom_id=ids.make_id(game_id, version, verb, arg),
    ))


def selects(game_id: int, version: int, verb: str, options: Sequence[discord.SelectOption], *,
            placeholder: str, min_values: int = 1, max_values: int = 1,
            numbered: bool = True, arg: str | None = None) -> list[GameSelect]:
    """One select per 25 options (custom ids `<verb>:<n>` when `numbered`, else
    `<verb>:<arg>`)."""
    out: list[GameSelect] = []
    chunks = [list(options[i:i + OPTIONS_PER_SELECT]) for i in range(0, len(options), OPTIONS_PER_SELECT)]
    fixed = arg
    for n, chunk in enumerate(chunks):
        arg = str(n) if numbered else fixed
        label = placeholder if len(chunks) == 1 else f"{placeholder} ({n + 1}/{len(chunks)})"
        out.append(GameSelect(discord.ui.Select(
            custom_id=ids.make_id(game_id, version, verb, arg), placeholder=clip(label, 150),
            options=chunk, min_values=min(min_values, len(chunk)), max_values=min(max_values, len(chunk)),
        )))
    return out


def option(label: str, value: str, description: str | None = None,
           emoji: str | None = None, default: bool = False) -> discord.SelectOption:
    """A select's option; `default`: shown as already picked (a group's picks so far)."""
    return discord.SelectOption(label=clip(label, OPTION_TEXT_MAX), value=value[:100],
                                description=clip(description, OPTION_TEXT_MAX) if description else None,
                                emoji=emoji, default=default)


Row = list[discord.ui.Item]


def make_view(rows: Sequence[Sequence[discord.ui.Item | None]]) -> discord.ui.View | None:
    """Lay items out in rows: a select alone in its row, ≤ 5 buttons a row, ≤ 5 rows.
    Rows that do not fit are dropped (callers put the important ones first).

    Views hold only DynamicItems ("fully dynamic"): discord.py then keeps no per-message
    state for them, and a view timing out can never unregister the item templates."""
    view = discord.ui.View(timeout=None)
    row_index = 0
    for row in rows:
        items = [i for i in row if i is not None]
        while items and row_index < MAX_ROWS:
            if isinstance(items[0], GameSelect) or isinstance(items[0], discord.ui.Select):
                chunk, items = items[:1], items[1:]
            else:
                chunk = []
                while items and len(chunk) < BUTTONS_PER_ROW and not isinstance(items[0], (GameSelect, discord.ui.Select)):
                    chunk.append(items.pop(0))
            for item in chunk:
                item.row = row_index
                view.add_item(item)
            row_index += 1
    return view if view.children else None
