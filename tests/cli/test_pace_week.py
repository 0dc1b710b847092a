"""`python -m tools.pace_week`, the simulated week of play the README quotes: small, so that it
runs with the fast tier, and checked against what it reports."""
from __future__ import annotations

import asyncio

from tools.pace_week import report, simulate


def test_a_simulated_week_pings_nobody_at_night_and_the_digest_pings_at_most_once_a_day() -> None:
    days, people = 2, 6
    per_game = asyncio.run(simulate(games=5, people=people, days=days, seed=3, digest=False))
    digest = asyncio.run(simulate(games=5, people=people, days=days, seed=3, digest=True))
    assert per_game.moves > 20 and digest.moves > 20  # people played: the week is not empty
    assert sum(per_game.night.values()) == 0 and sum(digest.night.values()) == 0
    # one digest DM a day at most (a day's first digest may come before anyone moved)
    assert all(count <= days + 1 for count in digest.pings.values())
    assert sum(digest.pings.values()) < sum(per_game.pings.values())
    line = report("daily digest", digest, people, days)
    assert line.startswith("daily digest: pings per person per day: mean ") and "in their quiet hours 0" in line
