"""/league and /stats: a server's ratings (kept by the server's choice, bot/sessions/results.py),
its leaderboards as images and each player's profile, in the viewer's language.

/league is for those who may manage the server (Discord hides it from the others, and the
command checks it again: a server's ratings are its admins' call). /stats is for everyone."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import leagues, where
from bot.discord.cogs.game import game_autocomplete
from bot.discord.errors import UserError
from bot.discord.play import actor_of
from bot.discord.replies import Reply, answer
from bot.discord.text import CONTENT_MAX, OPTION_TEXT_MAX, choice, clip, cmd, join_lines, lang_of, t
from bot.discord.ui import base as ui_base
from bot.sessions import SessionError
from bot.sessions.options import parse_options
from bot.sessions.results import Profile
from games import registry
from games.core.i18n import has_key, language_for, translate
from render import pool as render_pool
from render.community import draw_leaderboard

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot


def profile_text(profile: Profile, lang: str) -> str:
    """A player's profile: per title their games, wins, average place, best score, the game's
    own records and rating; then the people they played most."""
    if not profile.titles:
        return t(lang, "discord.stats.no_games", name=profile.name)
    lines = [t(lang, "discord.stats.profile_head", name=profile.name, games=profile.games)]
    for title in profile.titles:
        name = ui_base.get(title.game).title(lang) if title.game in registry.names() else title.game
        line = t(lang, "discord.stats.title_line", game=name, games=title.games, wins=title.wins,
                 place=f"{title.average_place:.1f}", best=title.best_total)
        extras = []
        for stat, value in title.records.items():
            key = f"{title.game}.stat.{stat}"
            if has_key(lang, key):
                extras.append(f"{translate(lang, key)} {value}")
        if title.rating is not None:
            extras.append(t(lang, "discord.stats.rating", rating=f"{title.rating:.1f}"))
        lines.append(line + (" · " + " · ".join(extras) if extras else ""))
    if profile.opponents:
        met = t(lang, "discord.delivery.comma").join(
            t(lang, "discord.stats.opponent", name=o.name, games=o.games, ahead=o.ahead) for o in profile.opponents)
        lines.append(t(lang, "discord.stats.opponents", list=met))
    return join_lines(lines, CONTENT_MAX)


async def league_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's leagues, newest first, by name (the value is the league's number)."""
    bot: "RailyardBot" = interaction.client  # type: ignore[assignment]
    lang = lang_of(interaction)
    found = []
    for league in await bot.service.leagues_of(str(interaction.guild_id)):
        label = f"{league.name} · {ui_base.get(league.game).title(lang)}" if league.game in registry.names() else league.name
        if current.casefold() in label.casefold():
            found.append(app_commands.Choice(name=clip(label, OPTION_TEXT_MAX), value=str(league.id)))
    return found[:25]


def league_id_of(value: str) -> int:
    """The league picked in an option: a number from the list (anything else typed is no league)."""
    if not value.isdigit() or len(value) > 18:
        raise SessionError("no_league")
    return int(value)


