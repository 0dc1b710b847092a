"""/me and /away: a person's own settings for all their games (time zone, quiet hours,
reminders by DM or one digest a day, away time), answered to them alone. Games never ping,
remind or DM a person in their quiet hours or while they are away (bot/sessions/hours.py,
people.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import where
from bot.discord.replies import Reply, answer
from bot.discord.text import CONTENT_MAX, clip, cmd, join_lines, lang_of, t
from bot.discord.posts import waiting_line
from bot.sessions.hours import OFF_WORDS, away, local_clock, zone_names
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
    if prefs.digest_hour is not None:
        lines.append(t(lang, "discord.me.digest", hour=f"{prefs.digest_hour:02d}:00",
                       next=f"<t:{int(prefs.digest_next_at or now)}:R>"))
    else:
        lines.append(t(lang, "discord.settings.dm_on" if prefs.dm_reminders else "discord.settings.dm_off"))
    if away(prefs, now):
        lines.append(t(lang, "discord.me.away", until=f"<t:{int(prefs.away_until or now)}:f>"))
    return join_lines(lines, CONTENT_MAX)


class Me(commands.Cog):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot

    @app_commands.command(name=cmd("discord.cmd.me"), description=cmd("discord.cmd.me.desc"))
    @where.personal_places
    @app_commands.rename(timezone=cmd("discord.opt.timezone"), quiet_hours=cmd("discord.opt.quiet_hours"),
                         dm_reminders=cmd("discord.opt.dm_reminders"), digest=cmd("discord.opt.digest"))
    @app_commands.describe(timezone=cmd("discord.opt.my_timezone.desc"),
                           quiet_hours=cmd("discord.opt.my_quiet_hours.desc"),
                           dm_reminders=cmd("discord.opt.dm_reminders.desc"),
                           digest=cmd("discord.opt.digest.desc"))
    async def me(self, interaction: discord.Interaction,
                 timezone: Optional[app_commands.Range[str, 1, 64]] = None,
                 quiet_hours: Optional[app_commands.Range[str, 1, 20]] = None,
                 dm_reminders: Optional[bool] = None,
                 digest: Optional[app_commands.Range[str, 1, 10]] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            service = self.bot.service
            user_id = str(interaction.user.id)
            changed = any(v is not None for v in (timezone, quiet_hours, dm_reminders, digest))
            if timezone is not None or quiet_hours is not None:
                await service.set_user_hours(user_id, timezone=timezone, quiet_hours=quiet_hours)
            if dm_reminders is not None:
                await service.set_user_prefs(user_id, dm_reminders=dm_reminders)
            if digest is not None:
                await service.set_digest(user_id, digest)
            if changed:  # the DMs they get are in the language they use
                await service.set_user_prefs(user_id, locale=lang)
            prefs = await service.user_prefs(user_id)
            text = me_text(prefs, lang, self.bot.clock())
            return Reply(content="✅ " + t(lang, "discord.settings.saved") + "\n" + text if changed else text)

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.away"), description=cmd("discord.cmd.away.desc"))
    @where.personal_places
    @app_commands.rename(until=cmd("discord.opt.until"))
    @app_commands.describe(until=cmd("discord.opt.until.desc"))
    async def away(self, interaction: discord.Interaction,
                   until: Optional[app_commands.Range[str, 1, 32]] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            service = self.bot.service
            user_id = str(interaction.user.id)
            now = self.bot.clock()
            if until is None:
                prefs = await service.user_prefs(user_id)
                if away(prefs, now):
                    return Reply(content=t(lang, "discord.me.away", until=f"<t:{int(prefs.away_until or now)}:f>"))
                return Reply(content=t(lang, "discord.away.not_away"))
            await service.set_user_prefs(user_id, locale=lang)  # their return DM comes in their language
            if until.strip().lower() in OFF_WORDS:
                _, games = await service.end_away(user_id)
                in_dm = interaction.guild_id is None
                lines = [t(lang, "discord.away.back", count=len(games)),
                         *(waiting_line(g, lang, in_dm=in_dm) for g in games)]
                return Reply(content=join_lines(lines, CONTENT_MAX))
            prefs = await service.set_away(user_id, until)
            return Reply(content="🏖️ " + t(lang, "discord.away.set", until=f"<t:{int(prefs.away_until or now)}:f>"))

        await answer(interaction, work())

    @away.autocomplete("until")
    async def until_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """Common answers, then what was typed: a date or a number of days."""
        lang = lang_of(interaction)
        offered = [(t(lang, "discord.away.choice_off"), "off"), (t(lang, "discord.away.choice_days", days=3), "3d"),
                   (t(lang, "discord.away.choice_days", days=7), "7d"), (t(lang, "discord.away.choice_days", days=14), "14d")]
        typed = current.strip()
        found = [app_commands.Choice(name=clip(n, 100), value=v) for n, v in offered
                 if not typed or typed.lower() in (n.lower() + " " + v)]
        if typed and all(c.value != typed for c in found):
            found.insert(0, app_commands.Choice(name=clip(typed, 100), value=clip(typed, 32)))
        return found[:MAX_CHOICES]

    @me.autocomplete("timezone")
    async def timezone_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """Zone names holding every word typed ("tokyo", "america new"), in alphabetical order."""
        words = current.lower().replace("/", " ").split()
        found = [z for z in zone_names() if all(w in z.lower() for w in words)]
        return [app_commands.Choice(name=clip(z, 100), value=z) for z in found[:MAX_CHOICES]]


async def setup(bot: "RailyardBot") -> None:
    await bot.add_cog(Me(bot))
