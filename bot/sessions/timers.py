"""Timers: reminders for whoever the game waits on, deadlines that move for late players, and
the bots (and standing orders) a game waits on.

Several processes may run these sweeps on one database at the same time. Each sweep claims
the due timers it fires (`claim_timers`, under the process's owner id with a lease), so a
timer is fired by one process; what a firing writes is written in a transaction that first
checks the claim (`hold_timer`), and rescheduling or deleting the timer ends the claim. A
process that dies holding a claim just leaves it to run out: the timer is then due for the
others again. A reminder is written to the outbox in the same transaction that reschedules
it, so it is posted once whoever fires it. Each move of a deadline is committed in a
transaction that checks the claim as well as the game's version: a process that stalled past
its lease (paused, not killed) while another one took the deadline over and fired it writes
nothing when it wakes up, even if the game then waits on the same seat again.

A 'bots' timer is due when a bot or a standing order moves next (Commit.schedule_bots):
the process that made that change holds it and moves them at once; `due_bots` hands the
others' to this process once their holder's lease has run out (it died first).

A 'lapse' timer runs while the game waits on answers that lapse when nobody gives them
(Game.lapse_action: a trade offer's answers, which then count as refusals), due the game's
reminder delay after the first of them was waited on (Commit.schedule_lapse). When it
fires (`run_lapses`) every such answer still missing is made as the rules say, each announced
with `session.lapsed_move` and logged with auto="lapsed", all in one transaction that checks
the claim and the game's version. A seat whose answer lapses is never reminded of it: the
lapse comes when the reminder would, and says so. Quiet hours put a lapse off, as a reminder.

A timer taken over TAKEOVER_LIMIT times in a row (each holder died or stalled before it
rescheduled it, as the outbox counts a post's holders) is likely what kills its holders, so
it is given up instead of fired once more:

* a reminder is dropped: the next one is scheduled as if it had been sent;
* a deadline is not applied: nobody is moved for the late players, the timer goes (the next
  move sets a new one) and the game's host is told, as about a post that cannot be delivered;
* a game's bots are left waiting and the host is told (the next change that has them move
  next tries again);
* answers due to lapse are left waited on and the host is told (the players may still give
  them; the next move that leaves answers to lapse starts the timer again).
"""
from __future__ import annotations

from pydantic import ValidationError

from bot.sessions.commit import Commit
from bot.sessions.core import Core, Loaded, has_lapses, lapsing_answers, log
from bot.sessions.delivery import TAKEOVER_LIMIT, notice_payload
from bot.sessions.errors import SessionError
from bot.sessions.hours import ReminderPayload, reminder_step
from bot.sessions.movers import Movers
from bot.sessions.pace import judge_late, read_clocks
from bot.sessions.moves import Moves
from bot.sessions.reminding import reminder_post
from bot.sessions.models import (
    Outcome,
    Reminder,
)
from bot.sessions.settings import REMINDER_CAP_SECONDS, REPLIES, GameSettings
from bot.store import StaleVersion, TimerRow, retries_conflicts
from games.core import Event, IllegalAction


class _NotHeld(Exception):
    """The timer being fired is no longer this process's (rescheduled, or taken over)."""


