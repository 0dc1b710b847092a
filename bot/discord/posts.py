"""What Railyard's messages look like: turn posts, the final post, status, lobby.

All builders return a `Reply` (content, embeds, PNG files, view). Images are rendered off
the event loop: in the bot's render pool (render/pool.py: worker processes, each game's
images always in the same one) when it has workers, else in a thread. A renderer failure is
logged and the message goes out without its image: a drawing bug must never hold a game's
posts back.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Sequence

import discord

from bot.discord import chooser, ids, picking
from bot.discord.replies import Picture, Reply
from bot.discord.text import (
    CONTENT_MAX,
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_VALUE_MAX,
    clip,
    event_text,
    fit_embeds,
    join_lines,
    t,
)
from bot.discord.ui import base as ui_base
from bot.discord.ui.components import GameSelect, Row, button, make_view
from bot.sessions import GameInfo, PublicMenu, StatusInfo
from bot.sessions.models import LocalClock, SeatPace, WaitingGame
from bot.sessions.posting import GamePost
from bot.sessions.settings import REPLIES
from bot.web.links import replay_url, spectator_url
from games import registry
from games.core import Result
from render import pool as render_pool
from render.kit.ended import abandoned, is_abandoned

log = logging.getLogger("railyard.discord.posts")

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _draw(game: str, kind: str, view: Any, names: list[str], lang: str) -> Picture:
    """The picture drawn in this process (a thread of it)."""
    return Picture(*render_pool.draw_picture(game, kind, view, names, lang))


async def render_picture(game: str, kind: str, view: Any, names: Sequence[str], lang: str, *,
                         game_id: int | None = None) -> Picture | None:
    """`kind` is board / hand / final: the image with its alt text, drawn off the event loop
    (in the render pool's worker for `game_id` when the bot has workers, else in a thread).
    None (logged) if the renderer fails."""
    pool = render_pool.current()
    try:
        if pool.in_processes:
            return Picture(*await pool.draw(game, kind, view, list(names), lang, route=game_id))
        return await asyncio.to_thread(_draw, game, kind, view, list(names), lang)
    except Exception:  # noqa: BLE001 - a drawing bug must not stop the post
        log.exception("rendering the %s of a %s game failed", kind, game)
        return None


def attach(reply: Reply, name: str, picture: Picture | None) -> str | None:
    """Put the picture on the reply as `name`; the name, or None when there is no picture."""
    if picture is None:
        return None
    reply.attach(name, picture.data, picture.description)
    return name


def mentions(user_ids: Sequence[str]) -> str:
    return " ".join(f"<@{u}>" for u in dict.fromkeys(user_ids) if str(u).isdigit())


def jump_url(guild_id: str | None, channel_id: str) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def waiting_line(game: WaitingGame, lang: str, *, in_dm: bool = False) -> str:
    """One game waiting on a person, as /game mine, the digest and the return DM list it: the
    game, its channel (a link in a DM, where a channel mention may not resolve), since when it
    waits, what it asks of them."""
    since = f"<t:{int(game.since)}:R>" if game.since else "—"
    title = ui_base.get(game.game).title(lang)
    if in_dm:  # a link without its preview, last on the line
        line = t(lang, "discord.mine.line_dm", game=title, link=jump_url(game.guild_id, game.channel_id),
                 since=since, game_id=game.game_id)
    else:
        line = t(lang, "discord.mine.line", game=title, channel=f"<#{game.channel_id}>", since=since,
                 game_id=game.game_id)
    if game.asks is not None:
        line += "\n  ↳ " + event_text(lang, game.asks, game.names)
    return line


def clock_lines(clocks: Sequence[LocalClock], names: Sequence[str], lang: str) -> list[str]:
    """Each waited-on person's time of day where they are (those who set a time zone), under a
    board post (as of the post) and in /game status: for a game played across time zones, and
    why someone in their quiet hours was named without a ping."""
    return [t(lang, "discord.status.asleep" if clock.asleep else "discord.status.local_time",
              {"seat": clock.seat, "time": clock.time}, names) for clock in clocks]


def pace_lines(pace: Sequence[SeatPace], names: Sequence[str], lang: str) -> list[str]:
    """Each seat's time bank (counting down in the reader's client while it runs) and who is
    away until when, under a board post and in /game status."""
    lines = []
    banks = [p for p in pace if p.bank_left is not None]
    if banks:
        parts = []
        for p in banks:
            left = bank_words(p.bank_left or 0.0, lang)
            if p.runs_out is not None:
                parts.append(t(lang, "discord.pace.bank_running", {"seat": p.seat, "left": left,
                                                                   "ends": f"<t:{int(p.runs_out)}:R>"}, names))
            else:
                parts.append(t(lang, "discord.pace.bank", {"seat": p.seat, "left": left}, names))
        lines.append("⏳ " + t(lang, "discord.delivery.comma").join(parts))
    for p in pace:
        if p.away_until is not None:
            lines.append("🏖️ " + t(lang, "discord.pace.away", {"seat": p.seat, "until": f"<t:{int(p.away_until)}:f>"},
                                   names))
    return lines


def bank_words(seconds: float, lang: str) -> str:
    """Time left in a bank: "2d 5h", "5h 20m", "40m" (ja: 2日5時間, 5時間20分, 40分)."""
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return t(lang, "discord.pace.days_hours", days=days, hours=hours)
    if hours:
        return t(lang, "discord.pace.hours_minutes", hours=hours, minutes=mins)
    return t(lang, "discord.pace.minutes", minutes=mins)


# ------------------------------------------------------------------------------ embeds
def status_embed(ui: ui_base.GameUI, view: Any, names: Sequence[str], lang: str, *,
                 game_id: int, version: int, image: str | None) -> discord.Embed:
    description, fields = ui.summary(view, names, lang)
    if is_abandoned(view):  # the summary is the rules' picture of a game under way: whose turn
        description = t(lang, "discord.status.abandoned")
    embed = discord.Embed(title=clip(ui.title(lang), 256), colour=ui.colour,
                          description=clip(description, EMBED_DESCRIPTION_MAX) or None)
    for name, value in fields[:25]:
        embed.add_field(name=clip(name, 256), value=clip(value, EMBED_FIELD_VALUE_MAX), inline=True)
    if image:
        embed.set_image(url=f"attachment://{image}")
    embed.set_footer(text=t(lang, "discord.footer", game_id=game_id, version=version))
    return embed


def result_embeds(ui: ui_base.GameUI, result: Result, names: Sequence[str], lang: str, *,
                  game_id: int, chart: str | None, board: str | None) -> list[discord.Embed]:
    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    ranking = [f"{MEDALS.get(p.rank, f'{p.rank}.')} **{name(p.seat)}** — "
               f"{t(lang, 'discord.result.points', points=p.total)}" for p in result.players]
    top = discord.Embed(title=clip(t(lang, "discord.result.title", game=ui.title(lang)), 256),
                        colour=discord.Colour.gold(),
                        description=join_lines(ranking, EMBED_DESCRIPTION_MAX))
    for p in result.players[:25]:
        totals = p.by_category()
        lines = [f"{t(lang, f'{result.label_prefix}.category.{c}')}: **{totals.get(c, 0):+d}**"
                 for c in result.categories]
        details = [f"· {line.points:+d} {t(lang, line.key, line.params, names)}"
                   for line in p.lines if line.key]
        value = join_lines(lines + details, EMBED_FIELD_VALUE_MAX)
        top.add_field(name=clip(f"{p.rank}. {name(p.seat)} ({p.total})", 256), value=value, inline=True)
    if chart:
        top.set_image(url=f"attachment://{chart}")
    top.set_footer(text=t(lang, "discord.footer_final", game_id=game_id))
    embeds = [top]
    if board:
        final_board = discord.Embed(title=clip(t(lang, "discord.result.board"), 256), colour=ui.colour)
        final_board.set_image(url=f"attachment://{board}")
        embeds.append(final_board)
    return fit_embeds(embeds)


# ------------------------------------------------------------------------------ posts
def web_links(post: GamePost, lang: str, table_base: str | None) -> list[discord.ui.Button]:
    """Under a board post, the link to the game's public web table; under the final post, to
    its replay. Only where its host opened the table to spectators and the bot serves one
    (`table_base`, the web table's public address): what anyone may watch, never a hand."""
    if not post.public_table or table_base is None:
        return []
    if post.finished:
        return [discord.ui.Button(style=discord.ButtonStyle.link, label=t(lang, "web.link.replay"), emoji="🎞️",
                                  url=replay_url(table_base, post.game_id))]
    return [discord.ui.Button(style=discord.ButtonStyle.link, label=t(lang, "web.link.watch"), emoji="🌐",
                              url=spectator_url(table_base, post.game_id))]


async def game_post(post: GamePost, *, events: Sequence[Any] | None = None,
                    draw_board: bool = True, has_picture: bool = True,
                    timelapse: tuple[str, Picture] | None = None, table_base: str | None = None) -> Reply:
    """The public message of a game post (start / move / undo / kick): the game's live board
    as that change leaves it. `events` (default: the post's own) are the lines the message
    tells; without `draw_board` the reply carries no picture (an edit of the live message
    keeps the one it was posted with, if it has one: `has_picture`). The final post carries
    the final board, the game's final image (chart and details) and `timelapse` (file name,
    animation) when one was made; without `draw_board`, only its words (nothing is drawn).
    `table_base`: the web table's address, when the bot serves one (see web_links)."""
    game_name = post.game
    lang = post.locale or "en"
    names = post.names
    ui = ui_base.get(game_name)
    game = registry.get(game_name)
    view = ui.load_view(game, post.view)
    lines = [event_text(lang, e, names) for e in (post.events if events is None else events)]
    finished = post.finished
    reply = Reply()
    if finished:
        result = post.result or view.result
        board = chart = None
        if draw_board:
            board = attach(reply, "board.png", await render_picture(game_name, "board", view, names, lang,
                                                                    game_id=post.game_id))
            chart = attach(reply, "final.png", await render_picture(game_name, "final", view, names, lang,
                                                                    game_id=post.game_id))
        if timelapse is not None:
            attach(reply, timelapse[0], timelapse[1])
        lines.append("🏁 " + t(lang, "discord.result.announce"))
        if result is not None:
            reply.embeds = result_embeds(ui, result, names, lang, game_id=post.game_id,
                                         chart=chart, board=board)
        reply.content = join_lines(lines, CONTENT_MAX)
        # the same players (those who press it), options and settings; a new seed, seats rotated
        rematch = [button(post.game_id, post.version, "rematch", label=t(lang, "discord.rematch.button"),
                          emoji="🔁", style=discord.ButtonStyle.primary)]
        if post.rematch_thread:
            rematch.append(button(post.game_id, post.version, "rematch", ids.REMATCH_IN_THREAD,
                                  label=t(lang, "discord.rematch.thread_button"), emoji="🧵"))
        reply.view = make_view([rematch + web_links(post, lang, table_base)])
        return reply
    lines += clock_lines(post.clocks, names, lang)
    lines += pace_lines(post.pace, names, lang)
    waiting_ping = mentions(post.mention_user_ids)
    if waiting_ping:
        lines.append(f"➡️ {waiting_ping} {ui.waiting_hint(view, lang)}")
    board = None
    if view is not None and draw_board:
        board = attach(reply, "board.png", await render_picture(game_name, "board", view, names, lang,
                                                                game_id=post.game_id))
    if view is not None:
        # an edit keeps the message's picture, which the embed still shows
        shown = "board.png" if board or (not draw_board and has_picture) else None
        reply.embeds = fit_embeds([status_embed(ui, view, names, lang, game_id=post.game_id,
                                                version=post.version, image=shown)])
    # The ping goes first so it is never cut off; the event lines follow in order, and when
    # they do not all fit, the most recent ones are kept ("…" stands for the older ones).
    head = [lines.pop()] if waiting_ping else []
    reply.content = join_lines([*head, *_most_recent(lines, CONTENT_MAX - len("".join(head)) - 4)],
                               CONTENT_MAX) or None
    reply.view = make_view([*turn_rows(ui, post.game_id, post.version, post.menu, lang, view),
                            web_links(post, lang, table_base)])
    return reply


def _most_recent(lines: list[str], budget: int) -> list[str]:
    """The newest lines that fit in `budget` characters, in order, after "…" if any were left out."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > budget - 2:
            return ["…", *reversed(kept)] if kept else [line]
        kept.append(line)
        size += len(line) + 1
    return list(reversed(kept))


def turn_rows(ui: ui_base.GameUI, game_id: int, version: int, menu: PublicMenu | None, lang: str,
              view: Any = None) -> list[Row]:
    """Under a turn post: the menu's public part (bot/discord/chooser.py; place options as
    the buttons of their parts of the map, bot/discord/picking.py) and, in a game that offers
    one, the button showing a player their own part ("Show my hand"), beside the last row of
    buttons when it has room."""
    on_map = None
    if menu is not None and menu.options and view is not None and not is_abandoned(view):
        on_map = picking.public_rows(ui.name, game_id, version, chooser.check_for(menu.key), view, menu.options,
                                     ui, lang)
    rows = chooser.public_rows(game_id, version, menu, ui, lang, on_map=on_map)
    own = ui.own_button()
    if own is None:
        return rows
    words, emoji = own
    hand = button(game_id, version, "hand", label=t(lang, words), emoji=emoji)
    last = rows[-1] if rows else []
    if last and len(last) < 5 and not any(isinstance(i, GameSelect) for i in last):
        return [*rows[:-1], [*last, hand]]
    return [*rows, [hand]]


async def status_reply(status: StatusInfo, lang: str, *, note: str | None = None) -> Reply:
    """The channel's game as one player asks for it (ephemeral): lobby, board or result."""
    info = status.info
    ui = ui_base.get(info.game)
    lines = [note] if note else []
    if info.status == "lobby" or status.view is None:
        if info.status == "abandoned":  # a lobby closed before its game started
            lines.append(t(lang, "discord.lobby.closed"))
            return Reply(content="\n".join(lines))
        reply = lobby_reply(info, lang)
        reply.content = "\n".join(lines) or None
        return reply
    view = status.view
    names = status.names
    reply = Reply()
    if status.result is not None or info.status == "finished":
        board = attach(reply, "board.png", await render_picture(info.game, "board", view, names, lang,
                                                                game_id=info.game_id))
        chart = None
        if status.result is not None:
            chart = attach(reply, "final.png", await render_picture(info.game, "final", view, names, lang,
                                                                    game_id=info.game_id))
            reply.embeds = result_embeds(ui, status.result, names, lang, game_id=info.game_id,
                                         chart=chart, board=board)
        lines.append(t(lang, "discord.status.finished"))
        reply.content = "\n".join(lines)
        return reply
    if info.status == "abandoned":
        lines.append(t(lang, "discord.status.abandoned"))
        # its last view still names whose turn it was: the image must say it was abandoned
        view = abandoned(view)
    elif status.waiting:
        lines.append(t(lang, "discord.status.waiting", {"seats": status.waiting}, names))
        lines += clock_lines(status.clocks, names, lang)
        lines += pace_lines(status.pace, names, lang)
    board = attach(reply, "board.png", await render_picture(info.game, "board", view, names, lang,
                                                            game_id=info.game_id))
    reply.embeds = fit_embeds([status_embed(ui, view, names, lang, game_id=info.game_id,
                                            version=status.version, image=board)])
    reply.content = "\n".join(lines) or None
    if info.status == "active":
        reply.view = make_view(turn_rows(ui, info.game_id, status.version, status.menu, lang, status.view))
    return reply


