"""Time banks: each player's own clock, chosen when the game is made ("3d+12h", capped).

A seat's bank runs only while the game waits on that person (not on their bot or their
standing orders) and never in their own quiet hours or away time (bot/sessions/hours.py); a
turn that ends credits the per-turn time, up to the cap; simultaneous decisions spend each
person's own bank. When a bank runs out the game's deadline action applies (timers.py), as
for the per-turn deadline.

What is stored (games.clocks, JSON) is, per seat, the time `left` in the bank and `since`: when
the game last started waiting on the seat or last settled its bank (None while it waits on
others). The time spent is worked out from those and the person's hours when the bank is
settled: by every commit (`advance`, in the move's own transaction, so a crash, a restart or
another process taking over can neither lose nor count twice what a move changed), and by a
change of the person's hours or away time (`settle`, before they change, so each stretch of
time is counted by the hours that held then).
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Iterator
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.sessions.errors import SessionError
from bot.store.models import UserPrefs

HOUR = 3600.0
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([dh日時])", re.IGNORECASE)
_UNITS = {"d": 24.0, "日": 24.0, "h": 1.0, "時": 1.0}


class TimeBank(BaseModel):
    """The game's time banks: `start_hours` in each bank at the start, `per_turn_hours` added
    when a turn of that player ends, never more than `cap_hours`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    start_hours: float = Field(ge=1, le=60 * 24)
    per_turn_hours: float = Field(0, ge=0, le=14 * 24)
    cap_hours: float | None = Field(None, ge=1, le=120 * 24)

    @model_validator(mode="after")
    def _cap_holds_the_start(self) -> "TimeBank":
        if self.cap_hours is not None and self.cap_hours < self.start_hours:
            raise ValueError("the cap is below the starting time")
        return self

    @property
    def cap(self) -> float:
        return (self.cap_hours if self.cap_hours is not None else self.start_hours) * HOUR


def _hours(text: str) -> float:
    """"3d12h", "36h", "2日" as hours (a bare number is hours)."""
    raw = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        return float(raw)
    pos, total = 0, 0.0
    for found in _PART.finditer(raw):
        if found.start() != pos:
            raise ValueError(text)
        total += float(found.group(1)) * _UNITS[found.group(2)]
        pos = found.end()
    if pos != len(raw) or pos == 0:
        raise ValueError(text)
    return total


def parse_bank(text: str) -> TimeBank | None:
    """A time bank as a host types it: "3d+12h" (3 days, 12 hours more per turn, capped at the
    start), "3d+12h/7d" (capped at 7 days), "2d" (nothing per turn); "off" for none."""
    if text.strip().lower() in ("off", "none", "no", "なし", "オフ"):
        return None
    found = re.fullmatch(r"\s*([^+/]+?)\s*(?:\+\s*([^+/]+?))?\s*(?:/\s*([^+/]+?))?\s*", text)
    try:
        if not found:
            raise ValueError(text)
        start, per_turn, cap = found.groups()
        return TimeBank(start_hours=_hours(start), per_turn_hours=_hours(per_turn) if per_turn else 0.0,
                        cap_hours=_hours(cap) if cap else None)
    except (ValueError, ValidationError):
        raise SessionError("bad_time_bank", value=text) from None


class SeatClock(BaseModel):
    left: float  # seconds in the bank at `since` (or now, while the game waits on others)
    since: float | None = None  # when the bank last started running or was last settled


class Clocks(BaseModel):
    seats: dict[int, SeatClock] = Field(default_factory=dict)

    @classmethod
    def of(cls, text: str | None, bank: TimeBank, seat_count: int) -> "Clocks":
        """The stored banks; a game that has none stored yet (it was just started) has full
        ones. A stored value that cannot be read is refused rather than taken as full banks:
        the game's deadline then falls back to its turn deadline (the caller logs it)."""
        if not text:
            return cls(seats={s: SeatClock(left=bank.start_hours * HOUR) for s in range(seat_count)})
        return cls.model_validate_json(text)

    def left_at(self, seat: int, prefs: UserPrefs | None, now: float) -> float | None:
        """Seconds left in the seat's bank at `now`, or None if it has none."""
        clock = self.seats.get(seat)
        if clock is None:
            return None
        if clock.since is None:
            return clock.left
        return max(0.0, clock.left - spent(prefs, clock.since, now))

    def runs_out(self, seat: int, prefs: UserPrefs | None) -> float | None:
        """When the seat's bank runs out if the game keeps waiting on it (None: it is not
        running)."""
        clock = self.seats.get(seat)
        if clock is None or clock.since is None:
            return None
        return runs_out_at(prefs, clock.since, clock.left)


