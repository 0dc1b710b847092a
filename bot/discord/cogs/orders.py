"""/orders: the caller's standing orders in this channel's game (ephemeral), to look at,
cancel, or set from the game's menu of orders; `order:` sets one by its notation."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import where
from bot.discord.orders import orders_reply, set_reply
from bot.discord.play import actor_of, channel_key
from bot.discord.replies import answer
from bot.discord.text import OPTION_TEXT_MAX, clip, cmd, event_text, lang_of
from bot.sessions import SessionError
from games import registry

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

log = logging.getLogger("railyard.discord.orders")

MAX_CHOICES = 25


class Orders(commands.Cog):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot

    @app_commands.command(name=cmd("discord.cmd.orders"), description=cmd("discord.cmd.orders.desc"))
    @app_commands.rename(order=cmd("discord.opt.order"))
    @app_commands.describe(order=cmd("discord.opt.order.desc"))
    @where.game_places
    async def orders(self, interaction: discord.Interaction,
                     order: Optional[app_commands.Range[str, 1, 200]] = None) -> None:
        if order is None:
            await answer(interaction, orders_reply(interaction))
        else:
            await answer(interaction, set_reply(interaction, order))

    @orders.autocomplete("order")
    async def order_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """The orders the caller may set now, filtered by every word typed. Autocomplete
        cannot show an error, so problems give no choices."""
        try:
            info = await self.bot.service.orders_of(channel_key(interaction), actor_of(interaction))
        except SessionError:
            return []
        except Exception:  # noqa: BLE001
            log.exception("orders autocomplete failed in channel %s", interaction.channel_id)
            return []
        lang = lang_of(interaction)
        words = current.lower().split()
        game = registry.get(info.game)
        state = await self.bot.service.current_state(info.game_id)
        choices: list[app_commands.Choice[str]] = []
        for notation in info.choices.all_notations():
            if len(notation) > 100:
                continue
            try:
                label = event_text(lang, game.describe_order(state, info.seat, notation), info.names)
            except Exception:  # noqa: BLE001 - the notation alone still says it
                label = notation
            if all(w in f"{label} {notation}".lower() for w in words):
                choices.append(app_commands.Choice(name=clip(label, OPTION_TEXT_MAX), value=notation))
                if len(choices) >= MAX_CHOICES:
                    break
        return choices


async def setup(bot: "RailyardBot") -> None:
    await bot.add_cog(Orders(bot))
