"""/game …: start a game, look at it, and manage it."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import where
from bot.discord.boards import board_follows
from bot.discord import forum as forum_posts
from bot.discord.errors import UserError
from bot.discord.play import actor_of, channel_key, hand_reply, log_reply
from bot.discord.posts import bank_words, lobby_reply, status_reply, waiting_line
from bot.discord.replies import Reply, answer
from bot.discord.text import CONTENT_MAX, OPTION_TEXT_MAX, choice, clip, cmd, event_text, join_lines, lang_of, t
from bot.discord.threads import open_thread
from bot.discord.ui import base as ui_base
from bot.sessions import GameSettings, QuietHours, SessionError
from bot.sessions.options import parse_options
from bot.sessions.clocks import parse_bank
from bot.sessions.settings import REPLIES
from games.core import Event
from bot.web.links import spectator_url
from games import registry
from games.core.i18n import language_for

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

log = logging.getLogger("railyard.discord.game")



def public_locale(interaction: discord.Interaction) -> str:
    """The language a new game's public posts default to: everyone in the channel reads them,
    so the server's preferred locale, not the host's own (that only without a server)."""
    guild_locale = getattr(interaction, "guild_locale", None)
    if interaction.guild_id is not None and guild_locale is not None:
        return str(guild_locale)
    return str(interaction.locale)


def parse_quiet_hours(text: str, tz: str | None, current: QuietHours | None) -> QuietHours | None:
    """"22-7" (or "22:00-07:00"), "off"; `tz` an IANA zone such as Asia/Tokyo."""
    raw = text.strip().lower()
    if raw in ("off", "none", "no", "なし", "オフ", "-"):
        return None
    parts = raw.replace("～", "-").replace("~", "-").replace("–", "-").split("-")
    try:
        start, end = (int(p.strip().split(":")[0]) for p in parts)
        return QuietHours(start_hour=start, end_hour=end, tz=tz or (current.tz if current else "UTC"))
    except (ValueError, TypeError):
        raise SessionError("bad_setting", setting="quiet_hours", value=text) from None


def settings_text(settings: GameSettings, dm: bool | None, lang: str, table_url: str | None = None) -> str:
    lines = [t(lang, "discord.settings.reminder", minutes=settings.reminder_minutes,
               hours=round(settings.reminder_minutes / 60, 1), backoff=settings.reminder_backoff)]
    if settings.deadline_hours:
        lines.append(t(lang, "discord.settings.deadline", hours=settings.deadline_hours,
                       action=t(lang, f"discord.settings.deadline_action.{settings.deadline_action}")))
    else:
        lines.append(t(lang, "discord.settings.no_deadline"))
    bank = settings.time_bank
    if bank is not None:
        lines.append(t(lang, "discord.settings.time_bank", start=bank_words(bank.start_hours * 3600, lang),
                       per_turn=bank_words(bank.per_turn_hours * 3600, lang), cap=bank_words(bank.cap, lang)))
    if settings.away_bot:
        lines.append(t(lang, "discord.settings.away_bot"))
    if settings.public_table and table_url is not None:
        lines.append(t(lang, "discord.settings.public_table", url=table_url))
    quiet = settings.quiet_hours
    if quiet is not None:
        lines.append(t(lang, "discord.settings.quiet", start=f"{quiet.start_hour:02d}:00",
                       end=f"{quiet.end_hour:02d}:00", tz=quiet.tz))
    else:
        lines.append(t(lang, "discord.settings.no_quiet"))
    if dm is not None:
        lines.append(t(lang, "discord.settings.dm_on" if dm else "discord.settings.dm_off"))
    return "\n".join(lines)


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    out = []
    for name in registry.names():
        title = ui_base.get(name).title(lang)
        if current.lower() in name.lower() or current.lower() in title.lower():
            out.append(app_commands.Choice(name=clip(title, OPTION_TEXT_MAX), value=name))
    return out[:25]


async def players_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The seat counts the game chosen in the `game` option takes (its min..max in the games
    registry); nothing before a known game is chosen. Any other number typed gets the clear
    error of /game new."""
    command = interaction.command
    param = command.get_parameter("game") if isinstance(command, app_commands.Command) else None
    name = getattr(interaction.namespace, param.display_name if param else "game", None)
    if not isinstance(name, str) or name not in registry.names():
        return []
    try:
        game = registry.get(name)
    except Exception:  # noqa: BLE001 - a game that cannot be loaded offers nothing
        log.exception("players autocomplete: game %s cannot be loaded", name)
        return []
    lang = lang_of(interaction)
    typed = str(current or "").strip()
    return [app_commands.Choice(name=clip(t(lang, "discord.players.choice", count=n), OPTION_TEXT_MAX), value=n)
            for n in range(game.min_players, game.max_players + 1) if str(n).startswith(typed)][:25]


