"""The one place a change to a running game is committed, and the timers a change decides.

`Commit.commit` writes one change (a start, a move, an undo, a kick) in the caller's write
transaction, guarded by the version the caller read: the new snapshot, the action log row,
the game's timers, the outbox row that posts it; and returns the Outcome. Who is pinged
depends on who moves without being asked (bot/sessions/movers.py): a seat whose move the
rules force, or whose standing orders move, is not pinged, and its move is due work.
"""
from __future__ import annotations

from typing import Any

from bot.sessions.core import (
    Core, Loaded, bots_waited_on, dump_events, has_lapses, lapsing_answers, public_menu, public_notation, split_events,
)
from bot.sessions.models import Outcome
from bot.sessions.hours import awake_of, reminder_timer
from bot.sessions.standings import after_game_ends
from bot.sessions.movers import Movers
from bot.sessions.pace import advance_clocks, bank_due, local_clocks, pace_of
from bot.sessions.posting import AbandonedPost, GamePost
from bot.sessions.results import Results
from bot.sessions.settings import CHANNEL, REPLIES, GameSettings
from bot.store import GameRow, SeatRow, Tx, UserPrefs
from games.core import Event


def delivery_of(row: GameRow) -> str:
    """The game's GameSettings.delivery; a game whose settings cannot be read posts in its
    channel, as every game did before there was a choice."""
    try:
        return GameSettings.model_validate_json(row.settings_json).delivery
    except ValueError:
        return CHANNEL


