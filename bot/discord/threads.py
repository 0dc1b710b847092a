"""The threads the bot opens for games in a server's text channel: a game's own thread
(`/game new thread:True`), a rematch's new thread, a league table's.

Each is a public thread, kept unarchived for THREAD_ARCHIVE_MINUTES of quiet (a game waits days
between moves), with the people who asked for it added so that it shows in their channel list.
"""
from __future__ import annotations

import logging
from typing import Any, Sequence

import discord

from bot.discord.refusals import UserError
from bot.discord.text import THREAD_ARCHIVE_MINUTES, clip

log = logging.getLogger("railyard.discord.threads")

THREAD_NAME_MAX = 100  # resources/channel, Start Thread without Message: name


async def open_thread(channel: Any, name: str, members: Sequence[discord.abc.Snowflake] = ()) -> discord.Thread:
    """A new public thread of `channel` named `name`, with `members` added. UserError when the
    channel holds no threads (only a text channel does), before anything is made."""
    if not isinstance(channel, discord.TextChannel):
        raise UserError("discord.error.thread_here")
    thread = await channel.create_thread(name=clip(name, THREAD_NAME_MAX), type=discord.ChannelType.public_thread,
                                         auto_archive_duration=THREAD_ARCHIVE_MINUTES)
    await add_members(thread, members)
    return thread


async def add_members(thread: discord.Thread, members: Sequence[discord.abc.Snowflake]) -> None:
    """Add each person to the thread; one who cannot be added still sees it in the channel."""
    for member in members:
        try:
            await thread.add_user(member)
        except discord.HTTPException:
            log.info("could not add %s to thread %s", member.id, thread.id)
