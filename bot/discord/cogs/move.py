"""/move: play any legal move by its notation, with autocomplete of the caller's legal moves."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import where
from bot.discord.play import channel_key, play
from bot.discord.replies import answer
from bot.discord.text import OPTION_TEXT_MAX, clip, cmd, lang_of
from bot.discord.ui import base as ui_base
from bot.sessions import SessionError

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

log = logging.getLogger("railyard.discord.move")

MAX_CHOICES = 25


class Move(commands.Cog):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot

    @app_commands.command(name=cmd("discord.cmd.move"), description=cmd("discord.cmd.move.desc"))
    @app_commands.rename(move=cmd("discord.opt.move"))
    @app_commands.describe(move=cmd("discord.opt.move.desc"))
    @where.game_places
    async def move(self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 200]) -> None:
        await answer(interaction, play(interaction, move))

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Only the caller's legal moves, filtered by every word typed (in the words shown or
        in the notation). Autocomplete cannot show an error, so problems give no choices."""
        try:
            pv = await self.bot.service.private_view(channel_key(interaction), str(interaction.user.id))
        except SessionError:
            return []
        except Exception:  # noqa: BLE001
            log.exception("move autocomplete failed in channel %s", interaction.channel_id)
            return []
        if not pv.active:
            return []
        lang = lang_of(interaction)
        ui = ui_base.get(pv.game)
        words = current.lower().split()
        choices: list[app_commands.Choice[str]] = []
        for legal in pv.legal:
            if len(legal.notation) > 100:
                continue
            label = ui.move_label(legal.label, pv.names, lang)
            haystack = f"{label} {legal.notation}".lower()
            if all(w in haystack for w in words):
                choices.append(app_commands.Choice(name=clip(label, OPTION_TEXT_MAX), value=legal.notation))
                if len(choices) >= MAX_CHOICES:
                    break
        return choices


async def setup(bot: "RailyardBot") -> None:
    await bot.add_cog(Move(bot))