class Commit:
    """Writes changes to running games (see the module's docstring)."""

    def __init__(self, core: Core, movers: Movers, results: Results) -> None:
        self.core = core
        self.movers = movers
        self.results = results

    async def reset_timers(self, tx: Tx, game_id: int, settings: GameSettings, now: float,
                           asleep: list[str] | None = None, prefs: dict[str, UserPrefs] | None = None,
                           bank_runs_out: float | None = None) -> None:
        """A new turn's timers; `asleep`: the people it waits on who are in their own night, not
        pinged now, so the first reminder comes at their morning (bot/sessions/hours.py). The
        deadline is the turn's (settings) or the first running time bank's end, whichever
        comes first (bot/sessions/clocks.py)."""
        due, payload = reminder_timer(now + settings.reminder_interval(0), asleep or [], prefs or {}, now)
        await tx.set_timer(game_id, "reminder", due, 0, payload.model_dump(mode="json"))
        ends = [t for t in (now + settings.deadline_hours * 3600.0 if settings.deadline_hours else None,
                            bank_runs_out) if t is not None]
        if ends:
            await tx.set_timer(game_id, "deadline", min(ends))
        else:
            await tx.delete_timers(game_id, "deadline")

    async def schedule_bots(self, tx: Tx, game_id: int, due: bool, now: float) -> None:
        """The game's 'bots' timer, in the transaction of the change that decides it: due now
        when a bot or a standing order moves next, held by this process, which moves them
        (the caller's `run_bots`); none otherwise. Should this process die before they have
        moved, its lease runs out and another process's sweep takes the timer over
        (`due_bots`), so a game never waits on its bots for a process to restart."""
        if due:
            await tx.set_timer(game_id, "bots", now, holder=self.core.deliveries.owner,
                               held_until=now + self.core.deliveries.lease)
        else:
            await tx.delete_timers(game_id, "bots")


    @staticmethod
    async def post_abandoned(tx: Tx, row: GameRow, seats: list[SeatRow], version: int, event: Event,
                              now: float) -> None:
        """The outbox row that tells a game's channel it was closed without a result (by its
        host, or a lobby nobody started) and takes the buttons off its live board; and, for a
        game in a forum post, the post's tag saying it is over."""
        post = AbandonedPost(game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
                             version=version, locale=row.locale, names=[s.display_name for s in seats],
                             events=[event], delivery=delivery_of(row))
        await tx.add_outbox(row.id, "abandoned", post.model_dump(mode="json"), now)
        await after_game_ends(tx, row.id, now)  # a league's round may end with it
        await post_forum_status(tx, row, "finished", now)

    async def commit(
        self,
        tx: Tx,
        ld: Loaded,
        new_state: Any,
        *,
        kind: str,
        now: float,
        seat: int | None = None,
        notation: str | None = None,
        events: list[Event] | None = None,
        undoable: bool = False,
        actor_user_id: str | None = None,
        auto: str | None = None,
        undoes_seq: int | None = None,
        seats: list[SeatRow] | None = None,
        host_user_id: str | None = None,
    ) -> Outcome:
        """Write one change in the caller's write transaction; raise StaleVersion if the game
        moved on since `ld` was read. `kind`: start / move / undo / kick."""
        game, row = ld.game, ld.row
        seats = seats if seats is not None else ld.seats
        events = list(events or [])
        result = game.result(new_state)
        status = "finished" if result is not None else "active"
        fields: dict[str, Any] = {"snapshot": game.dump_state(new_state), "status": status}
        if kind in ("start", "move", "undo"):
            fields["last_move_at"] = now
        if host_user_id is not None:
            fields["host_user_id"] = host_user_id
        version = await tx.update_game(row.id, row.version, now, **fields)

        public, private = split_events(events)
        seq: int | None = None
        if kind in ("move", "undo"):
            assert seat is not None and notation is not None
            seq = await tx.append_action(
                row.id, seat=seat, kind=kind, notation=notation, events=dump_events(public),
                undoable=undoable, actor_user_id=actor_user_id, now=now, auto=auto,
                undoes_seq=undoes_seq,
            )
        if status == "finished":
            await tx.delete_timers(row.id)
            await tx.clear_standing_orders(row.id)
            assert result is not None
            await self.results.record(tx, ld, seats, result, now)  # the result kept, the server's ratings
            await after_game_ends(tx, row.id, now)  # a league's round may end with it
            waiting: list[int] = []
        else:
            waiting = sorted(game.active_players(new_state))
        # a seat whose standing orders will move is not pinged: run_bots makes its move
        movers = await self.movers.automatic(tx, ld, new_state, waiting, seats, tidy=True) if waiting else frozenset()
        people = {s: str(seat.user_id) for s, seat in enumerate(seats) if seat.user_id}
        charged = [s for s in waiting if s in people and s not in movers]  # waited on in person
        mention = [people[s] for s in charged]
        pace, clocks_of_day = [], []
        if status != "finished":
            prefs = await tx.prefs_for(people.values()) if people else {}
            by_seat = {s: prefs.get(u) for s, u in people.items()}
            clocks = await advance_clocks(tx, ld, charged, by_seat, now)
            pace = pace_of(clocks, by_seat, len(seats), now)
            clocks_of_day = local_clocks({s: people[s] for s in charged}, prefs, now)
            # nobody is pinged in their own night (named on the post, reminded at their
            # morning), nor while away or if they chose the daily digest
            mention, sleeping = awake_of(mention, prefs, now)
            await self.reset_timers(tx, row.id, ld.settings, now, sleeping, prefs,
                                    bank_due(clocks, charged, by_seat))
        bots_next = bots_waited_on(seats, waiting) or bool(movers)
        if status != "finished":
            await self.schedule_bots(tx, row.id, bots_next, now)
            if has_lapses(game):
                await self.schedule_lapse(tx, ld, bool(lapsing_answers(game, new_state, waiting, seats, movers)), now)
        view = game.view(new_state, None)
        menu = public_menu(game, new_state, waiting)
        names = [s.display_name for s in seats]
        post = GamePost(
            game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
            version=version, kind=kind, locale=row.locale, names=names, seat=seat,
            notation=public_notation(ld.game, notation) if notation else notation, auto=auto,
            events=public, waiting=waiting, mention_user_ids=mention,
            view=view.model_dump(mode="json"), menu=menu, finished=status == "finished", result=result,
            pace=pace, clocks=clocks_of_day, delivery=ld.settings.delivery,
            rematch_thread=status == "finished" and row.guild_id is not None and ld.settings.forum_id is None
            and ld.settings.delivery != REPLIES, public_table=ld.settings.public_table,
            # where the channel takes nothing unprompted, the result reaches the players by DM
            dm_user_ids=list(dict.fromkeys(people.values())) if status == "finished" and ld.settings.delivery == REPLIES else [],
        )
        payload = post.model_dump(mode="json")
        outbox_id = await tx.add_outbox(row.id, kind, payload, now)
        if kind == "start" or status == "finished":
            await post_forum_status(tx, row, "finished" if status == "finished" else "playing", now,
                                    settings=ld.settings)
        if seq is not None or status == "finished":
            await self._tell_followers(tx, row.id, payload, seq, status == "finished", now)
        return Outcome(
            game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
            version=version, status=status, locale=row.locale, names=names,
            seat_user_ids=[s.user_id for s in seats], kind=kind, seat=seat, notation=notation,
            auto=auto, seq=seq, public_events=public, private_events=private, waiting=waiting,
            mention_user_ids=mention, bots_next=bots_next, orders_next=bool(movers), view=view,
            result=result, outbox_id=outbox_id, post=post,
        )

    @staticmethod
    async def _tell_followers(tx: Tx, game_id: int, payload: dict[str, Any], seq: int | None, finished: bool,
                              now: float) -> None:
        """A DM to each follower of the game (/game follow) whom this change concerns: at its end,
        and every `every` moves for those who asked. The post is the public one (the
        spectators' view, public events only), as a row of no game, so the game's own posts
        never wait on someone's closed DMs."""
        for user_id, every, locale in await tx.followers(game_id):
            if finished or (every and seq is not None and seq % every == 0):
                await tx.add_outbox(None, "followed", {"user_id": user_id, "locale": locale, "post": payload}, now)

    async def schedule_lapse(self, tx: Tx, ld: Loaded, lapsing: bool, now: float) -> None:
        """The game's 'lapse' timer, in the transaction of the change that decides it: while
        the game waits on answers that lapse (Game.lapse_action), one timer due the game's
        reminder delay after the first of them was waited on (an answer given meanwhile does
        not put it off: the offer is as old as it is); none otherwise."""
        if not lapsing:
            await tx.delete_timers(ld.row.id, "lapse")
        elif await tx.get_timer(ld.row.id, "lapse") is None:
            await tx.set_timer(ld.row.id, "lapse", now + ld.settings.reminder_interval(0))


FORUM_STATUSES = ("lobby", "playing", "finished")


async def post_forum_status(tx: Tx, row: GameRow, status: str, now: float,
                            settings: GameSettings | None = None) -> None:
    """For a game in a forum post the bot opened (GameSettings.forum_id), the outbox row
    that sets the post's status tag, in the transaction of the change that makes it true:
    so the tag follows the game whatever process delivers it, and after the change's own
    post (one game's rows go in order). An abandoned game's post is tagged finished: it
    is over, nothing in it to join or play. Nothing for any other game."""
    if settings is None:
        try:
            settings = GameSettings.model_validate_json(row.settings_json)
        except ValueError:  # settings that cannot be read: the game is being cleared away
            return
    if settings.forum_id is None:
        return
    assert status in FORUM_STATUSES
    await tx.add_outbox(row.id, "forum_status", {"channel_id": row.channel_id, "forum_id": settings.forum_id,
                                                 "guild_id": row.guild_id, "status": status,
                                                 "locale": row.locale}, now)
