"""Each person's own hours: a time zone and quiet hours set once (/me) for all their games.

A person asleep by their own hours is never pinged, reminded or sent a DM by any game: a turn
post names them without the mention, a reminder owed to them waits for their morning, and a
deadline that runs out while they sleep runs out at their morning instead. The game's own quiet
hours (/game settings) stay the host's, for the channel.
"""
from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import Any, Callable, Iterable, NamedTuple
from zoneinfo import ZoneInfo, available_timezones

from pydantic import BaseModel, Field, ValidationError

from bot.sessions.errors import SessionError
from bot.sessions.settings import QuietHours
from bot.store.models import UserPrefs

_HOURS = re.compile(r"^\s*(\d{1,2})(?::00)?\s*[-–~〜～]\s*(\d{1,2})(?::00)?\s*$")
OFF_WORDS = {"off", "none", "no", "なし", "オフ"}


def quiet_of(prefs: UserPrefs | None) -> QuietHours | None:
    """The person's own quiet hours in their time zone (UTC when they set none), or None."""
    if prefs is None or prefs.quiet_start is None or prefs.quiet_end is None:
        return None
    return QuietHours(start_hour=prefs.quiet_start, end_hour=prefs.quiet_end, tz=prefs.tz or "UTC")


def asleep(prefs: UserPrefs | None, now: float) -> bool:
    """Whether `now` is inside the person's own quiet hours."""
    quiet = quiet_of(prefs)
    return quiet is not None and quiet.contains(now)


def wakes_at(prefs: UserPrefs | None, now: float) -> float:
    """When the person's quiet hours end (`now` if they are awake)."""
    quiet = quiet_of(prefs)
    return quiet.end_after(now) if quiet is not None and quiet.contains(now) else now


def away(prefs: UserPrefs | None, now: float) -> bool:
    """Whether the person is away from all their games at `now` (/away)."""
    return (prefs is not None and prefs.away_from is not None and prefs.away_until is not None
            and prefs.away_from <= now < prefs.away_until)


def quiet_by_digest(prefs: UserPrefs | None) -> bool:
    """Whether the person chose one digest DM a day instead of pings and reminders per game."""
    return prefs is not None and prefs.digest_hour is not None


def awake_of(user_ids: Iterable[str], prefs: dict[str, UserPrefs], now: float) -> tuple[list[str], list[str]]:
    """(to ping now, to ping at their morning) of `user_ids`, in their order. The away and
    those who chose the daily digest are in neither: nobody pings them, and their return DM
    or their digest tells them what waits."""
    awake, sleeping = [], []
    for user_id in user_ids:
        person = prefs.get(user_id)
        if away(person, now) or quiet_by_digest(person):
            continue
        (sleeping if asleep(person, now) else awake).append(user_id)
    return awake, sleeping


def local_clock(prefs: UserPrefs | None, now: float) -> str | None:
    """The person's local time as HH:MM, or None when they set no time zone."""
    if prefs is None or prefs.tz is None:
        return None
    return datetime.fromtimestamp(now, ZoneInfo(prefs.tz)).strftime("%H:%M")


def parse_zone(text: str) -> str:
    """A time zone as a person types it: an IANA name ("Asia/Tokyo", any case) or UTC±H[:MM]."""
    raw = text.strip()
    offset = re.fullmatch(r"(?i)(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?", raw)
    if offset:
        sign, hours, minutes = offset.group(1), int(offset.group(2)), int(offset.group(3) or 0)
        if minutes == 0 and hours <= 14:
            # the tz database's fixed-offset zones have the sign reversed (POSIX): Etc/GMT-9 is UTC+9
            return "UTC" if hours == 0 else f"Etc/GMT{'-' if sign == '+' else '+'}{hours}"
        raise SessionError("bad_timezone", value=text)
    found = _zones_by_lower().get(raw.lower())
    if found is None:
        raise SessionError("bad_timezone", value=text)
    return found


def parse_quiet(text: str) -> tuple[int, int] | None:
    """Quiet hours as "23-7" (whole local hours, may wrap midnight); None for "off"."""
    if text.strip().lower() in OFF_WORDS:
        return None
    found = _HOURS.match(text)
    if not found:
        raise SessionError("bad_quiet_hours", value=text)
    start, end = (int(found.group(k)) for k in (1, 2))
    start, end = (0 if start == 24 else start), (0 if end == 24 else end)  # "22-24": until midnight
    if not (0 <= start <= 23 and 0 <= end <= 23) or start == end:
        raise SessionError("bad_quiet_hours", value=text)
    return start, end


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


@lru_cache(maxsize=1)
def _zones_by_lower() -> dict[str, str]:
    return {name.lower(): name for name in zone_names()}


# --- reminders by each person's hours ----------------------------------------------------------
# A game's reminder timer carries, besides its due time and the count of reminders sent, a
# payload {"regular": when the next reminder to everyone waited on is due, "owed": the people
# not yet told of this turn because they were asleep}. The timer is due at whichever comes
# first: the next regular reminder or the first morning among the owed.
class ReminderPayload(BaseModel):
    regular: float | None = None  # when the next reminder to everyone is due, while some are owed
    owed: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, text: str) -> "ReminderPayload":
        """A stored payload; an unreadable one is taken as empty (the timer then works as a
        plain reminder) rather than stopping the game's reminders."""
        try:
            return cls.model_validate_json(text)
        except ValidationError:
            return cls()


class ReminderStep(NamedTuple):
    ping: list[str]  # the people to remind now (awake)
    attempt: int  # regular reminders sent, this one included
    due_at: float  # when the timer fires next
    payload: ReminderPayload


def reminder_timer(regular: float, owed: list[str], prefs: dict[str, UserPrefs],
                   now: float) -> tuple[float, ReminderPayload]:
    """(due_at, payload) of a reminder timer whose next regular reminder is at `regular` and
    that owes a first word to the sleeping `owed`."""
    due = min([regular, *(wakes_at(prefs.get(u), now) for u in owed)])
    return due, ReminderPayload(regular=regular, owed=list(owed))


def reminder_step(waited: list[str], prefs: dict[str, UserPrefs], now: float, *, attempt: int,
                  payload: ReminderPayload, due_at: float, interval: Callable[[int], float]) -> ReminderStep:
    """What a reminder timer firing at `now` does for the people the game waits on (`waited`):
    a regular reminder (its time has come) goes to all of them, else only to the owed ones; of
    those, the awake are pinged now and the asleep are owed it until their morning."""
    # the timer's own due time is the regular reminder's unless someone is owed one (a timer
    # written before personal hours has no payload; a due time moved by hand means "now")
    regular = payload.regular if payload.owed and payload.regular is not None else due_at
    if now >= regular:
        targets, attempt = list(waited), attempt + 1
        regular = now + interval(attempt)
    else:
        targets = [u for u in payload.owed if u in waited]
    awake, sleeping = awake_of(targets, prefs, now)
    due, next_payload = reminder_timer(regular, sleeping, prefs, now)
    return ReminderStep(awake, attempt, due, next_payload)