@where.game_places
class Game(commands.GroupCog, group_name=cmd("discord.cmd.game"), group_description=cmd("discord.cmd.game.desc")):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot
        super().__init__()

    # ------------------------------------------------------------------ /game new
    @app_commands.command(name=cmd("discord.cmd.new"), description=cmd("discord.cmd.new.desc"))
    @app_commands.rename(game=cmd("discord.opt.game"), players=cmd("discord.opt.players"),
                         options=cmd("discord.opt.options"), thread=cmd("discord.opt.thread"),
                         thread_name=cmd("discord.opt.thread_name"), language=cmd("discord.opt.language"),
                         forum=cmd("discord.opt.forum"))
    @app_commands.describe(game=cmd("discord.opt.game.desc"), players=cmd("discord.opt.players.desc"),
                           options=cmd("discord.opt.options.desc"), thread=cmd("discord.opt.thread.desc"),
                           thread_name=cmd("discord.opt.thread_name.desc"),
                           language=cmd("discord.opt.language.desc"), forum=cmd("discord.opt.forum.desc"))
    @app_commands.autocomplete(game=game_autocomplete, players=players_autocomplete)
    @app_commands.choices(language=[choice("discord.choice.lang_en", "en"), choice("discord.choice.lang_ja", "ja")])
    async def new(self, interaction: discord.Interaction, game: str,
                  players: Optional[int] = None,
                  options: Optional[app_commands.Range[str, 1, 200]] = None,
                  thread: bool = False,
                  thread_name: Optional[app_commands.Range[str, 1, 100]] = None,
                  language: Optional[app_commands.Choice[str]] = None,
                  forum: Optional[discord.ForumChannel] = None) -> None:
        await answer(interaction, self._new(interaction, game, players, options, thread or bool(thread_name),
                                            thread_name, language.value if language else None, forum),
                     public=where.delivery_of(interaction) == REPLIES)

    async def _new(self, interaction: discord.Interaction, game_name: str, players: int | None,
                   options_text: str | None, thread: bool, thread_name: str | None,
                   language: str | None = None, forum: discord.ForumChannel | None = None) -> Reply:
        lang = lang_of(interaction)
        public_lang = language_for(language or public_locale(interaction))  # of what the channel sees
        service = self.bot.service
        if game_name not in registry.names():
            raise SessionError("unknown_game", game=game_name, available=registry.names())
        game = registry.get(game_name)
        if players is not None and not game.min_players <= players <= game.max_players:
            raise UserError("discord.error.players", min=game.min_players, max=game.max_players)
        options = parse_options(options_text)
        try:
            game.options_model.model_validate(options)
        except ValueError:
            key = next(iter(options), "options")
            raise SessionError("bad_option", option=key, value=str(options.get(key, ""))) from None
        channel: Any = interaction.channel
        delivery = where.delivery_of(interaction)
        if delivery == REPLIES:
            # the bot is no member here: the lobby is this answer, the board every move's
            if thread or forum is not None:
                raise UserError("discord.error.thread_replies")
            info = await service.create(game_name, str(interaction.channel_id),
                                        str(interaction.guild_id) if interaction.guild_id else None,
                                        actor_of(interaction), options, locale=public_lang,
                                        autostart_players=players, delivery=REPLIES)
            return lobby_reply(info, info.locale)
        if forum is None and isinstance(channel, discord.ForumChannel):
            forum = channel
        if forum is None and thread and isinstance(channel, discord.Thread) \
                and isinstance(channel.parent, discord.ForumChannel):
            forum = channel.parent  # a post holds no threads: a new thread there is a new post
        if forum is not None:
            return await self._new_post(interaction, forum, game_name, players, options, thread_name, public_lang)
        if thread and not isinstance(channel, discord.Thread):
            name = thread_name or t(public_lang, "discord.thread.default_name",
                                    game=ui_base.get(game_name).title(public_lang))
            channel = await open_thread(channel, name, [interaction.user])
        # (in a thread already, the game simply lives in that thread)
        actor = actor_of(interaction)
        info = await service.create(game_name, str(channel.id), str(interaction.guild_id), actor, options,
                                    locale=public_lang, autostart_players=players)
        lobby = lobby_reply(info, info.locale)
        try:
            await channel.send(**lobby.new_kwargs())
        except discord.HTTPException as exc:
            # a lobby nobody can see would only block the channel: close it again
            log.warning("cannot post the lobby of game %s in %s: %s", info.game_id, channel.id, exc)
            await service.abandon(str(channel.id), actor)
            raise UserError("discord.error.cannot_post") from None
        link = channel.mention if hasattr(channel, "mention") else ""
        return Reply(content="✅ " + t(lang, "discord.lobby.opened", where=link))

    async def _new_post(self, interaction: discord.Interaction, forum: discord.ForumChannel, game_name: str,
                        players: int | None, options: dict[str, Any], post_name: str | None,
                        public_lang: str) -> Reply:
        """/game new in a forum: the lobby as a new post of its own, tagged lobby (see
        bot/discord/forum.py); the host is told once, here, what the status tags need if the
        bot could not make them."""
        lang = lang_of(interaction)
        service = self.bot.service
        name = post_name or t(public_lang, "discord.thread.default_name", game=ui_base.get(game_name).title(public_lang))
        opened = await forum_posts.open_post(self.bot, forum, clip(name, 100), public_lang)
        post = opened.post
        actor = actor_of(interaction)
        try:
            info = await service.create(game_name, str(post.id), str(interaction.guild_id), actor, options,
                                        locale=public_lang, autostart_players=players, forum_id=str(forum.id))
        except Exception:
            await forum_posts.clear_post(opened)
            raise
        try:
            await opened.starter.edit(**lobby_reply(info, info.locale).edit_kwargs())
        except discord.HTTPException as exc:
            log.warning("cannot make the lobby of game %s in post %s: %s", info.game_id, post.id, exc)
            await service.abandon(str(post.id), actor)
            self.bot.outbox.wake()
            raise UserError("discord.error.cannot_post_forum", forum=forum.mention) from None
        try:
            await post.add_user(interaction.user)
        except discord.HTTPException:
            log.info("could not add %s to post %s", interaction.user.id, post.id)
        lines = ["✅ " + t(lang, "discord.lobby.opened", where=post.mention)]
        note = forum_posts.tags_note(opened.tags, forum, lang)
        if note:
            lines.append("🏷️ " + note)
        return Reply(content=join_lines(lines, CONTENT_MAX))

    # ------------------------------------------------------------------ looking
    @app_commands.command(name=cmd("discord.cmd.status"), description=cmd("discord.cmd.status.desc"))
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            status = await self.bot.service.status(channel_key(interaction))
            return await status_reply(status, lang_of(interaction))

        await answer(interaction, work(), slow=True)

    @app_commands.command(name=cmd("discord.cmd.hand"), description=cmd("discord.cmd.hand.desc"))
    async def hand(self, interaction: discord.Interaction) -> None:
        await answer(interaction, hand_reply(interaction), slow=True)

    @app_commands.command(name=cmd("discord.cmd.log"), description=cmd("discord.cmd.log.desc"))
    @app_commands.rename(page=cmd("discord.opt.page"))
    @app_commands.describe(page=cmd("discord.opt.page.desc"))
    async def log(self, interaction: discord.Interaction,
                  page: Optional[app_commands.Range[int, 1, 10000]] = None) -> None:
        await answer(interaction, log_reply(interaction, page))

    @app_commands.command(name=cmd("discord.cmd.rules"), description=cmd("discord.cmd.rules.desc"))
    @app_commands.rename(game=cmd("discord.opt.game"))
    @app_commands.describe(game=cmd("discord.opt.rules_game.desc"))
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: Optional[str] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            name = game
            if name is None:
                try:
                    name = (await self.bot.service.status(channel_key(interaction))).info.game
                except SessionError:
                    name = registry.names()[0]
            if name not in registry.names():
                raise SessionError("unknown_game", game=name, available=registry.names())
            ui = ui_base.get(name)
            embed = discord.Embed(title=clip("📖 " + ui.title(lang), 256), colour=ui.colour,
                                  description=clip(ui.rules(lang), 4096))
            return Reply(embeds=[embed])

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.mine"), description=cmd("discord.cmd.mine.desc"))
    async def mine(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            # every server's games, as the daily digest lists them
            games = await self.bot.service.games_waiting_on(str(interaction.user.id))
            if not games:
                return Reply(content=t(lang, "discord.mine.none_anywhere"))
            lines = [waiting_line(g, lang) for g in games]
            embed = discord.Embed(title=t(lang, "discord.mine.title", count=len(games)),
                                  description=join_lines(lines, 4000), colour=discord.Colour.blurple())
            return Reply(embeds=[embed])

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.follow"), description=cmd("discord.cmd.follow.desc"))
    @app_commands.rename(every=cmd("discord.opt.every"))
    @app_commands.describe(every=cmd("discord.opt.every.desc"))
    async def follow(self, interaction: discord.Interaction,
                     every: Optional[app_commands.Range[int, 1, 1000]] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            info = await self.bot.service.follow(channel_key(interaction), actor_of(interaction), every)
            title = ui_base.get(info.game).title(lang)
            if every:
                return Reply(content="👀 " + t(lang, "discord.follow.on_every", game=title, every=every))
            return Reply(content="👀 " + t(lang, "discord.follow.on", game=title))

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.unfollow"), description=cmd("discord.cmd.unfollow.desc"))
    async def unfollow(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            info = await self.bot.service.unfollow(channel_key(interaction), actor_of(interaction))
            return Reply(content=t(lang, "discord.follow.off", game=ui_base.get(info.game).title(lang)))

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.export"), description=cmd("discord.cmd.export.desc"))
    async def export(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            game_id, record = await self.bot.service.export(channel_key(interaction), actor_of(interaction))
            file = f"railyard-{record.game}-{game_id}.json"
            reply = Reply(content=t(lang, "discord.export.done", game_id=game_id, file=file,
                                    game=ui_base.get(record.game).title(lang), moves=len(record.moves)))
            reply.attach(file, record.model_dump_json(indent=1, exclude_none=True).encode("utf-8"))
            return reply

        await answer(interaction, work())

    # ------------------------------------------------------------------ changing
    @app_commands.command(name=cmd("discord.cmd.undo"), description=cmd("discord.cmd.undo.desc"))
    async def undo(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            outcome = await self.bot.service.undo(channel_key(interaction), actor_of(interaction))
            self.bot.after_commit(outcome)
            board_follows(interaction, outcome)
            return Reply(content="↩️ " + t(lang, "discord.undo.done", notation=outcome.notation or ""))

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.abandon"), description=cmd("discord.cmd.abandon.desc"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            channel_id = channel_key(interaction)
            try:
                was = (await self.bot.service.lobby(channel_id)).status
            except SessionError as exc:
                if exc.code != "no_game_here":
                    raise
                was = "active"  # a game too damaged to load: abandon still clears it
            info = await self.bot.service.abandon(channel_id, actor_of(interaction))
            self.bot.outbox.wake()
            if info.settings.delivery == REPLIES:  # nobody hears of it but by this answer
                name = interaction.user.display_name
                note = (t(info.locale, "discord.lobby.closed_by", name=name) if was == "lobby" else
                        event_text(info.locale, Event(key="session.abandoned", params={"by": name}), info.names))
                return Reply(content=clip("🛑 " + note, CONTENT_MAX))
            if was == "lobby" and interaction.channel is not None:
                note = t(info.locale, "discord.lobby.closed_by", name=interaction.user.display_name)
                await interaction.channel.send(content=clip("🛑 " + note, CONTENT_MAX))
            return Reply(content="🛑 " + t(lang, "discord.abandon.done"))

        await answer(interaction, work(), public=where.delivery_of(interaction) == REPLIES)

    @app_commands.command(name=cmd("discord.cmd.kick"), description=cmd("discord.cmd.kick.desc"))
    @app_commands.rename(player=cmd("discord.opt.player"))
    @app_commands.describe(player=cmd("discord.opt.player.desc"))
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            outcome = await self.bot.service.kick(channel_key(interaction), actor_of(interaction), str(player.id))
            if outcome.outbox_id is not None:
                self.bot.after_commit(outcome)
                board_follows(interaction, outcome)
            return Reply(content="👢 " + t(lang, "discord.kick.done", name=player.display_name))

        await answer(interaction, work())

    @app_commands.command(name=cmd("discord.cmd.settings"), description=cmd("discord.cmd.settings.desc"))
    @app_commands.rename(reminder_minutes=cmd("discord.opt.reminder_minutes"),
                         deadline_hours=cmd("discord.opt.deadline_hours"),
                         deadline_action=cmd("discord.opt.deadline_action"),
                         quiet_hours=cmd("discord.opt.quiet_hours"), timezone=cmd("discord.opt.timezone"),
                         dm_reminders=cmd("discord.opt.dm_reminders"), time_bank=cmd("discord.opt.time_bank"),
                         away_bot=cmd("discord.opt.away_bot"), public_table=cmd("discord.opt.public_table"))
    @app_commands.describe(reminder_minutes=cmd("discord.opt.reminder_minutes.desc"),
                           deadline_hours=cmd("discord.opt.deadline_hours.desc"),
                           deadline_action=cmd("discord.opt.deadline_action.desc"),
                           quiet_hours=cmd("discord.opt.quiet_hours.desc"),
                           timezone=cmd("discord.opt.timezone.desc"),
                           dm_reminders=cmd("discord.opt.dm_reminders.desc"),
                           time_bank=cmd("discord.opt.time_bank.desc"),
                           away_bot=cmd("discord.opt.away_bot.desc"),
                           public_table=cmd("discord.opt.public_table.desc"))
    @app_commands.choices(deadline_action=[choice("discord.choice.pass", "pass"), choice("discord.choice.bot", "bot"),
                                           choice("discord.choice.forfeit", "forfeit")])
    async def settings(self, interaction: discord.Interaction,
                       reminder_minutes: Optional[app_commands.Range[int, 10, 5760]] = None,
                       deadline_hours: Optional[app_commands.Range[float, 0, 1440]] = None,
                       deadline_action: Optional[app_commands.Choice[str]] = None,
                       quiet_hours: Optional[app_commands.Range[str, 1, 20]] = None,
                       timezone: Optional[app_commands.Range[str, 1, 64]] = None,
                       dm_reminders: Optional[bool] = None,
                       time_bank: Optional[app_commands.Range[str, 1, 32]] = None,
                       away_bot: Optional[bool] = None, public_table: Optional[bool] = None) -> None:
        async def work() -> Reply:
            lang = lang_of(interaction)
            service = self.bot.service
            channel_id = channel_key(interaction)
            dm: bool | None = None
            if dm_reminders is not None:
                prefs = await service.set_user_prefs(str(interaction.user.id), dm_reminders=dm_reminders)
                dm = prefs.dm_reminders
            changes: dict[str, Any] = {}
            if reminder_minutes is not None:
                changes["reminder_minutes"] = reminder_minutes
            if deadline_hours is not None:
                changes["deadline_hours"] = deadline_hours or None
            if deadline_action is not None:
                changes["deadline_action"] = deadline_action.value
            if time_bank is not None:
                bank = parse_bank(time_bank)
                changes["time_bank"] = bank.model_dump() if bank is not None else None
            if away_bot is not None:
                changes["away_bot"] = away_bot
            if public_table is not None:
                changes["public_table"] = public_table
            current: GameSettings | None = None
            if changes or quiet_hours is not None or timezone is not None or dm is None:
                try:
                    current = (await service.lobby(channel_id)).settings
                except SessionError:
                    if changes or quiet_hours is not None or timezone is not None:
                        raise
            if quiet_hours is not None:
                changes["quiet_hours"] = parse_quiet_hours(quiet_hours, timezone,
                                                           current.quiet_hours if current else None)
            elif timezone is not None:
                if current is None or current.quiet_hours is None:
                    raise UserError("discord.error.timezone_alone")
                q = current.quiet_hours
                changes["quiet_hours"] = {"start_hour": q.start_hour, "end_hour": q.end_hour, "tz": timezone}
            if isinstance(changes.get("quiet_hours"), QuietHours):
                changes["quiet_hours"] = changes["quiet_hours"].model_dump()
            if changes:
                current = await service.settings(channel_id, actor_of(interaction), **changes)
            if dm is None:
                dm = (await self.bot.service.user_prefs(str(interaction.user.id))).dm_reminders
            lines = []
            if changes or dm_reminders is not None:
                lines.append("✅ " + t(lang, "discord.settings.saved"))
            if current is not None:
                table = None
                if self.bot.web is not None and current.public_table:
                    table = spectator_url(self.bot.web.base_url, (await service.lobby(channel_id)).game_id)
                lines.append(settings_text(current, dm, lang, table))
            else:
                lines.append(t(lang, "discord.settings.dm_on" if dm else "discord.settings.dm_off"))
            return Reply(content=join_lines(lines, CONTENT_MAX))

        await answer(interaction, work())


async def setup(bot: "RailyardBot") -> None:
    await bot.add_cog(Game(bot))
