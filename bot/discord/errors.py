"""The one error handler: every failure of a command, autocomplete-free interaction, button
or select ends here and is answered ephemerally in the user's language.

* SessionError / IllegalAction (the service and the rules refused) → their catalog message.
* A stale click (the board moved on since the message was drawn, or the message belongs to
  an earlier game) → briefly, that nothing was played and why, and a small way back into the
  clicker's menu if the game waits on them; a game that is over shows its last board.
* UserError (the adapter refused, e.g. a malformed option) → its catalog message.
* Discord's own check failures (permissions, DMs) → a catalog message.
* Anything else → logged with who/where/what, and the user gets an apology.

A click refused in a game that lives by its answers (where the bot is no member, see
bot/discord/boards.py) also shows the game's board as it stands: the boards in that channel
stay as they were posted.
"""
from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord import chooser
from bot.discord.boards import board_beside
from bot.discord.posts import status_reply
from bot.discord.refusals import StaleClick, UserError
from bot.discord.replies import Reply, send_new
from bot.discord.text import CONTENT_MAX, event_text, join_lines, lang_of, t
from bot.discord.ui import base as ui_base
from bot.discord.ui.components import make_view
from bot.sessions import PrivateView, SessionError
from games.core import IllegalAction

log = logging.getLogger("railyard.discord.errors")


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError)) \
            and getattr(error, "__cause__", None) is not None:
        error = error.__cause__  # type: ignore[assignment]
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    return error


def _where(interaction: discord.Interaction) -> str:
    what = "?"
    if interaction.command is not None:
        what = f"/{interaction.command.qualified_name}"
    elif isinstance(interaction.data, dict) and interaction.data.get("custom_id"):
        what = f"component {interaction.data['custom_id']!r}"
    return (f"{what} by user {interaction.user.id if interaction.user else '?'} in guild "
            f"{interaction.guild_id} channel {interaction.channel_id}")


async def _names(interaction: discord.Interaction) -> list[str] | None:
    try:
        status = await interaction.client.service.status(str(interaction.channel_id))  # type: ignore[attr-defined]
        return status.names
    except Exception:  # noqa: BLE001 - names are a nicety here
        return None


async def stale_reply(interaction: discord.Interaction, ended: bool = False) -> Reply:
    """The answer to a click drawn for another board than the channel's now (`ended`: for
    another game). Never the whole board again: the clicker has the live board in front of
    them; only a game that is over shows its last board, which the channel no longer does."""
    lang = lang_of(interaction)
    service = interaction.client.service  # type: ignore[attr-defined]
    channel_id = str(interaction.channel_id)
    try:
        status = await service.status(channel_id)
    except SessionError:
        return Reply(content="🔄 " + t(lang, "discord.error.game_ended"))
    if status.info.status not in ("lobby", "active"):
        return await status_reply(status, lang, note="🔄 " + t(lang, "discord.error.game_ended"))
    lines = ["🔄 " + t(lang, "discord.error.game_ended" if ended else "discord.stale.changed")]
    reply = Reply()
    pv = await _waited_on(service, channel_id, str(interaction.user.id))
    if pv is not None and pv.decision is not None:
        ask = event_text(lang, pv.prompt, pv.names) if pv.prompt is not None else t(lang, "choice.step.move")
        lines.append("👉 " + ask)
        reply.view = make_view(chooser.small_rows(pv.game_id, pv.version, pv.decision, ui_base.get(pv.game),
                                                  lang, names=pv.names))
    elif status.waiting:
        lines.append(t(lang, "discord.status.waiting", {"seats": status.waiting}, status.names))
    reply.content = join_lines(lines, CONTENT_MAX)
    return reply


async def _waited_on(service: Any, channel_id: str, user_id: str) -> PrivateView | None:
    """The user's private view if the channel's game waits on them, else None."""
    try:
        pv = await service.private_view(channel_id, user_id)
    except SessionError:  # not a player, or the game ended meanwhile
        return None
    return pv if pv.active else None


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    error = _unwrap(error)
    lang = lang_of(interaction)
    try:
        if isinstance(error, StaleClick) or (isinstance(error, SessionError) and error.code == "stale_version"):
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            reply = await stale_reply(interaction, ended=isinstance(error, StaleClick) and error.ended)
        elif isinstance(error, (SessionError, IllegalAction)):
            reply = Reply(content="⚠️ " + t(lang, error.message_key, error.params, await _names(interaction)))
        elif isinstance(error, UserError):
            reply = Reply(content="⚠️ " + t(lang, error.key, error.params))
        elif isinstance(error, (app_commands.MissingPermissions, app_commands.BotMissingPermissions)):
            reply = Reply(content="⚠️ " + t(lang, "discord.error.missing_permission"))
        elif isinstance(error, app_commands.NoPrivateMessage):
            reply = Reply(content="⚠️ " + t(lang, "discord.error.guild_only"))
        elif isinstance(error, app_commands.CommandOnCooldown):
            reply = Reply(content="⚠️ " + t(lang, "discord.error.cooldown", seconds=round(error.retry_after)))
        elif isinstance(error, app_commands.CheckFailure):
            reply = Reply(content="⚠️ " + t(lang, "discord.error.not_allowed"))
        else:
            log.error("unexpected error in %s", _where(interaction), exc_info=error)
            reply = Reply(content="😓 " + t(lang, "discord.error.unexpected"))
        if interaction.type is discord.InteractionType.component and reply.content \
                and isinstance(error, (StaleClick, SessionError, IllegalAction)):
            reply = await board_beside(interaction, reply.content) or reply
        await send_new(interaction, reply)
    except Exception:  # noqa: BLE001 - the last line of defence must not raise
        log.exception("could not tell the user about an error in %s (%r)", _where(interaction), error)


__all__ = ["StaleClick", "UserError", "report_error", "stale_reply"]