# --- the time that counts ---------------------------------------------------------------------
def _paused(prefs: UserPrefs | None, start: float) -> Iterator[tuple[float, float]]:
    """The stretches from `start` on in which the person's bank does not run (their quiet
    hours, their away time), in order and merged; endless when they have quiet hours."""
    away_span = None
    if prefs is not None and prefs.away_from is not None and prefs.away_until is not None \
            and prefs.away_until > start:
        away_span = (max(start, prefs.away_from), prefs.away_until)
    nights = _nights(prefs, start)

    def in_order() -> Iterator[tuple[float, float]]:
        night, pending = next(nights, None), away_span
        while night is not None or pending is not None:
            if pending is not None and (night is None or pending[0] <= night[0]):
                yield pending
                pending = None
            else:
                assert night is not None
                yield night
                night = next(nights, None)

    current: tuple[float, float] | None = None
    for span in in_order():
        if current is None:
            current = span
        elif span[0] <= current[1]:
            current = (current[0], max(current[1], span[1]))
        else:
            yield current
            current = span
    if current is not None:
        yield current


def _nights(prefs: UserPrefs | None, start: float) -> Iterator[tuple[float, float]]:
    """The person's quiet hours from `start` on, one (begin, end) a local day, clipped to start."""
    if prefs is None or prefs.quiet_start is None or prefs.quiet_end is None:
        return
    zone = ZoneInfo(prefs.tz or "UTC")
    day = datetime.fromtimestamp(start, zone).date() - timedelta(days=1)
    while True:
        begin = datetime(day.year, day.month, day.day, prefs.quiet_start, tzinfo=zone)
        end_day = day if prefs.quiet_end > prefs.quiet_start else day + timedelta(days=1)
        end = datetime(end_day.year, end_day.month, end_day.day, prefs.quiet_end, tzinfo=zone)
        b, e = begin.timestamp(), end.timestamp()
        if e > start:
            yield max(b, start), e
        day += timedelta(days=1)


def spent(prefs: UserPrefs | None, start: float, end: float) -> float:
    """The seconds of [start, end] that count against the person's bank."""
    if end <= start:
        return 0.0
    total = end - start
    for p0, p1 in _paused(prefs, start):
        if p0 >= end:
            break
        total -= min(p1, end) - p0
    return max(0.0, total)


def runs_out_at(prefs: UserPrefs | None, start: float, left: float) -> float:
    """When `left` seconds counted from `start` are spent."""
    at, need = start, max(0.0, left)
    for p0, p1 in _paused(prefs, start):
        if p0 - at >= need:
            break
        need -= max(0.0, p0 - at)
        at = max(at, p1)
    return at + need


# --- settling ---------------------------------------------------------------------------------
def advance(clocks: Clocks, bank: TimeBank, waited: set[int], by_seat: dict[int, UserPrefs | None],
            now: float) -> Clocks:
    """The banks after a change that leaves the game waiting on the people of `waited`: each
    seat whose bank was running pays the time since it last settled (by `by_seat`, each seat's
    person's hours); a seat no longer waited on is credited the per-turn time (its turn
    ended), up to the cap; the seats waited on now run from `now`."""
    seats: dict[int, SeatClock] = {}
    for seat, clock in clocks.seats.items():
        left = clock.left
        if clock.since is not None:
            left = max(0.0, left - spent(by_seat.get(seat), clock.since, now))
            if seat not in waited:
                left = min(max(bank.cap, left), left + bank.per_turn_hours * HOUR)
        seats[seat] = SeatClock(left=left, since=now if seat in waited else None)
    return Clocks(seats=seats)


def running(clocks: Clocks) -> list[int]:
    """The seats whose banks are running."""
    return [s for s, c in clocks.seats.items() if c.since is not None]


def settle(clocks: Clocks, seats: list[int], prefs: UserPrefs | None, now: float) -> Clocks:
    """The banks with `seats` (one person's) settled up to `now` by the hours they had until
    now: before those hours or away time change."""
    out = dict(clocks.seats)
    for seat in seats:
        clock = out.get(seat)
        if clock is not None and clock.since is not None:
            out[seat] = SeatClock(left=max(0.0, clock.left - spent(prefs, clock.since, now)), since=now)
    return Clocks(seats=out)
