"""Leagues on Discord (bot/sessions/leagues.py): the sign-up card with its Join / Leave buttons,
opening a round (a thread per table in the league's channel, each with its game started), and
the standings posted after each round.

The card is public and in the league's language; it is redrawn in place at each sign-up. A
round's threads are made here, between the service planning the round's tables and opening
each one as a game: a table whose thread could not be made stays planned, and the next
`/league round` opens it."""
from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import ids
from bot.discord.host import Host
from bot.discord.replies import Reply
from bot.discord.text import CONTENT_MAX, clip, join_lines, t
from bot.discord.threads import add_members, open_thread
from bot.discord.ui import base as ui_base
from bot.discord.ui.components import button, make_view
from bot.sessions.leagues import LeagueInfo, RoundPlan
from bot.sessions.standings import Standings
from render import pool as render_pool
from render.community import draw_standings

log = logging.getLogger(__name__)

JOIN, LEAVE = ids.LEAGUE_VERBS  # the card's buttons
NAMES_SHOWN = 40  # players listed on the card (the count is always right)


def league_card(info: LeagueInfo) -> Reply:
    """The league's public card: its game, rounds, tables, deadline and players; Join / Leave
    while it takes sign-ups."""
    league, lang = info.league, info.league.locale
    look = ui_base.get(league.game)
    names = [name for _, name in info.players]
    shown = ", ".join(names[:NAMES_SHOWN]) + (" …" if len(names) > NAMES_SHOWN else "")
    stage = t(lang, f"discord.leagues.stage.{league.status}", round=league.round, rounds=league.rounds)
    embed = discord.Embed(
        title=clip(t(lang, "discord.leagues.card_title", name=league.name), 256),
        description=clip(join_lines([
            t(lang, "discord.leagues.card_line", game=look.title(lang), rounds=league.rounds,
              size=league.table_size, hours=f"{league.deadline_hours:g}"),
            t(lang, "discord.leagues.forfeit_rule"),
            stage,
        ], 4096), 4096),
        colour=look.colour)
    embed.add_field(name=clip(t(lang, "discord.leagues.players", count=len(names)), 256),
                    value=clip(shown or t(lang, "discord.leagues.nobody"), 1024), inline=False)
    reply = Reply(embeds=[embed])
    if league.status == "signup":
        reply.view = make_view([[
            button(league.id, 0, JOIN, label=t(lang, "discord.leagues.join"), style=discord.ButtonStyle.success),
            button(league.id, 0, LEAVE, label=t(lang, "discord.leagues.leave")),
        ]])
    else:
        reply.view = make_view([])
    return reply


async def redraw_card(bot: Host, channel: Any, league_id: int, guild_id: str) -> None:
    """The league's card as it stands (sign-ups closed once a round is planned); a card
    deleted meanwhile is no reason to hold the round up."""
    info = await bot.service.league(league_id, guild_id)
    if info.league.card_message_id is None:
        return
    try:
        await channel.get_partial_message(int(info.league.card_message_id)).edit(**league_card(info).edit_kwargs())
    except discord.HTTPException as exc:
        log.info("could not redraw the card of league %s: %s", league_id, exc)


def table_name(plan: RoundPlan, table_no: int) -> str:
    lang = plan.league.locale
    return clip(t(lang, "discord.leagues.thread", name=plan.league.name, round=plan.round, table=table_no), 100)


async def open_round(bot: Host, league_id: int, guild_id: str) -> tuple[RoundPlan, int]:
    """Plan the league's next round (or find the tables of this one still to open) and open
    each table in a new thread of the league's channel; returns the plan and how many tables
    this call opened."""
    plan = await bot.service.plan_round(league_id, guild_id)
    channel: Any = bot.get_channel(int(plan.league.channel_id)) or await bot.fetch_channel(int(plan.league.channel_id))
    await redraw_card(bot, channel, league_id, guild_id)
    opened = 0
    for table in plan.tables:
        thread = await open_thread(channel, table_name(plan, table.table_no))
        outcome = await bot.service.open_table(league_id, plan.round, table.table_no, str(thread.id))
        if outcome is None:  # opened meanwhile by another call: this thread stays empty
            await thread.delete()
            continue
        opened += 1
        bot.after_commit(outcome)
        await add_members(thread, [discord.Object(int(user_id)) for user_id in table.players])
    return plan, opened


async def standings_reply(standings: Standings, lang: str, *, head: str | None = None) -> Reply:
    """The standings image (drawn by a render worker), with `head` as the message's text."""
    title = ui_base.get(standings.game).title(lang)
    png, alt = await render_pool.current().call(draw_standings, standings.model_dump(mode="json"), title, lang)
    reply = Reply(content=head)
    reply.attach("standings.png", png, clip(alt, 1024))
    return reply


async def round_over_post(payload: dict[str, Any]) -> Reply:
    """The post after a league's round: the standings, and what comes next."""
    standings = Standings.model_validate(payload["standings"])
    lang = payload.get("locale") or "en"
    if payload.get("last"):
        leaders = [line.name for line in standings.lines if line.rank == 1]
        head = t(lang, "discord.leagues.final", name=standings.name,
                 winners=t(lang, "discord.delivery.comma").join(leaders) or "—")
    else:
        head = t(lang, "discord.leagues.round_over", name=standings.name, round=payload.get("round"),
                 rounds=standings.rounds)
    reply = await standings_reply(standings, lang, head=clip(head, CONTENT_MAX))
    reply.allowed_mentions = discord.AllowedMentions.none()
    return reply

