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

from bot.config import ConfigError, Settings, load_settings, parse_shard_ids

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


def with_shard_flags(settings: Settings, shard_ids: str | None, shard_count: str | None) -> Settings:
    """The settings with `railyard run --shard-ids/--shard-count` in place of
    RAILYARD_SHARD_IDS/RAILYARD_SHARD_COUNT (a flag not given keeps the setting), checked as
    the settings are: ids below the count, a count whenever ids are named. ConfigError
    (one line) names the flag or setting at fault."""
    if shard_ids is None and shard_count is None:
        return settings
    count, count_name = settings.shard_count, "RAILYARD_SHARD_COUNT"
    if shard_count is not None:
        text, count_name = shard_count.strip(), "--shard-count"
        if not text.isdigit() or int(text) < 1:
            raise ConfigError(f"--shard-count must be a whole number of shards (1 or more), not {text!r}")
        count = int(text)
    ids, ids_name = settings.shard_ids, "RAILYARD_SHARD_IDS"
    if shard_ids is not None:
        ids_name = "--shard-ids"
        try:
            ids = parse_shard_ids(shard_ids.strip())
        except ValueError as exc:
            raise ConfigError(f"--shard-ids {exc}: write ids like 0,1 or a range like 0-3") from None
    if ids is not None:
        if count is None:
            raise ConfigError(f"{ids_name} needs --shard-count (or RAILYARD_SHARD_COUNT): the total number "
                              "of shards across every process")
        if ids[-1] >= count:
            raise ConfigError(f"{ids_name} has shard {ids[-1]}, but with {count_name} {count} the ids run "
                              f"from 0 to {count - 1}")
    return settings.model_copy(update={"shard_ids": ids, "shard_count": count})


def setup_logging(level: str) -> None:
    discord.utils.setup_logging(level=getattr(logging, level, logging.INFO), root=True)


def main_run(args: argparse.Namespace) -> int:
    """Start the bot and run until stopped (Ctrl+C or SIGTERM)."""
    try:
        settings, token = _settings(args)
        settings = with_shard_flags(settings, getattr(args, "shard_ids", None), getattr(args, "shard_count", None))
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

    bot = RailyardBot(settings, render_workers=settings.render_workers)
    log.info("starting; this process serves %s", bot.shards_text())
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
    except discord.ConnectionClosed as exc:
        if exc.code == 4010:  # invalid shard: an id outside the count, or counts that disagree
            return _fail(f"Discord refused {bot.shards_text()} (4010 invalid shard): every process must use "
                         "the same RAILYARD_SHARD_COUNT, with its RAILYARD_SHARD_IDS below it.")
        if exc.code == 4011:  # sharding required
            return _fail("Discord requires more shards for this many servers (4011): leave RAILYARD_SHARD_COUNT "
                         "empty to use Discord's recommendation, or raise it.")
        return _fail(f"Discord closed the connection ({exc.code}): {exc.reason or 'no reason given'}", 1)
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
