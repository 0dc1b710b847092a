"""`railyard run` and `railyard sync`: start the bot, or register its slash commands.

Both read the settings from the .env file given (bot.config) and answer every problem an
operator can fix — no token, a token Discord refuses, a database that cannot be opened —
with one clear line on stderr and exit code 2 (1 for failures on Discord's side), never a
traceback. The token is never printed or logged.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

import aiohttp
import discord
from discord import app_commands

from bot.config import ConfigError, Settings, load_settings

log = logging.getLogger("railyard.discord.launcher")

BAD_TOKEN = ("Discord refused the token (401 Unauthorized): check DISCORD_TOKEN in {env} — copy it again "
             "from the developer portal (Bot → Reset Token).")


def _fail(message: str, code: int = 2) -> int:
    print(f"railyard: {message}", file=sys.stderr)
    return code


def _settings(args: argparse.Namespace) -> tuple[Settings, str]:
    env = Path(getattr(args, "env", None) or ".env")
    settings = load_settings(env)
    return settings, settings.require_token()


def setup_logging(level: str) -> None:
    discord.utils.setup_logging(level=getattr(logging, level, logging.INFO), root=True)


def main_run(args: argparse.Namespace) -> int:
    """Start the bot and run until stopped (Ctrl+C or SIGTERM)."""
    try:
        settings, token = _settings(args)
    except ConfigError as exc:
        return _fail(str(exc))
    setup_logging(settings.log_level)
    try:
        return asyncio.run(_run(settings, token, Path(getattr(args, "env", None) or ".env")))
    except KeyboardInterrupt:
        return 130


async def _run(settings: Settings, token: str, env: Path) -> int:
    from bot.discord.bot import RailyardBot
    from bot.store import StoreError

    bot = RailyardBot(settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread, or not supported here: Ctrl+C still works
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        return _fail(BAD_TOKEN.format(env=env))
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused an intent the bot asked for; Railyard needs no privileged intents.", 1)
    except StoreError as exc:
        return _fail(f"cannot open the database {settings.database_url}: {exc}")
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound, discord.DiscordServerError) as exc:
        return _fail(f"cannot reach Discord: {exc}", 1)
    return 0


def main_sync(args: argparse.Namespace) -> int:
    """Register the slash commands: globally, or with --dev only in RAILYARD_DEV_GUILD_ID."""
    try:
        settings, token = _settings(args)
    except ConfigError as exc:
        return _fail(str(exc))
    dev = bool(getattr(args, "dev", False))
    if dev and not settings.dev_guild_id:
        return _fail("`railyard sync --dev` needs RAILYARD_DEV_GUILD_ID in .env (the id of your test server).")
    setup_logging(settings.log_level)
    try:
        return asyncio.run(_sync(settings, token, dev, Path(getattr(args, "env", None) or ".env")))
    except KeyboardInterrupt:
        return 130


async def _sync(settings: Settings, token: str, dev: bool, env: Path) -> int:
    from bot.discord.bot import RailyardBot

    bot = RailyardBot(settings, commands_only=True)
    try:
        async with bot:
            await bot.login(token)
            synced = await bot.sync_commands(settings.dev_guild_id if dev else None)
    except discord.LoginFailure:
        return _fail(BAD_TOKEN.format(env=env))
    except app_commands.CommandSyncFailure as exc:
        return _fail(f"Discord refused the commands: {exc}", 1)
    except (aiohttp.ClientError, OSError, discord.HTTPException) as exc:
        return _fail(f"cannot reach Discord: {exc}", 1)
    where = f"in server {settings.dev_guild_id}" if dev else "globally (may take up to an hour to appear)"
    print(f"Synced {len(synced)} command(s) {where}: {', '.join('/' + c.name for c in synced)}")
    return 0
