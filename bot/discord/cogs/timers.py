"""The timer loop: reminders, deadlines, answers that lapse and bots left waiting, once a minute
(timers live in the database, so they survive restarts). Reminders and the moves of deadlines
and lapses are outbox rows; the dispatcher posts them (DM or channel mention, see
bot.discord.outbox). Tests call `tick.coro(cog)` directly with a clock they move by hand.

Every bot process on a database runs this loop. A sweep claims the timers it fires for the
claim lease (RAILYARD_LEASE_SECONDS, see bot/sessions/timers.py), so each timer fires in
one process; a timer whose process died is due again for the others when the lease runs out.
The loop runs at least once a lease (once a minute unless the lease is shorter), so such a
timer waits about a lease longer, not a lease and then up to a minute more.

Bots move in the process that made the change they answer (`after_commit`), which holds the
game's 'bots' timer while it moves them. If it dies first, the sweep of a live process takes
the timer over once the lease has run out and moves them (`due_bots`): a game never waits on
its bots for a process to restart, and the games a restarted process finds waiting are
those same timers."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Awaitable, Callable, TypeVar

from discord.ext import commands, tasks

from bot.store import CLAIM_LEASE

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

log = logging.getLogger("railyard.discord.timers")
T = TypeVar("T")

SWEEP_SECONDS = 60.0  # the loop's period when the lease is no shorter


class Timers(commands.Cog):
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot
        settings = getattr(bot, "settings", None)
        self.lease = float(getattr(settings, "lease_seconds", None) or CLAIM_LEASE)

    async def cog_load(self) -> None:
        if self.lease < SWEEP_SECONDS:
            self.tick.change_interval(seconds=self.lease)
        if self.bot.background:
            self.tick.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()

    @tasks.loop(minutes=1)
    async def tick(self) -> None:
        """One sweep: due reminders, passed deadlines, answers that lapsed, bots nobody is moving, and
        the DMs people get by themselves (return from away, daily digest)."""
        bot = self.bot
        reminders = await self._sweep(bot.service.due_reminders)
        outcomes = await self._sweep(bot.service.run_deadlines)
        outcomes += await self._sweep(bot.service.run_lapses)
        for outcome in outcomes:
            bot.after_commit(outcome)
        waiting = await self._sweep(bot.service.due_bots)
        for game_id in waiting:
            bot.run_bots_soon(game_id)
        # each person's own DMs: the list at the end of their away time, their daily digest
        personal = await self._sweep(bot.service.due_returns) + await self._sweep(bot.service.due_digests)
        if reminders or outcomes or waiting or personal:
            log.info("timers: %d reminder(s), %d deadline or lapse move(s), bots taken over in %d game(s),"
                     " %d personal DM(s)", len(reminders), len(outcomes), len(waiting), len(personal))
            bot.outbox.wake()

    async def _sweep(self, due: Callable[..., Awaitable[list[T]]]) -> list[T]:
        """One kind of due work, claimed with the lease; a failure is logged and the loop goes on."""
        try:
            return await due(lease=self.lease)
        except Exception:  # noqa: BLE001 - the loop must keep running
            log.exception("%s failed", due.__name__)
            return []

    @tick.before_loop
    async def before_tick(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: "RailyardBot") -> None:
    await bot.add_cog(Timers(bot))