# ------------------------------------------------------------------------------ lobby
def lobby_reply(info: GameInfo, lang: str, *, state: str = "open") -> Reply:
    """The lobby message. `state`: open (with buttons), started, closed. The auto-start size
    is the one stored with the lobby; the buttons name only what they do (see ids)."""
    ui = ui_base.get(info.game)
    target = info.settings.autostart_players
    capacity = target or info.max_players
    embed = discord.Embed(title=clip("🚂 " + t(lang, "discord.lobby.title", game=ui.title(lang)), 256),
                          colour=ui.colour)
    if state == "started":
        embed.description = t(lang, "discord.lobby.started")
    elif state == "closed":
        embed.description = t(lang, "discord.lobby.closed")
    else:
        text = [t(lang, "discord.lobby.description", min=info.min_players, max=info.max_players)]
        if target:
            text.append(t(lang, "discord.lobby.autostart", count=target))
        if info.settings.delivery == REPLIES:  # what is different where the bot is no member
            text.append("📮 " + t(lang, "discord.lobby.replies"))
        embed.description = "\n".join(text)
    seats = []
    for seat in info.seats:
        mark = "🤖 " if seat.is_bot else ""
        host = " 👑" if seat.user_id and seat.user_id == info.host_user_id else ""
        seats.append(f"{seat.seat + 1}. {mark}{seat.name}{host}")
    embed.add_field(name=t(lang, "discord.lobby.players", count=len(info.seats), max=capacity),
                    value=join_lines(seats, EMBED_FIELD_VALUE_MAX) or "—", inline=False)
    if info.options:
        opts = ", ".join(f"{k}={v}" for k, v in info.options.items())
        embed.add_field(name=t(lang, "discord.lobby.options"), value=clip(opts, 1024), inline=False)
    embed.set_footer(text=t(lang, "discord.footer_lobby", game_id=info.game_id))
    reply = Reply(embeds=[embed])
    if state == "open":
        gid = info.game_id
        reply.view = make_view([[
            button(gid, 0, "join", label=t(lang, "discord.lobby.join"), emoji="✋",
                   style=discord.ButtonStyle.success),
            button(gid, 0, "leave", label=t(lang, "discord.lobby.leave"), emoji="🚪"),
            button(gid, 0, "bot", label=t(lang, "discord.lobby.add_bot"), emoji="🤖"),
            button(gid, 0, "start", label=t(lang, "discord.lobby.start"), emoji="▶️",
                   style=discord.ButtonStyle.primary),
        ]])
    return reply
