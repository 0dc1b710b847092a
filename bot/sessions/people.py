"""A person's own pace across all their games: their hours (/me), away time (/away) and daily
digest, and the two DMs that come by themselves: the list of what waits on them when their away
time ends, and the digest at the local hour they chose.

Away: from /away until its date, nobody pings, reminds or DMs the person about any game;
deadlines and time banks do not run for them (bot/sessions/pace.py, clocks.py); where a game's
host allows it (settings.away_bot) a bot plays for them, else their standing orders do, else the
game waits. A player away longer than a game can wait is replaced with the host's /game kick.

Both DMs are outbox rows of no game ('returned', 'digest'), written in the transaction that
moves the person's own timer on (`claim_pace`): with several processes, the one whose update
matches sends it, once.
"""
from __future__ import annotations

import logging
import re
from datetime import date, datetime, time as dtime, timedelta
from typing import Awaitable, Callable
from zoneinfo import ZoneInfo

from bot.sessions.core import Core, not_running
from bot.sessions.errors import SessionError
from bot.sessions.hours import OFF_WORDS, away, parse_quiet, parse_zone
from bot.sessions.looking import Looking
from bot.sessions.models import Actor, GameInfo, WaitingGame
from bot.sessions.pace import settle_person
from bot.store import Tx, UserPrefs, retries_conflicts
from games.core.i18n import language_for

log = logging.getLogger("railyard.sessions.people")

DAY = 24 * 3600.0
AWAY_MAX_DAYS = 90  # a longer absence is a player leaving: the host replaces them (/game kick)
_RELATIVE = re.compile(r"^\s*(\d{1,3})\s*(d|day|days|日|w|week|weeks|週間?)\s*$", re.IGNORECASE)
_DATE = re.compile(r"^\s*(?:(\d{4})[-/.年])?\s*(\d{1,2})[-/.月]\s*(\d{1,2})日?\s*(?:(\d{1,2}):(\d{2}))?\s*$")


def parse_until(text: str, prefs: UserPrefs, now: float) -> float:
    """When an away time typed as the person types it ends: "2026-12-05", "12/5" (the next such
    date), "12/5 18:00", "3d", "2w", "5日", in the person's time zone (UTC without one). A date
    alone means back at the start of that day (their quiet hours, if any, then keep them
    unpinged until their morning)."""
    zone = ZoneInfo(prefs.tz or "UTC")
    local_now = datetime.fromtimestamp(now, zone)
    relative = _RELATIVE.match(text)
    if relative:
        count, unit = int(relative.group(1)), relative.group(2).lower()
        days = count * (7 if unit.startswith("w") or unit.startswith("週") else 1)
        until = now + days * DAY
    else:
        found = _DATE.match(text)
        if not found:
            raise SessionError("bad_away_until", value=text)
        year, month, day, hour, minute = found.groups()
        try:
            when = datetime.combine(
                date(int(year) if year else local_now.year, int(month), int(day)),
                dtime(int(hour or 0), int(minute or 0)), zone)
        except ValueError:
            raise SessionError("bad_away_until", value=text) from None
        if year is None and when.timestamp() <= now:  # "12/5" typed in December means next year's
            try:
                when = when.replace(year=when.year + 1)
            except ValueError:
                raise SessionError("bad_away_until", value=text) from None
        until = when.timestamp()
    if until <= now:
        raise SessionError("away_in_the_past", value=text)
    if until > now + AWAY_MAX_DAYS * DAY:
        raise SessionError("away_too_long", value=text, days=AWAY_MAX_DAYS)
    return until


def parse_digest_hour(text: str) -> int | None:
    """The local hour of the daily digest as typed ("8", "08:00", "20時"); None for "off"."""
    if text.strip().lower() in OFF_WORDS:
        return None
    found = re.fullmatch(r"\s*(\d{1,2})\s*(?::00|時)?\s*", text)
    if not found or not 0 <= int(found.group(1)) <= 24:
        raise SessionError("bad_digest_hour", value=text)
    return int(found.group(1)) % 24


def next_digest(prefs: UserPrefs, hour: int, now: float) -> float:
    """The next time after `now` it is `hour`:00 where the person is."""
    zone = ZoneInfo(prefs.tz or "UTC")
    local = datetime.fromtimestamp(now, zone)
    at = datetime.combine(local.date(), dtime(hour), zone)
    while at.timestamp() <= now:
        at = datetime.combine(at.date() + timedelta(days=1), dtime(hour), zone)
    return at.timestamp()