class Timers:
    """Reminders, deadlines, lapses and the bots' timers of the games, fired by whichever
    process claims them."""

    def __init__(self, core: Core, commit: Commit, movers: Movers, moves: Moves) -> None:
        self.core = core
        self.commit = commit
        self.movers = movers
        self.moves = moves

    # ==================================================================================
    # timers
    # ==================================================================================
    async def _claim(self, kind: str, lease: float | None) -> tuple[list[TimerRow], float, str]:
        """Claim the due timers of `kind` for this process; give up the ones that outlived
        their holders. Returns the others, the time of the sweep and this process's id."""
        now = self.core.clock()
        owner = self.core.deliveries.owner
        claimed = await self.core.store.claim_timers(kind, owner, now, lease or self.core.deliveries.lease)
        timers: list[TimerRow] = []
        for timer in claimed:
            if timer.takeovers < TAKEOVER_LIMIT:
                timers.append(timer)
                continue
            try:
                await self._give_up_timer(timer, now, owner)
            except Exception:  # noqa: BLE001 - one game's trouble must not stop the others
                log.exception("%s timer of game %s could not be given up", kind, timer.game_id)
        return timers, now, owner

    async def due_reminders(self, lease: float | None = None) -> list[Reminder]:
        """Reminders due now, claimed for this process for `lease` seconds (the service's
        default without one). Each is also written to the outbox (kind 'reminder') in the
        transaction that schedules the next one, so a crash cannot lose or repeat it."""
        timers, now, owner = await self._claim("reminder", lease)
        reminders: list[Reminder] = []
        for timer in timers:
            try:
                reminder = await self._fire_reminder(timer.game_id, now, owner)
            except Exception:  # noqa: BLE001 - one game's trouble must not stop the others
                log.exception("reminder for game %s failed", timer.game_id)
                continue
            if reminder is not None:
                reminders.append(reminder)
        return reminders

    @retries_conflicts
    async def _fire_reminder(self, game_id: int, now: float, owner: str) -> Reminder | None:
        async with self.core.store.write() as tx:
            # the game before its timer, as a move locks them (PostgreSQL: no deadlock)
            row = await tx.get_game(game_id)
            timer = await tx.hold_timer(game_id, "reminder", owner)
            if timer is None:
                # a move reset it meanwhile (which ends the claim), or this process was too
                # slow and another one took it over after the lease ran out
                log.info("reminder of game %s: no longer this process's to fire", game_id)
                return None
            if timer.due_at > now:
                await tx.release_timer(game_id, "reminder", owner)
                return None
            if row is None or row.status != "active":
                await tx.delete_timers(game_id)
                return None
            try:
                ld = self.core.load(row, await tx.seats(game_id))
                active = sorted(ld.game.active_players(ld.state))
            except SessionError:
                await tx.set_timer(game_id, "reminder", now + REMINDER_CAP_SECONDS, timer.attempt)
                return None
            payload = ReminderPayload.of(timer.payload_json)
            quiet = ld.settings.quiet_hours
            if quiet is not None and quiet.contains(now):  # the channel's quiet hours (the host's)
                await tx.set_timer(game_id, "reminder", quiet.end_after(now), timer.attempt,
                                   payload.model_dump(mode="json"))
                return None
            movers = await self.movers.automatic(tx, ld, ld.state, active, ld.seats)
            # an answer that lapses is not reminded of: its 'lapse' timer closes it instead
            lapsing = lapsing_answers(ld.game, ld.state, active, ld.seats, movers) if has_lapses(ld.game) else {}
            humans = [s for s in active if s < len(ld.seats) and ld.seats[s].user_id and s not in movers
                      and s not in lapsing]
            if not humans:  # only bots or orders to wait on: run_bots is the cure, not a ping
                await tx.set_timer(game_id, "reminder", now + ld.settings.reminder_interval(0),
                                   timer.attempt)
                return None
            user_ids = [u for u in (ld.seats[s].user_id for s in humans) if u]
            prefs = await tx.prefs_for(user_ids)
            # each person's own hours: the asleep are reminded at their morning (bot/sessions/hours.py)
            step = reminder_step(user_ids, prefs, now, attempt=timer.attempt, payload=payload,
                                 due_at=timer.due_at, interval=ld.settings.reminder_interval)
            await tx.set_timer(game_id, "reminder", step.due_at, step.attempt, step.payload.model_dump(mode="json"))
            if not step.ping:
                return None
            user_ids, attempt = step.ping, step.attempt
            # where nothing may be posted in the channel unprompted, a DM is the only reminder
            dm = [u for u in user_ids if prefs[u].dm_reminders or ld.settings.delivery == REPLIES]
            since = row.last_move_at or row.updated_at
            params = {"seats": humans, "hours": max(0, int((now - since) // 3600))}
            post = reminder_post(ld, waiting=humans, ping=user_ids, dm=dm, prefs=prefs, attempt=attempt,
                                 hours=params["hours"]).model_dump(mode="json")
            outbox_id = await tx.add_outbox(row.id, "reminder", post, now)
            return Reminder(
                game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
                locale=row.locale, names=ld.names, user_ids=user_ids,
                dm_user_ids=dm, attempt=attempt, key="reminder.waiting", params=params,
                outbox_id=outbox_id,
            )

    async def run_deadlines(self, lease: float | None = None) -> list[Outcome]:
        """For every game whose deadline passed (claimed for this process for `lease`
        seconds): play one timeout move (or the first bot's choice, per settings) for each
        human seat it waits on. Each move is announced with a public 'session.timeout_move'
        event first in its events."""
        lease = lease or self.core.deliveries.lease
        timers, now, owner = await self._claim("deadline", lease)
        outcomes: list[Outcome] = []
        for timer in timers:
            try:
                outcomes += await self._fire_deadline(timer.game_id, now, owner, lease)
            except SessionError as exc:
                log.error("deadline for game %s: %s", timer.game_id, exc)
                await self._end_firing(timer.game_id, "deadline", owner, due_at=now + REMINDER_CAP_SECONDS)
            except Exception:  # noqa: BLE001
                log.exception("deadline for game %s failed", timer.game_id)
        return outcomes

    @retries_conflicts
    async def _end_firing(self, game_id: int, kind: str, owner: str, *, due_at: float | None = None,
                          drop: bool = False) -> None:
        """Finish firing a timer this process still holds: reschedule it to `due_at`, delete
        it (`drop`), or else give it back as it is (a deadline firing rescheduled it already)."""
        async with self.core.store.write() as tx:
            if await tx.hold_timer(game_id, kind, owner) is None:
                return
            if drop:
                await tx.delete_timers(game_id, kind)
            elif due_at is not None:
                await tx.set_timer(game_id, kind, due_at)
            else:
                await tx.release_timer(game_id, kind, owner)

    async def _fire_deadline(self, game_id: int, now: float, owner: str, lease: float) -> list[Outcome]:
        # a first look, to do nothing for a deadline already reset (a move ends the claim) or
        # taken over; what counts is the check in each move's own transaction
        async with self.core.store.read() as tx:
            timer = await tx.get_timer(game_id, "deadline")
            row = await tx.get_game(game_id)
        if timer is None or timer.claimed_by != owner:
            return []
        if timer.due_at > now or row is None:
            await self._end_firing(game_id, "deadline", owner)
            return []
        if row.status != "active":
            await self._end_firing(game_id, "deadline", owner, drop=True)
            return []
        ld, _ = await self.core.read_id(game_id)
        active = sorted(ld.game.active_players(ld.state))
        # whose time is up: a bank that ran out, or the turn's deadline passed (in a person's
        # own night it runs out at their morning; in their away time, a whole deadline after
        # their return: bot/sessions/pace.py)
        people = {s: str(ld.seats[s].user_id) for s in active if s < len(ld.seats) and ld.seats[s].user_id}
        async with self.core.store.read() as tx:
            prefs = await tx.prefs_for(people.values())
            clocks = await read_clocks(tx, ld)
        hours, start = ld.settings.deadline_hours, ld.row.last_move_at
        # the turn's deadline; a deadline timer in a game with neither a turn deadline nor time
        # banks (set by a host tool or by hand) is itself the deadline
        turn_due = (start + hours * 3600.0 if hours and start is not None
                    else timer.due_at if clocks is None and not hours else None)
        judged = judge_late({s: prefs[u] for s, u in people.items()}, now, turn_start=start, turn_due=turn_due,
                            deadline_hours=hours, clocks=clocks)
        late = judged.late
        outcomes: list[Outcome] = []
        for seat in late:
            # One action per late seat and deadline: the commit restarts the deadline, so a
            # turn of several steps is finished by later deadlines, and a new turn that
            # happens to fall to the same seat gets its full time.
            try:
                outcome = await self._deadline_move(game_id, seat, owner, lease)
            except (_NotHeld, StaleVersion):
                # a player moved just now (their move reset the timers), or this process
                # stalled past its lease and another one took the deadline over
                log.info("deadline of game %s: no longer this process's to fire", game_id)
                return outcomes
            if outcome is not None:
                outcomes.append(outcome)
        if outcomes:
            await self._end_firing(game_id, "deadline", owner)
        elif judged.next_due is not None:
            await self._end_firing(game_id, "deadline", owner, due_at=max(judged.next_due, now + 1.0))
        elif ld.settings.deadline_hours:
            await self._end_firing(game_id, "deadline", owner, due_at=now + ld.settings.deadline_hours * 3600.0)
        else:
            await self._end_firing(game_id, "deadline", owner, drop=True)
        return outcomes

    @retries_conflicts
    async def _deadline_move(self, game_id: int, seat: int, owner: str, lease: float) -> Outcome | None:
        """The deadline's move for one late seat, if the game still waits on it and no bot or
        standing order moves for it; committed only while this process holds the deadline
        (else _NotHeld), which it then keeps for the next late seat."""
        ld, _ = await self.core.read_id(game_id)
        if ld.row.status != "active" or seat not in ld.game.active_players(ld.state):
            return None
        if ld.seats[seat].bot:
            return None  # kicked meanwhile: the bot plays it (run_bots)
        async with self.core.store.read() as tx:
            if seat in await self.movers.automatic(tx, ld, ld.state, [seat], ld.seats):
                return None  # the rules or the seat's standing orders make its move (run_bots)
        forfeit = ld.settings.deadline_action == "forfeit"
        if ld.settings.deadline_action in ("bot", "forfeit"):
            bot_names = self.core.bot_names(ld.game)
            action, applied = self.moves.bot_move(ld, seat, bot_names[0] if bot_names else None, salt="deadline")
        else:
            try:
                action = ld.game.timeout_action(ld.state, seat)
                applied = ld.game.apply(ld.state, seat, action)
            except IllegalAction as exc:
                log.warning("game %s: no timeout action for seat %s (%s)", game_id, seat, exc)
                return None
        events = [Event(key="session.timeout_move",
                        params={"seat": seat, "notation": ld.game.public_notation(action)}), *applied.events]
        seats = ld.seats
        async with self.core.store.write() as tx:
            await tx.get_game(game_id)  # the game before its timer, as a move locks them
            if await tx.hold_timer(game_id, "deadline", owner) is None:
                raise _NotHeld
            now = self.core.clock()
            if forfeit and seats[seat].user_id:
                # the player forfeits (placed last in the result: bot/sessions/results.py) and
                # the game goes on without them, a bot in their seat
                player = seats[seat]
                bot = (self.core.bot_names(ld.game) or [None])[0]
                await tx.add_forfeit(game_id, seat, str(player.user_id), player.display_name, now)
                await tx.update_seat(game_id, seat, user_id=None, bot=bot, display_name=player.display_name)
                await tx.clear_standing_orders(game_id, seat)
                seats = await tx.seats(game_id)
                events.insert(0, Event(key="session.forfeited", params={"seat": seat}))
            outcome = await self.commit.commit(
                tx, ld, applied.state, kind="move", now=now, seat=seat,
                notation=ld.game.format_action(action), events=events, undoable=False,
                actor_user_id=None, auto="deadline", seats=seats,
            )
            # the commit restarted the deadline, which ended the claim: held again for the
            # next late seat of this firing
            await tx.retain_timer(game_id, "deadline", owner, now + lease)
            return outcome

    # ==================================================================================
    # answers that lapse
    # ==================================================================================
    async def run_lapses(self, lease: float | None = None) -> list[Outcome]:
        """For every game whose 'lapse' timer is due (claimed for this process for `lease`
        seconds): make every answer still missing that lapses (Game.lapse_action), in one
        transaction. The caller hands each outcome on as after any move (its post, the bots)."""
        timers, now, owner = await self._claim("lapse", lease)
        outcomes: list[Outcome] = []
        for timer in timers:
            try:
                outcomes += await self._fire_lapse(timer.game_id, now, owner)
            except SessionError as exc:
                log.error("lapse for game %s: %s", timer.game_id, exc)
                await self._end_firing(timer.game_id, "lapse", owner, due_at=now + REMINDER_CAP_SECONDS)
            except Exception:  # noqa: BLE001 - one game's trouble must not stop the others
                log.exception("lapse for game %s failed", timer.game_id)
                await self._end_firing(timer.game_id, "lapse", owner, due_at=now + REMINDER_CAP_SECONDS)
        return outcomes

    @retries_conflicts
    async def _fire_lapse(self, game_id: int, now: float, owner: str) -> list[Outcome]:
        async with self.core.store.write() as tx:
            row = await tx.get_game(game_id)  # the game before its timer, as a move locks them
            timer = await tx.hold_timer(game_id, "lapse", owner)
            if timer is None:
                log.info("lapse of game %s: no longer this process's to fire", game_id)
                return []
            if timer.due_at > now:
                await tx.release_timer(game_id, "lapse", owner)
                return []
            if row is None or row.status != "active":
                await tx.delete_timers(game_id, "lapse")
                return []
            ld = self.core.load(row, await tx.seats(game_id))
            quiet = ld.settings.quiet_hours
            if quiet is not None and quiet.contains(now):
                await tx.set_timer(game_id, "lapse", quiet.end_after(now))
                return []
            game = ld.game
            outcomes: list[Outcome] = []
            while True:
                waiting = sorted(game.active_players(ld.state))
                movers = await self.movers.automatic(tx, ld, ld.state, waiting, ld.seats)
                lapsing = lapsing_answers(game, ld.state, waiting, ld.seats, movers)
                if not lapsing:
                    break
                seat, action = next(iter(lapsing.items()))
                applied = game.apply(ld.state, seat, action)
                # The rules fix a lapsed answer from public facts (Game.lapse_action): its words
                # may be told as they are.
                words = game.describe_action(ld.state, seat, action).model_dump(mode="json", exclude={"to"})
                outcome = await self.commit.commit(
                    tx, ld, applied.state, kind="move", now=now, seat=seat, notation=game.format_action(action),
                    events=[Event(key="session.lapsed_move", params={"seat": seat, "move": words}),
                            *applied.events],
                    undoable=False, actor_user_id=None, auto="lapsed",
                )
                outcomes.append(outcome)
                ld = Loaded(row=row.model_copy(update={"version": outcome.version, "status": outcome.status}),
                             seats=ld.seats, game=game, settings=ld.settings, options=ld.options, state=applied.state)
                if outcome.status != "active":
                    break
            if not outcomes:  # nothing lapses any more (the last commit keeps the timer right otherwise)
                await tx.delete_timers(game_id, "lapse")
            return outcomes

    # ==================================================================================
    # bots whose process died
    # ==================================================================================
    async def due_bots(self, lease: float | None = None) -> list[int]:
        """The games whose bots (or standing orders) are due to move and that no live process
        is moving: their 'bots' timers, claimed for this process for `lease` seconds. The
        caller moves them (`run_bots`; each move renews the claim, and the last one drops
        the timer). A timer that outlived its holders is given up instead (the host is told)."""
        timers, _now, _owner = await self._claim("bots", lease)
        return [t.game_id for t in timers]

    # ==================================================================================
    # giving up a timer that kills its holders
    # ==================================================================================
    @retries_conflicts
    async def _give_up_timer(self, timer: TimerRow, now: float, owner: str) -> None:
        """See the module's docstring: a reminder dropped, a deadline or the bots left
        undone with the host told."""
        game_id, kind = timer.game_id, timer.kind
        async with self.core.store.write() as tx:
            row = await tx.get_game(game_id)  # the game before its timer, as a move locks them
            if await tx.hold_timer(game_id, kind, owner) is None:
                return  # rescheduled by a move meanwhile: a new timer, not this one
            log.error("game %s: its %s timer was taken over %d times in a row (each holder's lease ran out"
                      " while it fired it): given up", game_id, kind, timer.takeovers)
            if row is None or row.status != "active":
                await tx.delete_timers(game_id)
                return
            if kind == "reminder":
                attempt = timer.attempt + 1
                try:
                    interval = GameSettings.model_validate_json(row.settings_json).reminder_interval(attempt)
                except ValidationError:
                    interval = REMINDER_CAP_SECONDS
                await tx.set_timer(game_id, kind, now + interval, attempt)
                return
            await tx.delete_timers(game_id, kind)
            contact = await tx.delivery_contact(game_id)
            if contact is not None:
                await tx.queue_notice(game_id, kind, notice_payload(contact, kind), now)
