"""The one error handler: every failure of a command, autocomplete-free interaction, button
or select ends here and is answered ephemerally in the user's language.

* SessionError / IllegalAction (the service and the rules refused) → their catalog message.
* A stale click (the board moved on since the message was drawn, or the message belongs to
  an earlier game) → "the board changed" and the current board.
* UserError (the adapter refused, e.g. a malformed option) → its catalog message.
* Discord's own check failures (permissions, DMs) → a catalog message.
* Anything else → logged with who/where/what, and the user gets an apology.
"""
from __future__ import annotations

import logging
import discord
from discord import app_commands

from bot.discord.posts import status_reply
from bot.discord.refusals import StaleClick, UserError
from bot.discord.replies import Reply, send_new
from bot.discord.text import lang_of, t
from bot.sessions import SessionError
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
    lang = lang_of(interaction)
    note = "🔄 " + t(lang, "discord.error.board_changed")
    try:
        status = await interaction.client.service.status(str(interaction.channel_id))  # type: ignore[attr-defined]
    except SessionError:
        return Reply(content="🔄 " + t(lang, "discord.error.game_ended"))
    if ended and status.info.status not in ("lobby", "active"):
        note = "🔄 " + t(lang, "discord.error.game_ended")
    return await status_reply(status, lang, note=note)


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
        await send_new(interaction, reply)
    except Exception:  # noqa: BLE001 - the last line of defence must not raise
        log.exception("could not tell the user about an error in %s (%r)", _where(interaction), error)


__all__ = ["StaleClick", "UserError", "report_error", "stale_reply"]
