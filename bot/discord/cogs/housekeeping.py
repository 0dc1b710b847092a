"""Housekeeping, once an hour: lobbies idle for RAILYARD_LOBBY_EXPIRY_DAYS are closed (their
channel is told), and closed games' live boards are dropped once their last post is out
(bot/sessions/retention.py says what is kept and why). Several processes may sweep at once:
each lobby closes under the version guard, once. Tests call `sweep.coro(cog)` directly."""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.sessions.retention import SWEEP_BATCH

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

log = logging.getLogger("railyard.discord.housekeeping")

# Seconds between two batches of a sweep. A batch is a write transaction (on SQLite every move
# waits for it), and after an upgrade, or a long stop, a sweep may have tens of thousands of
# closed games' logs to pack: without a pause it would take the store batch after batch and
# every move would queue behind one. With it the sweep takes a small share of the store (a
# batch is a few milliseconds per game) and drains such a backlog within the hour.
BATCH_PAUSE = 0.1


class Housekeeping(commands.Cog):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if self.bot.background:
            self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    @tasks.loop(hours=1)
    async def sweep(self) -> None:
        service, settings = self.bot.service, self.bot.settings
        closed = boards = logs = 0
        try:
            while True:
                batch = await service.expire_lobbies(settings.lobby_expiry_days)
                closed += len(batch)
                if len(batch) < SWEEP_BATCH:
                    break
                await asyncio.sleep(BATCH_PAUSE)
            keep = settings.outbox_keep_hours * 3600.0
            while removed := await service.forget_live_boards(keep):
                boards += removed
                await asyncio.sleep(BATCH_PAUSE)
            while packed := await service.archive_logs(keep):
                logs += packed
                await asyncio.sleep(BATCH_PAUSE)
        except Exception:  # noqa: BLE001 - the loop must keep running
            log.exception("housekeeping failed")
        if closed:
            self.bot.outbox.wake()  # the lobbies' channels are told
        if closed or boards or logs:
            log.info("housekeeping: %d idle lobbies closed; of closed games, %d live boards dropped and %d action"
                     " logs packed", closed, boards, logs)

    @sweep.before_loop
    async def before_sweep(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: "RailyardBot") -> None:
    await bot.add_cog(Housekeeping(bot))
