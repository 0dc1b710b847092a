"""Timers: reminders for whoever the game waits on, and deadlines that move for late players."""
from __future__ import annotations



from bot.sessions.core import log
from bot.sessions.errors import SessionError
from bot.sessions.posting import ReminderPost
from bot.sessions.models import (
    Outcome,
    Reminder,
)
from bot.sessions.settings import REMINDER_CAP_SECONDS
from bot.store import StaleVersion
from games.core import Event, IllegalAction
from bot.sessions.orders import OrderService


class TimerService(OrderService):
    # ==================================================================================
    # timers
    # ==================================================================================
    async def due_reminders(self) -> list[Reminder]:
        """Reminders due now. Each is also written to the outbox (kind 'reminder') in the
        transaction that schedules the next one, so a crash cannot lose or repeat it."""
        now = self.clock()
        async with self.store.read() as tx:
            timers = await tx.due_timers("reminder", now)
        reminders: list[Reminder] = []
        for timer in timers:
            try:
                reminder = await self._fire_reminder(timer.game_id, now)
            except Exception:  # noqa: BLE001 - one game's trouble must not stop the others
                log.exception("reminder for game %s failed", timer.game_id)
                continue
            if reminder is not None:
                reminders.append(reminder)
        return reminders

    async def _fire_reminder(self, game_id: int, now: float) -> Reminder | None:
        async with self.store.write() as tx:
            timer = await tx.get_timer(game_id, "reminder")
            if timer is None or timer.due_at > now:
                return None  # a move reset it meanwhile
            row = await tx.get_game(game_id)
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

    async def run_deadlines(self) -> list[Outcome]:
        """For every game whose deadline passed: play one timeout move (or the first bot's
        choice, per settings) for each human seat it waits on. Each move is announced with a
        public 'session.timeout_move' event first in its events."""
        now = self.clock()
        async with self.store.read() as tx:
            timers = await tx.due_timers("deadline", now)
        outcomes: list[Outcome] = []
        for timer in timers:
            try:
                outcomes += await self._fire_deadline(timer.game_id, now)
            except SessionError as exc:
                log.error("deadline for game %s: %s", timer.game_id, exc)
                await self._postpone_deadline(timer.game_id, now + REMINDER_CAP_SECONDS)
            except Exception:  # noqa: BLE001
                log.exception("deadline for game %s failed", timer.game_id)
        return outcomes

    async def _postpone_deadline(self, game_id: int, due_at: float) -> None:
        async with self.store.write() as tx:
            if await tx.get_timer(game_id, "deadline") is not None:
                await tx.set_timer(game_id, "deadline", due_at)

    async def _fire_deadline(self, game_id: int, now: float) -> list[Outcome]:
        async with self.store.read() as tx:
            timer = await tx.get_timer(game_id, "deadline")
            row = await tx.get_game(game_id)
        if timer is None or timer.due_at > now or row is None:
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
            await self._postpone_deadline(game_id, now + ld.settings.deadline_hours * 3600.0)
        elif not outcomes:
            async with self.store.write() as tx:
                await tx.delete_timers(game_id, "deadline")
        return outcomes
