"""Retention: what a long-running deployment lets go of, so the database grows with the games
played and not with everything that ever happened around them.

* A finished game keeps its row (snapshot, result), its seats and its action log forever:
  that is the game, what `/game export` and `railyard replay` need. Its timers and standing
  orders go when it ends (sessions/core.py, host_tools.py); its delivered outbox rows after
  the keep time (`OutboxDispatcher.prune`); its live board once it is closed and its last
  post is out (`forget_live_boards` here); and after the keep time its action log is packed
  into one compressed row (`archive_logs`), which reads back the same.
* A lobby that never starts is closed (abandoned) after `lobby_expiry_days` without a join,
  leave or change, with a line in its channel saying so.

Several processes may run these at once: each lobby is closed under the version guard, so
a lobby that someone joins or starts in that moment is left alone, and a lobby is closed once.
"""
from __future__ import annotations

from bot.sessions.commit import Commit
from bot.sessions.core import Core, log
from bot.store import StaleVersion, retries_conflicts
from games.core import Event

DAY = 24 * 3600.0
SWEEP_BATCH = 100  # lobbies closed per call; the caller calls again while it returns a full batch


class Retention:
    """Idle lobbies closed, closed games' leftovers let go of."""

    def __init__(self, core: Core, commit: Commit) -> None:
        self.core = core
        self.commit = commit

    async def expire_lobbies(self, idle_days: float, limit: int = SWEEP_BATCH) -> list[int]:
        """Close the lobbies idle for `idle_days`; return their ids."""
        now = self.core.clock()
        before = now - idle_days * DAY
        async with self.core.store.read() as tx:
            candidates = await tx.idle_lobbies(before, limit)
        closed: list[int] = []
        for game_id in candidates:
            try:
                if not await self._expire_lobby(game_id, before, idle_days, now):
                    continue  # started, joined or closed since the list was read
            except StaleVersion:
                continue  # another process closed it, or someone joined just then
            closed.append(game_id)
        if closed:
            log.info("closed %d lobbies idle for %s days: %s", len(closed), idle_days, closed)
        return closed

    @retries_conflicts
    async def _expire_lobby(self, game_id: int, before: float, idle_days: float, now: float) -> bool:
        async with self.core.store.write() as tx:
            row = await tx.get_game(game_id)
            if row is None or row.status != "lobby" or row.updated_at >= before:
                return False
            seats = await tx.seats(game_id)
            version = await tx.update_game(game_id, row.version, now, status="abandoned")
            await tx.delete_timers(game_id)
            await self.commit.post_abandoned(tx, row, seats, version, Event(
                key="session.lobby_expired", params={"days": round(idle_days)}), now)
        return True

    @retries_conflicts
    async def archive_logs(self, keep_seconds: float) -> int:
        """Pack the action logs of games closed more than `keep_seconds` ago, one row per game
        (one batch; returns how many games). The log reads the same afterwards: `/game log`,
        `/game export` and replays see no difference; a finished Ticket to Ride game takes a
        fraction of the space (`railyard bench --sizes`)."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            return await tx.archive_actions(now - keep_seconds, now)

    @retries_conflicts
    async def forget_live_boards(self, keep_seconds: float) -> int:
        """Delete the live boards of games closed more than `keep_seconds` ago (one batch)."""
        async with self.core.store.write() as tx:
            return await tx.forget_live_boards(self.core.clock() - keep_seconds)
