"""One real Railyard bot process pointed at a loopback Discord living in another process.

For tests and benches only (never for a real deployment): the multi-process tests start
several of these against one ``FakeDiscord`` in the test process, on one database, each
serving some shards, and drive them through the fake as users would.

    python -m tools.loopback.bot_process --api-base http://127.0.0.1:PORT/api/v10 \\
        --gateway ws://127.0.0.1:PORT/gateway --token TOKEN --database sqlite:///path \\
        [--shard-ids 0,1 --shard-count 4] [--seed N] [--clock-offset SECONDS] [--sync-commands]
        [--lease-seconds SECONDS] [--bots-delay SECONDS]

It points discord.py at the fake (as ``FakeDiscord.patched()`` does, from the URLs), builds
the Settings, runs the real ``RailyardBot`` and, once every shard it serves is ready (and the
commands are synced, with ``--sync-commands``), prints one line on stdout::

    ready <pid> shards=<ids>

Then one line per interaction the bot receives (``interaction <id> guild=<guild id or
dm>``), so a test can tell which process got which interaction. Logs go to stderr. SIGTERM
(or SIGINT) closes the bot cleanly (exit 0); SIGKILL simply kills it, which is the point of
some tests. Exit 2 for bad arguments or settings, 1 when the fake refuses or drops it
(e.g. gateway close 4010 for a shard it does not accept).
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import logging
import os
import signal
import sys
import time
from typing import Callable, Sequence

import discord

from bot.config import ConfigError, Settings, load_settings
from tools.loopback.server import point_discord_at

log = logging.getLogger("railyard.loopback.process")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.loopback.bot_process", description=__doc__.split("\n\n")[0])
    parser.add_argument("--api-base", required=True,
                        help="the fake's REST root (fake.api_base; a bare http://host:port gets /api/v10)")
    parser.add_argument("--gateway", required=True, help="the fake's gateway websocket (fake.gateway_url)")
    parser.add_argument("--token", required=True)
    parser.add_argument("--database", required=True, help="DATABASE_URL: sqlite:///path or postgresql://...")
    parser.add_argument("--shard-ids", default=None, help="like 0,1 or 0-3 (needs --shard-count)")
    parser.add_argument("--shard-count", default=None, help="total shards across every process")
    parser.add_argument("--seed", type=int, default=None,
                        help="new games get the seeds N, N+1, ... (default: random seeds)")
    parser.add_argument("--clock-offset", type=float, default=0.0,
                        help="seconds added to the wall clock the bot's games and timers see")
    parser.add_argument("--sync-commands", action="store_true",
                        help="register the slash commands globally before saying ready")
    parser.add_argument("--dev-guild", type=int, default=None, help="sync the commands to this guild on start")
    parser.add_argument("--render-workers", type=int, default=0, help="RAILYARD_RENDER_WORKERS (0: threads)")
    parser.add_argument("--lease-seconds", default=None,
                        help="RAILYARD_LEASE_SECONDS: how long a claim on an outbox row or timer lasts unrenewed")
    parser.add_argument("--bots-delay", type=float, default=0.0,
                        help="seconds this process waits before it moves a game's bots (as a slow bot would),"
                             " so that a test can kill it between a person's move and the bots' answer")
    parser.add_argument("--guild-ready-timeout", type=float, default=0.05,
                        help="seconds discord.py waits after a shard's last GUILD_CREATE")
    parser.add_argument("--log-level", default="INFO")
    return parser.parse_args(argv)


def api_base(url: str) -> str:
    url = url.rstrip("/")
    return url if "/api/v" in url else url + "/api/v10"


def build_settings(args: argparse.Namespace) -> Settings:
    """The Settings `railyard run` would build from these values in its environment, checked
    the same way (a ConfigError, one line per problem); no .env file is read."""
    values = {
        "DISCORD_TOKEN": args.token,
        "DATABASE_URL": args.database,
        "RAILYARD_LOG_LEVEL": args.log_level,
        "RAILYARD_RENDER_WORKERS": str(args.render_workers),
        "RAILYARD_SHARD_IDS": args.shard_ids or "",
        "RAILYARD_SHARD_COUNT": args.shard_count or "",
        "RAILYARD_DEV_GUILD_ID": "" if args.dev_guild is None else str(args.dev_guild),
    }
    if args.lease_seconds is not None:
        values["RAILYARD_LEASE_SECONDS"] = str(args.lease_seconds)
    return load_settings(None, environ=values)


def seed_source(seed: int | None) -> Callable[[], int] | None:
    if seed is None:
        return None
    counter = itertools.count(seed)
    return lambda: next(counter)


def say(line: str) -> None:
    """One line on stdout, at once: the test reads them as they come."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.discord.bot import RailyardBot

    offset = args.clock_offset
    bot = RailyardBot(
        settings,
        clock=(lambda: time.time() + offset) if offset else time.time,
        new_seed=seed_source(args.seed),
        identify_interval=0.0,  # the loopback does not limit IDENTIFYs
        guild_ready_timeout=args.guild_ready_timeout,
        render_workers=settings.render_workers,
    )

    async def on_interaction(interaction: discord.Interaction) -> None:
        say(f"interaction {interaction.id} guild={interaction.guild_id or 'dm'}")

    bot.add_listener(on_interaction, "on_interaction")
    if args.bots_delay > 0:
        run_bots = bot._run_bots

        async def slow_bots(game_id: int) -> None:
            await asyncio.sleep(args.bots_delay)
            await run_bots(game_id)

        bot._run_bots = slow_bots  # type: ignore[method-assign]
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    with point_discord_at(api_base(args.api_base), args.gateway):
        async with bot:
            await bot.login(settings.require_token())
            connect = asyncio.create_task(bot.connect(), name="bot-process-connect")
            ready = asyncio.create_task(bot.wait_until_ready(), name="bot-process-ready")
            await asyncio.wait({connect, ready}, return_when=asyncio.FIRST_COMPLETED)
            if not ready.done():
                ready.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await ready
                await connect  # raises why it stopped; a clean stop before ready is a SIGTERM
                return 0
            if args.sync_commands:
                await bot.tree.sync()
            shards = ",".join(str(s) for s in bot.served_shards)
            log.info("process %d ready on %s", os.getpid(), bot.shards_text())
            say(f"ready {os.getpid()} shards={shards}")
            await connect
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = build_settings(args)
    except ConfigError as exc:
        print(f"bot_process: {exc}", file=sys.stderr)
        return 2
    # plain lines (no colours): the log usually ends up in a file a failing test prints
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, settings.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(run(args, settings))
    except discord.ConnectionClosed as exc:
        print(f"bot_process: the gateway closed the connection ({exc.code}): {exc.reason}", file=sys.stderr)
        return 1
    except (discord.LoginFailure, discord.HTTPException, OSError) as exc:
        print(f"bot_process: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
