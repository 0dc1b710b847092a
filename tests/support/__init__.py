"""Test-only helpers: the toy game (tests/support/toy_game.py) and small utilities shared by
the store and sessions tests."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.sessions import Actor, Outcome, SessionService


def _actors() -> list["Actor"]:
    from bot.sessions import Actor

    return [Actor("u-alice", "Alice"), Actor("u-bob", "Bob"), Actor("u-carol", "Carol"),
            Actor("u-dave", "Dave"), Actor("u-erin", "Erin")]


ALICE, BOB, CAROL, DAVE, ERIN = _actors()
PLAYERS = [ALICE, BOB, CAROL, DAVE]


def make_service(store: Any, clock: Any, first_seed: int = 1000) -> "SessionService":
    """A service whose games get the seeds first_seed, first_seed + 1, ... (reproducible)."""
    from bot.sessions import SessionService

    seeds = iter(range(first_seed, first_seed + 100_000))
    return SessionService(store, clock=clock, new_seed=lambda: next(seeds))


def actor_for(outcome: "Outcome", seat: int) -> "Actor":
    """The test actor who sits in `seat` (seats are shuffled at start)."""
    user_id = outcome.seat_user_ids[seat]
    return next(a for a in [*PLAYERS, ERIN] if a.user_id == user_id)


async def open_all(service: "SessionService", channel: str, outcome: "Outcome",
                   color: str = "red") -> "Outcome":
    """Play the simultaneous opening choice for every human seat."""
    for seat in list(outcome.waiting):
        if outcome.seat_user_ids[seat] is not None:
            outcome = await service.act(channel, actor_for(outcome, seat), f"open {color}")
    return outcome


def dump_db(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, read with a separate plain connection."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name")]
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}
    finally:
        conn.close()
