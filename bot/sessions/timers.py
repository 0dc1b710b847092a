"""Timers: reminders for whoever the game waits on, and deadlines that move for late players.

Several processes may run these sweeps on one database at the same time. Each sweep claims
the due timers it fires (`claim_timers`, under the process's owner id with a lease), so a
timer is fired by one process; firing checks the claim in the transaction that fires it
(`hold_timer`), and rescheduling or deleting the timer ends the claim. A process that dies
holding a claim just leaves it to run out: the timer is then due for the others again. A
reminder is written to the outbox in the same transaction that reschedules it, so it is
posted once whoever fires it; a deadline's moves are guarded by the game's version.
"""
from __future__ import annotations

from bot.sessions.core import log
from bot.sessions.errors import SessionError
from bot.sessions.posting import ReminderPost
from bot.sessions.models import (
    Outcome,
    Reminder,
)
from bot.sessions.settings import REMINDER_CAP_SECONDS
from bot.store import StaleVersion, retries_conflicts
from games.core import Event, IllegalAction
from bot.sessions.orders import OrderService


class TimerService(OrderService):
    # ==================================================================================
    # timers
    # ==================================================================================
    async def due_reminders(self, lease: float | None = None) -> list[Reminder]:
        """Reminders due now, claimed for this process for `lease` seconds (the service's
        default without one). Each is also written to the outbox (kind 'reminder') in the
        transaction that schedules the next one, so a crash cannot lose or repeat it."""
        now = self.clock()
        owner = self.deliveries.owner
        timers = await self.store.claim_timers("reminder", owner, now, lease or self.deliveries.lease)
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
        async with self.store.write() as tx:
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
                ld = self._load(row, await tx.seats(game_id))
                active = sorted(ld.game.active_players(ld.state))
            except SessionError:
                await tx.set_timer(game_id, "reminder", now + REMINDER_CAP_SECONDS, timer.attempt)
                return None
            quiet = ld.settings.quiet_hours
            if quiet is not None and quiet.contains(now):
                await tx.set_timer(game_id, "reminder", quiet.end_after(now), timer.attempt)
                return None
            movers = await self._order_movers(tx, ld, ld.state, active, ld.seats)
            humans = [s for s in active if s < len(ld.seats) and ld.seats[s].user_id and s not in movers]
            if not humans:  # only bots or orders to wait on: run_bots is the cure, not a ping
                await tx.set_timer(game_id, "reminder", now + ld.settings.reminder_interval(0),
                                   timer.attempt)
                return None
            attempt = timer.attempt + 1
            await tx.set_timer(game_id, "reminder", now + ld.settings.reminder_interval(attempt),
                               attempt)
            user_ids = [ld.seats[s].user_id for s in humans]
            prefs = await tx.prefs_for(u for u in user_ids if u)
            dm = [u for u in user_ids if u and prefs[u].dm_reminders]
            since = row.last_move_at or row.updated_at
            params = {"seats": humans, "hours": max(0, int((now - since) // 3600))}
            payload = ReminderPost(
                game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
                version=row.version, locale=row.locale, names=ld.names,
                mention_user_ids=[u for u in user_ids if u], dm_user_ids=dm, attempt=attempt,
                events=[Event(key="reminder.waiting", params=params)],
            ).model_dump(mode="json")
            outbox_id = await tx.add_outbox(row.id, "reminder", payload, now)
            return Reminder(
                game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
                locale=row.locale, names=ld.names, user_ids=[u for u in user_ids if u],
                dm_user_ids=dm, attempt=attempt, key="reminder.waiting", params=params,
                outbox_id=outbox_id,
            )

    async def run_deadlines(self, lease: float | None = None) -> list[Outcome]:
        """For every game whose deadline passed (claimed for this process for `lease`
        seconds): play one timeout move (or the first bot's choice, per settings) for each
        human seat it waits on. Each move is announced with a public 'session.timeout_move'
        event first in its events."""
        now = self.clock()
        owner = self.deliveries.owner
        timers = await self.store.claim_timers("deadline", owner, now, lease or self.deliveries.lease)
        outcomes: list[Outcome] = []
        for timer in timers:
            try:
                outcomes += await self._fire_deadline(timer.game_id, now, owner)
            except SessionError as exc:
                log.error("deadline for game %s: %s", timer.game_id, exc)
                await self._postpone_deadline(timer.game_id, now + REMINDER_CAP_SECONDS, owner)
            except Exception:  # noqa: BLE001
                log.exception("deadline for game %s failed", timer.game_id)
        return outcomes

    @retries_conflicts
    async def _postpone_deadline(self, game_id: int, due_at: float, owner: str) -> None:
        async with self.store.write() as tx:
            if await tx.hold_timer(game_id, "deadline", owner) is not None:
                await tx.set_timer(game_id, "deadline", due_at)

    async def _fire_deadline(self, game_id: int, now: float, owner: str) -> list[Outcome]:
        async with self.store.read() as tx:
            timer = await tx.get_timer(game_id, "deadline")
            row = await tx.get_game(game_id)
        if timer is None or timer.claimed_by != owner:
            return []  # reset by a move (which ends the claim), or taken over
        if timer.due_at > now or row is None:
            async with self.store.write() as tx:
                await tx.release_timer(game_id, "deadline", owner)
            return []
        if row.status != "active":
            async with self.store.write() as tx:
                await tx.delete_timers(game_id)
            return []
        ld, _ = await self._read_id(game_id)
        active = sorted(ld.game.active_players(ld.state))
        late = [s for s in active if s < len(ld.seats) and ld.seats[s].user_id]
        outcomes: list[Outcome] = []
        for seat in late:
            # One action per late seat and deadline: the commit restarts the deadline, so a
            # turn of several steps is finished by later deadlines, and a new turn that
            # happens to fall to the same seat gets its full time.
            ld, _ = await self._read_id(game_id)
            if ld.row.status != "active" or seat not in ld.game.active_players(ld.state):
                continue
            if ld.seats[seat].bot:
                continue  # kicked meanwhile: the bot plays it (run_bots)
            async with self.store.read() as tx:
                if seat in await self._order_movers(tx, ld, ld.state, [seat], ld.seats):
                    continue  # the seat's standing orders make its move (run_bots)
            if ld.settings.deadline_action == "bot":
                bot_names = self._bot_names(ld.game)
                action, applied = self._bot_move(ld, seat, bot_names[0] if bot_names else None,
                                                 salt="deadline")
            else:
                try:
                    action = ld.game.timeout_action(ld.state, seat)
                    applied = ld.game.apply(ld.state, seat, action)
                except IllegalAction as exc:
                    log.warning("game %s: no timeout action for seat %s (%s)", game_id, seat, exc)
                    continue
            notation = ld.game.format_action(action)
            events = [Event(key="session.timeout_move",
                            params={"seat": seat, "notation": ld.game.public_notation(action)}), *applied.events]
            try:
                async with self.store.write() as tx:
                    outcomes.append(await self._commit(
                        tx, ld, applied.state, kind="move", now=self.clock(), seat=seat,
                        notation=notation, events=events, undoable=False,
                        actor_user_id=None, auto="deadline",
                    ))
            except StaleVersion:
                return outcomes  # a player moved just now; their move reset the timers
        if not outcomes and ld.settings.deadline_hours:
            await self._postpone_deadline(game_id, now + ld.settings.deadline_hours * 3600.0, owner)
        elif not outcomes:
            async with self.store.write() as tx:
                if await tx.hold_timer(game_id, "deadline", owner) is not None:
                    await tx.delete_timers(game_id, "deadline")
        return outcomes
