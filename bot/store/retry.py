"""Running a transaction again when the database rolled it back to settle a conflict.

PostgreSQL breaks a deadlock between two transactions by rolling one of them back (40P01),
and may refuse to commit one that cannot be put in a serial order with the others (40001).
Either way nothing was written and the answer is to run the transaction again (the store
raises `Conflict`). Only a whole transaction can be run again, from its reads: its writes
were decided on what it read, and what it read may have changed since. So the retry wraps
the unit that opens the transaction and reads inside it (or reads before it under the
version guard): a store shortcut, one method of the sessions service, one delivery step.

The retries are bounded, with a pause that doubles and a random part, so that two
transactions that met once do not meet again at the same moment. SQLite needs none of this:
its write transactions take the whole file at BEGIN IMMEDIATE and wait their turn there
(busy timeout), so they never deadlock half-way.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import random
from typing import Awaitable, Callable, ParamSpec, TypeVar

from bot.store.errors import Conflict

log = logging.getLogger("railyard.store")

T = TypeVar("T")
P = ParamSpec("P")

CONFLICT_ATTEMPTS = 5  # tries in all; the fifth conflict in a row is raised
CONFLICT_PAUSE = 0.02  # seconds before the second try; doubled before each further one


def conflict_pause(attempt: int, rng: Callable[[], float] = random.random) -> float:
    """Seconds to wait after the `attempt`-th conflict in a row (1, 2, ...): 20 ms, 40 ms,
    80 ms ... each somewhere between half and one and a half times that."""
    return CONFLICT_PAUSE * (2 ** (attempt - 1)) * (0.5 + rng())


async def retry_conflicts(run: Callable[[], Awaitable[T]], *, attempts: int = CONFLICT_ATTEMPTS,
                          what: str = "a transaction") -> T:
    """`await run()`, run again (up to `attempts` tries in all) whenever it raises Conflict.
    `run` must open its transaction itself and read what it decides on inside it, or under a
    guard that fails when that changed (the games' version)."""
    for attempt in range(1, attempts + 1):
        try:
            return await run()
        except Conflict as exc:
            if attempt >= attempts:
                raise
            pause = conflict_pause(attempt)
            log.info("%s: %s; running it again in %.0f ms (try %d of %d)", what, exc.reason, pause * 1000,
                     attempt + 1, attempts)
            await asyncio.sleep(pause)
    raise AssertionError("unreachable")


def retries_conflicts(method: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """A coroutine function run again whole when the database settles a conflict by rolling
    its transaction back (see `retry_conflicts`). For a function whose only lasting effects
    are in the one write transaction it opens (reads before it are checked by the version
    guard, or re-read on the next try)."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        return await retry_conflicts(lambda: method(*args, **kwargs), what=method.__qualname__)

    return wrapper
