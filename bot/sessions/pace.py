"""What a game asks of each person, by their own pace: time banks read and settled, who is late
when the game's deadline fires, and each seat's pace as posts and /game status show it.

The rules of the time banks are in clocks.py and each person's hours in hours.py; this module
is where a game meets them (the commit, the deadline, the status, a change of someone's hours).
"""
from __future__ import annotations

import logging
from typing import Iterable, NamedTuple

from pydantic import ValidationError

from bot.sessions.clocks import Clocks, TimeBank, advance, running, settle
from bot.sessions.core import Loaded
from bot.sessions.hours import asleep, away, local_clock, wakes_at
from bot.sessions.models import LocalClock, SeatPace
from bot.store import Tx, UserPrefs

log = logging.getLogger("railyard.sessions.pace")

HOUR = 3600.0


async def read_clocks(tx: Tx, ld: Loaded) -> Clocks | None:
    """The game's time banks (None in a game without them). Banks that cannot be read are
    logged and taken as none: the game then keeps its turn deadline, if any, rather than stop."""
    bank = ld.settings.time_bank
    if bank is None:
        return None
    try:
        return Clocks.of(await tx.game_clocks(ld.row.id), bank, len(ld.seats))
    except ValidationError:
        log.error("game %s: its time banks cannot be read; they are left as they are", ld.row.id)
        return None


async def advance_clocks(tx: Tx, ld: Loaded, charged: list[int], by_seat: dict[int, UserPrefs | None],
                         now: float) -> Clocks | None:
    """The banks after a change that leaves the game waiting on the people of `charged`, stored
    in the change's own transaction (clocks.advance)."""
    clocks = await read_clocks(tx, ld)
    if clocks is None:
        return None
    assert ld.settings.time_bank is not None
    clocks = advance(clocks, ld.settings.time_bank, set(charged), by_seat, now)
    await tx.set_clocks(ld.row.id, clocks.model_dump_json())
    return clocks


def bank_due(clocks: Clocks | None, charged: Iterable[int], by_seat: dict[int, UserPrefs | None]) -> float | None:
    """When the first running bank of `charged` runs out (None: none runs)."""
    if clocks is None:
        return None
    due = [t for t in (clocks.runs_out(s, by_seat.get(s)) for s in charged) if t is not None]
    return min(due) if due else None


async def settle_person(tx: Tx, ld: Loaded, user_id: str, prefs: UserPrefs, now: float) -> None:
    """Settle the person's running banks in this game by the hours they had until now (the
    caller is about to change those hours or their away time); the caller holds the game."""
    clocks = await read_clocks(tx, ld)
    if clocks is None:
        return
    mine = [s.seat for s in ld.seats if s.user_id == user_id and s.seat in running(clocks)]
    if mine:
        await tx.set_clocks(ld.row.id, settle(clocks, mine, prefs, now).model_dump_json())


def pace_of(clocks: Clocks | None, by_seat: dict[int, UserPrefs | None], seat_count: int,
            now: float) -> list[SeatPace]:
    """Each seat's bank (if the game has banks) and away time, as posts and the status show them."""
    out: list[SeatPace] = []
    for seat in range(seat_count):
        prefs = by_seat.get(seat)
        gone = away(prefs, now)
        if clocks is None and not gone:
            continue
        out.append(SeatPace(
            seat=seat,
            bank_left=clocks.left_at(seat, prefs, now) if clocks is not None else None,
            runs_out=clocks.runs_out(seat, prefs) if clocks is not None else None,
            away_until=prefs.away_until if gone and prefs is not None else None,
        ))
    return out


def local_clocks(people: dict[int, str], prefs: dict[str, UserPrefs], now: float) -> list[LocalClock]:
    """The local time of each waited-on person (seat -> user id) who set a time zone, and
    whether they are in their quiet hours: why someone waited on was not pinged."""
    clocks = []
    for seat, user_id in people.items():
        person = prefs.get(user_id)
        time_of_day = local_clock(person, now)
        if time_of_day is not None:
            clocks.append(LocalClock(seat=seat, time=time_of_day, asleep=asleep(person, now)))
    return clocks


class Lateness(NamedTuple):
    late: list[int]  # the seats whose time is up now
    next_due: float | None  # when the deadline should look again (None: nothing to wait for)


def judge_late(seats: dict[int, UserPrefs | None], now: float, *, turn_start: float | None,
               turn_due: float | None, deadline_hours: float | None, clocks: Clocks | None) -> Lateness:
    """Which of the waited-on people (seat → their hours) are out of time at `now`: their bank
    ran out, or the turn's deadline (`turn_due`) passed while they are awake and here. A deadline that
    falls in a person's night waits for their morning; one that falls in their away time
    gives them the whole deadline again from their return."""
    late: list[int] = []
    later: list[float] = []
    for seat, prefs in seats.items():
        out = clocks.runs_out(seat, prefs) if clocks is not None else None
        if out is not None:
            if out <= now:
                late.append(seat)
                continue
            later.append(out)
        if turn_due is None:
            continue
        due = turn_due
        if prefs is not None and prefs.away_until is not None and prefs.away_from is not None \
                and prefs.away_from < now and prefs.away_until > (turn_start or turn_due):
            due = max(due, prefs.away_until + (deadline_hours or 0.0) * HOUR)
        if now < due:
            later.append(due)
        elif asleep(prefs, now):
            later.append(wakes_at(prefs, now))
        else:
            late.append(seat)
    return Lateness(late, min(later) if later else None)


__all__ = ["TimeBank", "advance_clocks", "bank_due", "judge_late", "local_clocks", "pace_of", "read_clocks",
           "settle_person"]
