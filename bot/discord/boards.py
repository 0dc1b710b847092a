"""The board of a game that lives by its answers (GameSettings.delivery "replies").

Where the bot may not post by itself (a group DM, a server only some members installed the
app to: bot/discord/where.py) the outbox posts nothing in the channel. Instead, every
interaction that changes such a game - a move, the start, an undo, a kick - is answered as
usual (privately) and then followed by the board, public in the channel: the state after the
bots have moved, with the events since the change (the bots' moves included), whom it waits
on named without a ping, and the buttons to play on. A game that ended shows its result the
same way; its players also get it by DM (outbox_messages).
"""
from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.posts import game_post, status_reply
from bot.discord.replies import Reply, after_answer
from bot.discord.text import lang_of
from bot.sessions import Outcome, SessionError, StatusInfo
from bot.sessions.posting import GamePost
from bot.sessions.settings import REPLIES
from games.core import Event

log = logging.getLogger("railyard.discord.boards")

BOTS_WAIT = 30.0  # seconds the board waits for the bots' moves (a follow-up lasts 15 minutes)
NO_PINGS = discord.AllowedMentions.none()


def lives_by_replies(outcome: Outcome | None) -> bool:
    post = outcome.post if outcome is not None else None
    return isinstance(post, GamePost) and post.delivery == REPLIES


def board_follows(interaction: discord.Interaction, outcome: Outcome | None) -> None:
    """After a committed change of a game that lives by its answers: its board follows this
    interaction's answer. The events shown are the change's and those of the moves logged
    after it (the bots'); a change that logs no move (a kick) shows its own only."""
    if not lives_by_replies(outcome):
        return
    assert outcome is not None
    after = outcome.seq if outcome.seq is not None else (0 if outcome.kind == "start" else None)

    async def send() -> None:
        await send_board(interaction, outcome.game_id, list(outcome.public_events), after)

    after_answer(interaction, send)


async def board_follows_orders(interaction: discord.Interaction, game_id: int) -> None:
    """A standing order set on its player's turn moves at once, in the background: in a game
    that lives by its answers, the board after it follows the answer, with the moves logged
    from now on. Called before the order moves."""
    bot: Any = interaction.client
    moved = max((entry.seq for entry in await bot.service.history(str(interaction.channel_id))), default=0)

    async def send() -> None:
        await send_board(interaction, game_id, [], moved)

    after_answer(interaction, send)


async def send_board(interaction: discord.Interaction, game_id: int, events: list[Event],
                     after_seq: int | None) -> None:
    """The game's board as a public follow-up of `interaction`, once its bots have moved."""
    bot: Any = interaction.client
    channel_id = str(interaction.channel_id)
    await bot.bots_done(game_id, BOTS_WAIT)
    try:
        status = await bot.service.status(channel_id)
        if status.info.game_id != game_id:
            return  # another game is the channel's now (a rematch opened meanwhile)
        if after_seq is not None:
            events += [e for entry in await bot.service.history(channel_id) if entry.seq > after_seq
                       and not entry.undone for e in entry.events]
        reply = await board_of(status, events)
    except SessionError as exc:  # the game was closed meanwhile: nothing to show
        log.info("no board for game %s after %s: %s", game_id, interaction.id, exc)
        return
    try:
        await interaction.followup.send(**reply.new_kwargs())
    except discord.HTTPException as exc:
        # past Discord's limits for this interaction (its follow-ups, its 15 minutes): the
        # next interaction shows the board
        log.warning("the board of game %s could not follow interaction %s: %s", game_id, interaction.id, exc)


async def board_of(status: StatusInfo, events: list[Event]) -> Reply:
    """The public board of a game as it stands: a turn post (or the final post) telling
    `events`, whom it waits on named without pinging them."""
    info = status.info
    post = GamePost(
        game_id=info.game_id, channel_id=info.channel_id, guild_id=info.guild_id, game=info.game,
        version=status.version, kind="move", locale=info.locale, names=status.names, events=events,
        waiting=status.waiting, mention_user_ids=status.waiting_user_ids,
        view=status.view.model_dump(mode="json") if status.view is not None else None, menu=status.menu,
        finished=info.status == "finished", result=status.result, pace=status.pace, delivery=REPLIES,
    )
    reply = await game_post(post)
    reply.allowed_mentions = NO_PINGS
    return reply


async def board_beside(interaction: discord.Interaction, note: str) -> Reply | None:
    """For a refused click in a game that lives by its answers: the game's board as it stands,
    privately, under `note` (why nothing was played). The boards in such a channel stay as
    they were posted, so the one clicked may be old. None in any other game."""
    service: Any = interaction.client.service  # type: ignore[attr-defined]
    try:
        status = await service.status(str(interaction.channel_id))
    except SessionError:
        return None
    if status.info.settings.delivery != REPLIES:
        return None
    reply = await status_reply(status, lang_of(interaction), note=note)
    reply.allowed_mentions = NO_PINGS
    return reply


__all__ = ["board_beside", "board_follows", "board_follows_orders", "board_of", "lives_by_replies", "send_board"]
