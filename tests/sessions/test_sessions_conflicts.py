"""A transaction PostgreSQL rolls back to settle a conflict (a deadlock, 40P01; a
serialization failure, 40001) is run again, from its reads, instead of reaching the player as
"something went wrong, nothing was changed, try again". The deadlock is a real one, between
the move's transaction and another connection that takes the same two rows the other way
round."""
from __future__ import annotations

import asyncio
import logging
import time

import asyncpg
import pytest

from bot.sessions import SessionService
from bot.store import Conflict, open_store, retry_conflicts
from bot.store.retry import CONFLICT_ATTEMPTS
from tests.support import actor_for, make_service
from tests.support.backends import Backend

POSTGRES_ONLY = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


async def _blocked_by(watcher: asyncpg.Connection, pid: int, timeout: float = 30.0) -> list[int]:
    """The server processes waiting for a lock that `pid` holds (polled until there is one)."""
    deadline = time.monotonic() + timeout
    while True:
        rows = await watcher.fetch("SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", pid)
        if rows:
            return [r["pid"] for r in rows]
        assert time.monotonic() < deadline, "the move never waited for the other connection's lock"
        await asyncio.sleep(0.02)


@POSTGRES_ONLY
async def test_a_move_that_loses_a_deadlock_is_run_again_and_lands(
        backend: Backend, service: SessionService, start_game, clock, caplog) -> None:
    start = await start_game()
    game_id = start.game_id
    # The server looks for a deadlock once, in a connection that has waited deadlock_timeout
    # for a lock, and rolls that connection's transaction back. The move's connection looks
    # after 3 s (time enough for the other connection to close the circle, however busy the
    # machine), the other one only after a minute: the move is the one rolled back.
    mover = await open_store(f"{backend.url}&deadlock_timeout=3s")
    mover_service = make_service(mover, clock)
    other = await asyncpg.connect(backend.url)
    watcher = await asyncpg.connect(backend.url)
    try:
        await other.execute("SET deadlock_timeout = '60s'")
        deadlocks_before = await watcher.fetchval(
            "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        held = other.transaction()
        await held.start()
        # 1. the other connection takes the game's reminder timer ...
        await other.execute("SELECT 1 FROM timers WHERE game_id = $1 AND kind = 'reminder' FOR UPDATE", game_id)
        # 2. ... the move locks the game (its version guard) and waits for that timer ...
        with caplog.at_level(logging.INFO, logger="railyard.store"):
            move = asyncio.create_task(mover_service.act("chan-1", actor_for(start, 0), "open red"))
            await _blocked_by(watcher, other.get_server_pid())
            # 3. ... and the other connection now wants the game: each waits for the other
            taken = asyncio.create_task(other.execute("UPDATE games SET updated_at = updated_at WHERE id = $1",
                                                      game_id))
            await asyncio.wait_for(taken, 30)  # PostgreSQL rolled the move back, which let it through
            await held.commit()
            out = await asyncio.wait_for(move, 30)
        deadlocks_after = await watcher.fetchval(
            "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
    finally:
        await other.close()
        await watcher.close()
        await mover.close()

    assert deadlocks_after > deadlocks_before  # a real deadlock, settled by the server
    assert any("40P01" in r.getMessage() and "running it again" in r.getMessage() for r in caplog.records), \
        caplog.text
    # the move landed once, as if nothing had happened
    assert (out.seat, out.notation, out.version) == (0, "open red", start.version + 1)
    history = await service.history("chan-1")
    assert [(h.seat, h.notation) for h in history] == [(0, "open red")]
    assert (await service.status("chan-1")).version == start.version + 1


async def test_conflicts_are_retried_a_bounded_number_of_times() -> None:
    calls = 0

    async def conflicting(times: int):
        nonlocal calls
        calls += 1
        if calls <= times:
            raise Conflict("40P01 deadlock detected")
        return "done"

    assert await retry_conflicts(lambda: conflicting(CONFLICT_ATTEMPTS - 1)) == "done"
    assert calls == CONFLICT_ATTEMPTS
    calls = 0
    with pytest.raises(Conflict):
        await retry_conflicts(lambda: conflicting(CONFLICT_ATTEMPTS))
    assert calls == CONFLICT_ATTEMPTS
