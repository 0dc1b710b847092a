"""/me: a person's own settings for all their games (time zone, quiet hours, reminders by DM),
answered to them alone. Games never ping, remind or DM a person in their quiet hours
(bot/sessions/hours.py)."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.replies import Reply, answer
from bot.discord.text import CONTENT_MAX, clip, cmd, join_lines, lang_of, t
from bot.sessions.hours import local_clock, zone_names
from bot.store import UserPrefs

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

MAX_CHOICES = 25


def me_text(prefs: UserPrefs, lang: str, now: float) -> str:
    """What /me shows: the person's time zone with their local time, quiet hours, DM choice."""
    lines = []
    if prefs.tz is None:
        lines.append(t(lang, "discord.me.no_zone"))
    else:
        lines.append(t(lang, "discord.me.zone", tz=prefs.tz, time=local_clock(prefs, now)))
    if prefs.quiet_start is None or prefs.quiet_end is None:
        lines.append(t(lang, "discord.me.no_quiet"))
    else:
        lines.append(t(lang, "discord.me.quiet", start=f"{prefs.quiet_start:02d}:00", end=f"{prefs.quiet_end:02d}:00"))
    lines.append(t(lang, "discord.settings.dm_on" if prefs.dm_reminders else "discord.settings.dm_off"))
    return join_lines(lines, CONTENT_MAX)


class Me(commands.Cog):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot

    @app_commands.command(name=cmd("discord.cmd.me"), description=cmd("discord.cmd.me.desc"))
    @app_commands.rename(timezone=cmd("discord.opt.timezone"), quiet_hours=cmd("discord.opt.quiet_hours"),
                         dm_reminders=cmd("discord.opt.dm_reminders"))
    @app_commands.describe(timezone=cmd("discord.opt.my_timezone.desc"),
                           quiet_hours=cmd("discord.opt.my_quiet_hours.desc"),
                           dm_reminders=cmd("discord.opt.dm_reminders.desc"))
    async def me(self, interaction: discord.Interaction,
                 timezone: Optional[app_commands.Range[str, 1, 64]] = None,
                 quiet_hours: Optional[app_commands.Range[str, 1, 20]] = None,
                 dm_reminders: Optional[bool] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            service = self.bot.service
            user_id = str(interaction.user.id)
            changed = timezone is not None or quiet_hours is not None or dm_reminders is not None
            if timezone is not None or quiet_hours is not None:
                await service.set_user_hours(user_id, timezone=timezone, quiet_hours=quiet_hours)
            if dm_reminders is not None:
                await service.set_user_prefs(user_id, dm_reminders=dm_reminders)
            prefs = await service.user_prefs(user_id)
            text = me_text(prefs, lang, time.time())
            return Reply(content="✅ " + t(lang, "discord.settings.saved") + "\n" + text if changed else text)

        await answer(interaction, work())

    @me.autocomplete("timezone")
    async def timezone_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """Zone names holding every word typed ("tokyo", "america new"), in alphabetical order."""
        words = current.lower().replace("/", " ").split()
        found = [z for z in zone_names() if all(w in z.lower() for w in words)]
        return [app_commands.Choice(name=clip(z, 100), value=z) for z in found[:MAX_CHOICES]]


async def setup(bot: "RailyardBot") -> None:
    await bot.add_cog(Me(bot))