@where.server_places
@app_commands.default_permissions(manage_guild=True)
class League(commands.GroupCog, group_name=cmd("discord.cmd.league"), group_description=cmd("discord.cmd.league.desc")):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=cmd("discord.cmd.ratings"), description=cmd("discord.cmd.ratings.desc"))
    @app_commands.rename(on=cmd("discord.opt.on"), with_bots=cmd("discord.opt.with_bots"))
    @app_commands.describe(on=cmd("discord.opt.on.desc"), with_bots=cmd("discord.opt.with_bots.desc"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def ratings(self, interaction: discord.Interaction, on: bool, with_bots: Optional[bool] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            guild = str(interaction.guild_id)
            current = await self.bot.service.rating_rules(guild)
            bots = with_bots if with_bots is not None else bool(current and current.with_bots)
            rules = await self.bot.service.set_rating_rules(guild, enabled=on, with_bots=bots)
            key = "discord.league.on_with_bots" if rules.enabled and rules.with_bots else \
                "discord.league.on" if rules.enabled else "discord.league.off"
            return Reply(content="✅ " + t(lang, key))

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.league_open"), description=cmd("discord.cmd.league_open.desc"))
    @app_commands.rename(name=cmd("discord.opt.league_name"), game=cmd("discord.opt.game"),
                         rounds=cmd("discord.opt.rounds"), table=cmd("discord.opt.table"),
                         deadline=cmd("discord.opt.deadline_hours"), options=cmd("discord.opt.options"),
                         language=cmd("discord.opt.language"))
    @app_commands.describe(name=cmd("discord.opt.league_name.desc"), game=cmd("discord.opt.game.desc"),
                           rounds=cmd("discord.opt.rounds.desc"), table=cmd("discord.opt.table.desc"),
                           deadline=cmd("discord.opt.league_deadline.desc"), options=cmd("discord.opt.options.desc"),
                           language=cmd("discord.opt.language.desc"))
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.choices(language=[choice("discord.choice.lang_en", "en"), choice("discord.choice.lang_ja", "ja")])
    @app_commands.checks.has_permissions(manage_guild=True)
    async def open(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], game: str,
                   rounds: app_commands.Range[int, 1, 20], table: Optional[app_commands.Range[int, 2, 6]] = None,
                   deadline: Optional[app_commands.Range[int, 1, 1440]] = None,
                   options: Optional[app_commands.Range[str, 1, 200]] = None,
                   language: Optional[app_commands.Choice[str]] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            channel = interaction.channel
            if not isinstance(channel, discord.TextChannel):  # its tables are threads of this channel
                raise UserError("discord.error.league_channel")
            public = language_for(language.value if language else (str(interaction.guild_locale or "") or lang))
            info = await self.bot.service.create_league(
                guild_id=str(interaction.guild_id), channel_id=str(channel.id), name=name, game=game,
                actor=actor_of(interaction), rounds=rounds, table_size=table,
                deadline_hours=float(deadline) if deadline else 72.0, options=parse_options(options),
                locale=public)
            card = await channel.send(**leagues.league_card(info).new_kwargs())
            await self.bot.service.set_league_card(info.league.id, str(card.id))
            return Reply(content="✅ " + t(lang, "discord.leagues.opened", name=info.league.name))

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.league_round"), description=cmd("discord.cmd.league_round.desc"))
    @app_commands.rename(league=cmd("discord.opt.league"))
    @app_commands.describe(league=cmd("discord.opt.league.desc"))
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def round(self, interaction: discord.Interaction, league: str) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            plan, opened = await leagues.open_round(self.bot, league_id_of(league), str(interaction.guild_id))
            return Reply(content="✅ " + t(lang, "discord.leagues.round_opened", name=plan.league.name,
                                          round=plan.round, count=opened))

        await answer(interaction, work(), slow=True)

    @app_commands.command(name=cmd("discord.cmd.rebuild"), description=cmd("discord.cmd.rebuild.desc"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def rebuild(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            rated = await self.bot.service.rebuild_ratings(str(interaction.guild_id))
            return Reply(content="✅ " + t(lang, "discord.league.rebuilt", count=rated))

        await answer(interaction, work(), slow=True)


@where.server_places
class Stats(commands.GroupCog, group_name=cmd("discord.cmd.stats"), group_description=cmd("discord.cmd.stats.desc")):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=cmd("discord.cmd.board"), description=cmd("discord.cmd.board.desc"))
    @app_commands.rename(game=cmd("discord.opt.game"))
    @app_commands.describe(game=cmd("discord.opt.stats_game.desc"))
    @app_commands.autocomplete(game=game_autocomplete)
    async def board(self, interaction: discord.Interaction, game: str) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            if game not in registry.names():
                raise SessionError("unknown_game", game=game, available=registry.names())
            board = await self.bot.service.leaderboard(str(interaction.guild_id), game)
            title = ui_base.get(game).title(lang)
            png, alt = await render_pool.current().call(draw_leaderboard, board.model_dump(mode="json"), title, lang)
            reply = Reply(content=None if board.lines else t(lang, "discord.stats.none_rated"))
            reply.attach("leaderboard.png", png, clip(alt, 1024))
            return reply

        await answer(interaction, work(), slow=True)

    @app_commands.command(name=cmd("discord.cmd.standings"), description=cmd("discord.cmd.standings.desc"))
    @app_commands.rename(league=cmd("discord.opt.league"))
    @app_commands.describe(league=cmd("discord.opt.league.desc"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def standings(self, interaction: discord.Interaction, league: str) -> None:
        async def work() -> Reply:
            found = await self.bot.service.league_standings(league_id_of(league), str(interaction.guild_id))
            return await leagues.standings_reply(found, lang_of(interaction))

        await answer(interaction, work(), slow=True)

    @app_commands.command(name=cmd("discord.cmd.profile"), description=cmd("discord.cmd.profile.desc"))
    @app_commands.rename(player=cmd("discord.opt.player"))
    @app_commands.describe(player=cmd("discord.opt.profile_player.desc"))
    async def profile(self, interaction: discord.Interaction, player: Optional[discord.User] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            who = player or interaction.user
            found = await self.bot.service.profile(str(interaction.guild_id), str(who.id))
            if found.name == found.user_id:  # never seated here: their name as Discord shows it
                found = found.model_copy(update={"name": who.display_name})
            return Reply(content=profile_text(found, lang))

        await answer(interaction, work())


async def setup(bot: "RailyardBot") -> None:
    await bot.add_cog(League(bot))
    await bot.add_cog(Stats(bot))