def waiting_payload(user_id: str, prefs: UserPrefs, games: list[WaitingGame], now: float) -> dict:
    """A personal DM's payload: whom it goes to, in which language, and the games waiting."""
    return {"user_id": user_id, "locale": prefs.locale, "now": now,
            "games": [g.model_dump(mode="json") for g in games]}


class People:
    """A person's hours, away time and digest, and the DMs that come by themselves."""

    def __init__(self, core: Core, looking: Looking) -> None:
        self.core = core
        self.looking = looking

    # ------------------------------------------------------------------ settings
    @retries_conflicts
    async def set_hours(self, user_id: str, *, timezone: str | None = None,
                        quiet_hours: str | None = None) -> UserPrefs:
        """A person's own time zone and quiet hours, as typed (bot/sessions/hours.py parses
        them; "off" clears either); what is not given stays. Quiet hours need a time zone.
        Their running time banks are settled first, by the hours that held until now."""
        current = await self.core.store.get_prefs(user_id)
        tz, quiet = current.tz, (current.quiet_start, current.quiet_end)
        if timezone is not None:
            tz = None if timezone.strip().lower() in OFF_WORDS else parse_zone(timezone)
        if quiet_hours is not None:
            quiet = parse_quiet(quiet_hours) or (None, None)
        if quiet[0] is not None and tz is None:
            raise SessionError("quiet_hours_need_zone", value=quiet_hours or "")
        now = self.core.clock()
        async with self.core.store.write() as tx:
            prefs = await tx.get_prefs(user_id)
            await self._settle(tx, user_id, prefs, now)
            new = await tx.set_hours(user_id, tz=tz, quiet_start=quiet[0], quiet_end=quiet[1])
            if new.digest_hour is not None:  # the digest's hour is a local one: it moves with the zone
                new = await tx.set_pace(user_id, digest_next_at=next_digest(new, new.digest_hour, now))
            return new

    @retries_conflicts
    async def set_away(self, user_id: str, until: str) -> UserPrefs:
        """Away from all one's games until the typed date (see parse_until)."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            prefs = await tx.get_prefs(user_id)
            ends = parse_until(until, prefs, now)
            # banks settled by the away time that held until now: the new one replaces it
            await self._settle(tx, user_id, prefs, now)
            start = prefs.away_from if away(prefs, now) and prefs.away_from is not None else now
            new = await tx.set_pace(user_id, away_from=start, away_until=ends, away_told=0)
            await self._wake_bots(tx, user_id, now)
            return new

    @retries_conflicts
    async def end_away(self, user_id: str) -> tuple[UserPrefs, list[WaitingGame]]:
        """Back early: the away time ends now (kept, so the banks know it), and what waits on
        the person is shown to them at once instead of by DM."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            prefs = await tx.get_prefs(user_id)
            if not away(prefs, now):
                raise SessionError("not_away")
            new = await tx.set_pace(user_id, away_until=now, away_told=1)
        return new, await self.looking.games_waiting_on(user_id)

    async def set_digest(self, user_id: str, hour: str) -> UserPrefs:
        """One DM a day at the typed local hour instead of pings and reminders per game; "off"
        for reminders per game again."""
        chosen = parse_digest_hour(hour)
        prefs = await self.core.store.get_prefs(user_id)
        if chosen is None:
            return await self.core.store.set_pace(user_id, digest_hour=None, digest_next_at=None)
        return await self.core.store.set_pace(user_id, digest_hour=chosen,
                                              digest_next_at=next_digest(prefs, chosen, self.core.clock()))

    async def _settle(self, tx: Tx, user_id: str, prefs: UserPrefs, now: float) -> None:
        """Settle the person's running time banks in all their games (their hours or away time
        are about to change), each game's row held as a move holds it."""
        for row in await tx.games_of_user(user_id, None, ("active",)):
            held = await tx.get_game(row.id)
            if held is None or held.status != "active":
                continue
            ld = self.core.load(held, await tx.seats(row.id), with_state=False)
            await settle_person(tx, ld, user_id, prefs, now)

    async def _wake_bots(self, tx: Tx, user_id: str, now: float) -> None:
        """In the games whose host lets a bot play for the away, the bots' timer is made due
        now, so a live process's sweep has the bot play the turns already waiting on them."""
        for row in await tx.games_of_user(user_id, None, ("active",)):
            try:
                ld = self.core.load(row, [], with_state=False)
            except SessionError:
                continue
            if ld.settings.away_bot:
                await tx.set_timer(row.id, "bots", now)

    # ------------------------------------------------------------------ following a game
    @retries_conflicts
    async def follow(self, channel_id: str, actor: Actor, every: int | None = None) -> GameInfo:
        """Follow the channel's running game without playing in it: a DM at its end (with the
        final images) and, with `every`, every that many moves; never its private information."""
        async with self.core.store.write() as tx:
            ld = await self.core.open_in_tx(tx, channel_id)
            if ld.row.status != "active":
                raise not_running(ld.row)
            if ld.seat_of(actor.user_id) is not None:
                raise SessionError("follow_own_game")
            if every is not None and not 1 <= every <= 1000:
                raise SessionError("bad_follow_every", value=str(every))
            await tx.set_follow(ld.row.id, actor.user_id, every, language_for(actor.locale) if actor.locale else None,
                                self.core.clock())
            return self.core.info(ld)

    @retries_conflicts
    async def unfollow(self, channel_id: str, actor: Actor) -> GameInfo:
        async with self.core.store.write() as tx:
            ld = await self.core.open_in_tx(tx, channel_id)
            if not await tx.drop_follow(ld.row.id, actor.user_id):
                raise SessionError("not_following")
            return self.core.info(ld)

    # ------------------------------------------------------------------ the DMs that come by themselves
    async def due_returns(self, lease: float | None = None) -> list[int]:
        """Tell each person whose away time ended what waits on them (one DM, an outbox row of
        kind 'returned'); returns the outbox ids. `lease` is unused: the claim is the update."""
        return await self._send_each(await self.core.store.due_returns(self.core.clock()), self._returned,
                                     "the return")

    async def _send_each(self, people: list[UserPrefs], send: Callable[[UserPrefs, float], Awaitable[int | None]],
                         what: str) -> list[int]:
        """`send` for each person due (their DM's outbox id, or None when another process sent
        it or there is nothing to say); one person's trouble does not stop the others."""
        now = self.core.clock()
        sent: list[int] = []
        for prefs in people:
            try:
                outbox_id = await send(prefs, now)
            except Exception:  # noqa: BLE001 - one person's trouble must not stop the others
                log.exception("%s of user %s could not be sent", what, prefs.user_id)
                continue
            if outbox_id is not None:
                sent.append(outbox_id)
        return sent

    @retries_conflicts
    async def _returned(self, prefs: UserPrefs, now: float) -> int | None:
        games = await self.looking.games_waiting_on(prefs.user_id)
        async with self.core.store.write() as tx:
            if not await tx.claim_pace(prefs.user_id, {"away_told": 0, "away_until": prefs.away_until},
                                       away_told=1):
                return None  # another process told them, or they came back by hand
            return await tx.add_outbox(None, "returned", waiting_payload(prefs.user_id, prefs, games, now), now)

    async def due_digests(self, lease: float | None = None) -> list[int]:
        """Send each person whose digest hour has come the list of games waiting on them (one
        DM, an outbox row of kind 'digest'; none when nothing waits or they are away);
        returns the outbox ids."""
        return await self._send_each(await self.core.store.due_digests(self.core.clock()), self._digest,
                                     "the digest")

    @retries_conflicts
    async def _digest(self, prefs: UserPrefs, now: float) -> int | None:
        if prefs.digest_hour is None:
            return None
        games = [] if away(prefs, now) else await self.looking.games_waiting_on(prefs.user_id)
        async with self.core.store.write() as tx:
            if not await tx.claim_pace(prefs.user_id, {"digest_next_at": prefs.digest_next_at},
                                       digest_next_at=next_digest(prefs, prefs.digest_hour, now)):
                return None  # sent by another process, or changed by the person meanwhile
            if not games:
                return None
            return await tx.add_outbox(None, "digest", waiting_payload(prefs.user_id, prefs, games, now), now)
