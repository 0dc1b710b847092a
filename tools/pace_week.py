"""A week of asynchronous play, simulated: how often is each person pinged?

Twelve people in six time zones, each with quiet hours at night, sit in twenty games of the five
titles (three seats each), played through the sessions service on a SQLite file with a clock
moved ten minutes at a time. A person looks in now and then while awake (more often in their
evening) and plays, with the game's own bot's choice, every game waiting on them. The timer
sweeps run every step, as the bot's loop does. Counted per person and day: the turn posts that
mention them, the reminders that ping them (in the channel or by DM), and their personal DMs
(the daily digest). Run once with reminders per game and once with everyone on the digest:

    python -m tools.pace_week [--games 20] [--people 12] [--days 7] [--seed 3]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.sessions import SessionService
from bot.sessions.hours import asleep
from bot.sessions.models import Actor
from bot.store import open_store
from games import registry

STEP = 600.0  # ten minutes
DAY = 24 * 3600.0
TITLES = tuple(registry.names())  # the games take turns at the tables
ZONES = ("Asia/Tokyo", "America/New_York", "Europe/London", "America/Los_Angeles", "Europe/Berlin", "Australia/Sydney")


@dataclass
class Week:
    pings: Counter  # user id -> pings over the week
    night: Counter  # user id -> pings that reached them in their own quiet hours (none, by design)
    moves: int
    finished: int
    seconds: float


def _look_in_chance(local_hour: int) -> float:
    """How likely a person awake looks at their games in a ten-minute step: most in the
    evening, some at lunch, little at work."""
    if 18 <= local_hour <= 22:
        return 0.12
    if 12 <= local_hour <= 13 or 7 <= local_hour <= 8:
        return 0.06
    return 0.02


async def simulate(*, games: int, people: int, days: int, seed: int, digest: bool) -> Week:
    rng = random.Random(seed)
    clock = [datetime(2026, 3, 2, tzinfo=timezone.utc).timestamp()]
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(f"sqlite:///{Path(folder) / 'week.db'}", clock=lambda: clock[0])
        seeds = iter(range(seed * 1000, seed * 1000 + 10_000))
        service = SessionService(store, clock=lambda: clock[0], new_seed=lambda: next(seeds))
        actors = [Actor(user_id=str(9000 + i), name=f"P{i}") for i in range(people)]
        for i, actor in enumerate(actors):
            await service.set_user_hours(actor.user_id, timezone=ZONES[i % len(ZONES)],
                                         quiet_hours=rng.choice(["23-7", "0-8", "22-6"]))
            if digest:
                await service.set_digest(actor.user_id, "8")
        prefs = {a.user_id: await service.user_prefs(a.user_id) for a in actors}
        pings: Counter = Counter()
        night: Counter = Counter()

        def pinged(user_ids) -> None:
            for user_id in user_ids:
                pings[user_id] += 1
                if asleep(prefs.get(user_id), clock[0]):
                    night[user_id] += 1

        seen: set[int] = set()  # the personal DMs counted
        moves = 0
        started = time.perf_counter()
        channels = []
        for g in range(games):
            seated = rng.sample(actors, 3)
            channel = f"sim-{g}"
            await service.create(TITLES[g % len(TITLES)], channel, "guild", seated[0], None, "en")
            for actor in seated[1:]:
                await service.join(channel, actor)
            await service.settings(channel, seated[0], deadline_hours=48, deadline_action="bot")
            out = await service.start(channel, seated[0])
            pinged(out.mention_user_ids)
            channels.append(channel)
        end = clock[0] + days * DAY
        while clock[0] < end:
            clock[0] += STEP
            for reminder in await service.due_reminders():
                pinged(reminder.user_ids)
            for outcome in await service.run_deadlines():
                pinged(outcome.mention_user_ids)
            await service.due_returns()
            await service.due_digests()
            personal = [r for r in await store.outbox_rows() if r.kind in ("digest", "returned") and r.id not in seen]
            seen.update(r.id for r in personal)
            pinged([r.payload["user_id"] for r in personal])
            for actor in actors:
                mine = prefs[actor.user_id]
                if asleep(mine, clock[0]):
                    continue
                hour = datetime.fromtimestamp(clock[0], ZoneInfo(mine.tz or "UTC")).hour
                if rng.random() >= _look_in_chance(hour):
                    continue
                for waiting in await service.games_waiting_on(actor.user_id):
                    for _ in range(6):  # a turn of several steps is played through
                        ld, _ = await service.core.read_channel(waiting.channel_id, include_closed=True)
                        seat = ld.seat_of(actor.user_id)
                        if ld.row.status != "active" or seat not in ld.game.active_players(ld.state):
                            break
                        bots = service.core.bot_names(ld.game)
                        action, _applied = service.moves.bot_move(ld, seat, bots[0] if bots else None, salt="sim")
                        outcome = await service.act(waiting.channel_id, actor, ld.game.format_action(action))
                        moves += 1
                        pinged(outcome.mention_user_ids)
        finished = 0
        for channel in channels:
            status = await service.status(channel)
            finished += status.info.status == "finished"
        await store.close()
    return Week(pings=pings, night=night, moves=moves, finished=finished, seconds=time.perf_counter() - started)


def report(name: str, week: Week, people: int, days: int) -> str:
    per_day = [week.pings.get(str(9000 + i), 0) / days for i in range(people)]
    return (f"{name}: pings per person per day: mean {statistics.mean(per_day):.1f}, median "
            f"{statistics.median(per_day):.1f}, max {max(per_day):.1f}, in their quiet hours "
            f"{sum(week.night.values())} ({week.moves} moves, {week.finished} games finished, {week.seconds:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--people", type=int, default=12)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    for name, digest in (("reminders per game", False), ("daily digest", True)):
        week = asyncio.run(simulate(games=args.games, people=args.people, days=args.days, seed=args.seed,
                                    digest=digest))
        print(report(name, week, args.people, args.days), flush=True)


if __name__ == "__main__":
    main()
