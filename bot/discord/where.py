"""Where Railyard's commands may be installed and used, and what the bot may do there.

Discord knows two ways to install an app (`integration_types`: GUILD_INSTALL 0, to a server;
USER_INSTALL 1, to a person's account, which shows its commands to that person everywhere) and
three places to use a command (`contexts`: GUILD 0, BOT_DM 1 the DM with the bot, PRIVATE_CHANNEL
2 group DMs and other DMs). Each command declares both here, and `railyard sync` registers them:

    /game, /move, /orders   both installs   a server channel or thread, a group DM
    /me, /away              both installs   anywhere, the DM with the bot too
    /league, /stats         server install  a server channel or thread

An interaction says where it came from (`context`) and for which installs it was authorized
(`authorizing_integration_owners`). Where the bot is no member - a group DM, or a server that
only some of its members installed Railyard to - Discord lets the app answer interactions and
nothing else: no message of its own in the channel (403 Missing Access), no edit of an old one,
no reading the channel's messages, and at most 5 follow-ups to each interaction. A game opened
there is a "replies" game (GameSettings.delivery): its board goes out as the answer to each
interaction that changed it, and reminders and the result go to its players by DM.
"""
from __future__ import annotations

from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.sessions.settings import CHANNEL, REPLIES

T = TypeVar("T")


def game_places(f: T) -> T:
    """A game's commands: where a game can live - a server channel or thread (the app installed
    there or only to the person), or a group DM of friends (the app installed to the person)."""
    f = app_commands.allowed_installs(guilds=True, users=True)(f)
    return app_commands.allowed_contexts(guilds=True, dms=False, private_channels=True)(f)


def personal_places(f: T) -> T:
    """A person's own settings for all their games: anywhere, the DM with the bot included."""
    f = app_commands.allowed_installs(guilds=True, users=True)(f)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(f)


def server_places(f: T) -> T:
    """A server's own records (its ratings, its leaderboards): only where the app is installed
    to that server, by someone who may manage it."""
    f = app_commands.allowed_installs(guilds=True, users=False)(f)
    return app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(f)


def in_server(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None


def server_installed(interaction: discord.Interaction) -> bool:
    """Whether the app is installed to the server the interaction came from (the bot is a
    member there and may post by itself)."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def delivery_of(interaction: discord.Interaction) -> str:
    """How a game opened by this interaction reaches its players: REPLIES where the bot is no
    member (a group DM, a server it is not installed to), CHANNEL elsewhere."""
    if in_server(interaction):
        return CHANNEL if server_installed(interaction) else REPLIES
    return REPLIES if interaction.context.private_channel else CHANNEL


def refusal(command: Any, interaction: discord.Interaction) -> str | None:
    """The catalog key of the reason `command` may not be used where `interaction` came from
    (None: it may). Discord shows no command outside the places it was registered for; this
    is the bot's own check, for a registration older than the running release."""
    root = (command.root_parent or command) if isinstance(command, app_commands.Command) else command
    contexts = getattr(root, "allowed_contexts", None)
    installs = getattr(root, "allowed_installs", None)
    server_only = bool(getattr(root, "guild_only", False)) or (
        contexts is not None and contexts.guild and not contexts.dm_channel and not contexts.private_channel)
    if in_server(interaction):
        if not server_installed(interaction) and installs is not None and not installs.user:
            return "discord.error.server_install"
        return None
    if contexts is None and not server_only:
        return None
    if interaction.context.private_channel:
        allowed = contexts is not None and contexts.private_channel
    else:  # the DM with the bot (or a payload from before interactions said where)
        allowed = contexts is not None and contexts.dm_channel
    if allowed:
        return None
    return "discord.error.guild_only" if server_only else "discord.error.game_place"


__all__ = ["delivery_of", "game_places", "in_server", "personal_places", "refusal", "server_installed",
           "server_places"]
