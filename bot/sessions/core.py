"""The sessions service's core: loading a game, the helpers every part uses, and the one
place a change to a running game is committed (`_commit`).

Shape of a move: read the game (one short read transaction), validate and apply it through
the rules with no lock held, then write action + snapshot + timers + outbox in one
`BEGIN IMMEDIATE` transaction guarded by the version that was read. If another writer got
there first the guard fails (StaleVersion) and nothing is written.

Errors for the user are SessionError(code, **params) or the rules' IllegalAction, both
with catalog keys; a game whose stored data cannot be loaded raises
SessionError('game_corrupt', game_id=...) and is never allowed to disturb other games.
"""
from __future__ import annotations

import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel, TypeAdapter, ValidationError

from bot.sessions.delivery import Deliveries
from bot.sessions.errors import SessionError
from bot.sessions.posting import AbandonedPost, GamePost
from bot.sessions.models import (
    Actor,
    GameInfo,
    Outcome,
    PublicMenu,
    SeatInfo,
)
from bot.sessions.settings import GameSettings
from bot.store import CLAIM_LEASE, ActionRow, GameRow, SeatRow, StoreBackend, Tx
from games import registry
from games.core import Event, Game, IllegalAction
from games.core.typed import resolve as resolve_typed

log = logging.getLogger("railyard.sessions")

_RETRIES = 3  # re-reads when a write without an expected version loses a race


@dataclass
class _Loaded:
    row: GameRow
    seats: list[SeatRow]
    game: Game
    settings: GameSettings
    options: dict[str, Any]
    state: Any = None  # the game's state model; None in the lobby

    @property
    def names(self) -> list[str]:
        return [s.display_name for s in self.seats]

    @property
    def user_ids(self) -> list[str | None]:
        return [s.user_id for s in self.seats]

    def seat_of(self, user_id: str) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None


def _corrupt(row: GameRow, why: str, exc: BaseException | None = None) -> SessionError:
    log.error("game %s (%s in channel %s) is corrupt: %s%s", row.id, row.game, row.channel_id,
              why, f": {exc!r}" if exc else "")
    return SessionError("game_corrupt", game_id=row.id)


def not_running(row: GameRow) -> SessionError:
    """What to tell someone who asks for a move, a hand or an undo of `row`, a game that is
    not under way: its lobby is still open, or the channel's last game is over, was
    abandoned, or closed in its lobby before it started."""
    if row.status == "lobby":
        return SessionError("not_active_game", reason="lobby")
    if row.status == "finished":
        return SessionError("no_game_here", reason="finished")
    return SessionError("no_game_here", reason="closed" if row.snapshot is None else "abandoned")


async def no_open_game(tx: Tx, channel_id: str) -> SessionError:
    """The refusal for a channel without an open game: plain when it never had one, else
    saying what became of its last game."""
    latest = await tx.latest_game(channel_id)
    return SessionError("no_game_here") if latest is None else not_running(latest)


def _split_events(events: list[Event]) -> tuple[list[Event], dict[int, list[Event]]]:
    public: list[Event] = []
    private: dict[int, list[Event]] = {}
    for event in events:
        if event.to is None:
            public.append(event)
        else:
            for seat in event.to:
                private.setdefault(seat, []).append(event)
    return public, private


def _public(game: Game | None, notation: str) -> str:
    """A logged move as everyone may read it: secret details (kept tickets) left out."""
    if game is None:
        return notation
    try:
        return game.public_notation(game.parse_action(notation))
    except IllegalAction:  # a log line that no longer parses is shown as it is
        return notation


def _dump_events(events: list[Event]) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json") for e in events]


class ServiceCore:
    def __init__(
        self,
        store: StoreBackend,
        clock: Callable[[], float] = time.time,
        *,
        new_seed: Callable[[], int] | None = None,
        lease: float = CLAIM_LEASE,
    ) -> None:
        self.store = store
        self.clock = clock
        self._new_seed = new_seed or (lambda: secrets.randbits(63))
        # the outbox as the Discord dispatcher sees it (the adapter's one way to the rows);
        # its owner id and lease are also this process's for the timers it holds
        self.deliveries = Deliveries(store, clock, lease=lease)

    # ==================================================================================
    # loading
    # ==================================================================================
    @staticmethod
    def _game_for(row: GameRow) -> Game:
        try:
            return registry.get(row.game)
        except registry.UnknownGame as exc:
            raise _corrupt(row, "unknown game name", exc) from None
        except Exception as exc:  # a broken game module must not take the others down
            raise _corrupt(row, "game module cannot be loaded", exc) from None

    def _load(self, row: GameRow, seats: list[SeatRow], *, with_state: bool = True) -> _Loaded:
        game = self._game_for(row)
        try:
            settings = GameSettings.model_validate_json(row.settings_json)
            options = json.loads(row.options_json)
            if not isinstance(options, dict):
                raise ValueError("options are not an object")
        except (ValidationError, ValueError) as exc:
            raise _corrupt(row, "options or settings cannot be read", exc) from None
        loaded = _Loaded(row=row, seats=seats, game=game, settings=settings, options=options)
        if [s.seat for s in seats] != list(range(len(seats))):
            raise _corrupt(row, "seats are not numbered 0..n-1")
        if with_state and row.status != "lobby":
            if row.snapshot is None:
                if row.status == "abandoned":
                    return loaded  # a lobby that was closed before it started
                raise _corrupt(row, "no snapshot")
            try:
                loaded.state = game.load_state(row.snapshot)
            except Exception as exc:  # junk JSON, a model that no longer validates, ...
                raise _corrupt(row, "snapshot cannot be loaded", exc) from None
        return loaded

    async def _read_channel(self, channel_id: str, *, include_closed: bool = False,
                            with_actions: bool = False) -> tuple[_Loaded, list[ActionRow]]:
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id)
            if row is None and include_closed:
                row = await tx.latest_game(channel_id)
            if row is None:
                raise await no_open_game(tx, channel_id)
            seats = await tx.seats(row.id)
            actions = await tx.actions(row.id) if with_actions else []
        return self._load(row, seats), actions

    async def _read_id(self, game_id: int, *, with_actions: bool = False) -> tuple[_Loaded, list[ActionRow]]:
        async with self.store.read() as tx:
            row = await tx.get_game(game_id)
            if row is None:
                raise SessionError("no_game_here")
            seats = await tx.seats(game_id)
            actions = await tx.actions(game_id) if with_actions else []
        return self._load(row, seats), actions

    async def _open_in_tx(self, tx: Tx, channel_id: str, *, with_state: bool = False) -> _Loaded:
        row = await tx.open_game(channel_id)
        if row is None:
            raise await no_open_game(tx, channel_id)
        return self._load(row, await tx.seats(row.id), with_state=with_state)

    # ==================================================================================
    # small helpers
    # ==================================================================================
    @staticmethod
    def _require_host(ld: _Loaded, actor: Actor, *, managers: bool = True) -> None:
        if actor.user_id == ld.row.host_user_id or (managers and actor.is_manager):
            return
        raise SessionError("not_host")

    @staticmethod
    def _lobby_seats(ld: _Loaded) -> int:
        """How many seats the lobby has: its auto-start size, else the game's maximum."""
        return ld.settings.autostart_players or ld.game.max_players

    @staticmethod
    def _info(ld: _Loaded) -> GameInfo:
        return GameInfo(
            game_id=ld.row.id,
            channel_id=ld.row.channel_id,
            guild_id=ld.row.guild_id,
            game=ld.row.game,
            status=ld.row.status,
            host_user_id=ld.row.host_user_id,
            locale=ld.row.locale,
            version=ld.row.version,
            seats=[SeatInfo(seat=s.seat, user_id=s.user_id, bot=s.bot, name=s.display_name)
                   for s in ld.seats],
            min_players=ld.game.min_players,
            max_players=ld.game.max_players,
            options=ld.options,
            settings=ld.settings,
        )

    async def _info_in_tx(self, tx: Tx, game_id: int) -> GameInfo:
        row = await tx.get_game(game_id)
        assert row is not None
        return self._info(self._load(row, await tx.seats(game_id), with_state=False))

    @staticmethod
    def _bot_names(game: Game) -> list[str]:
        try:
            return list(game.bots())
        except Exception:  # noqa: BLE001 - a game without working bots simply has none
            log.exception("%s: bots() failed", getattr(game, "name", game))
            return []

    def _bot(self, ld: _Loaded, name: str | None) -> Any:
        bots = ld.game.bots()
        if name in bots:
            return bots[name]
        if bots:  # a bot renamed or removed since the seat was made: use the default one
            log.warning("game %s: unknown bot %r, using %r", ld.row.id, name, next(iter(bots)))
            return next(iter(bots.values()))
        raise _corrupt(ld.row, f"no bot available for seat bot {name!r}")

    @staticmethod
    def _parse(game: Game, action: Any, state: Any, seat: int) -> Any:
        if isinstance(action, BaseModel):
            return action
        if isinstance(action, str):  # typed or a button's notation: read against the seat's legal moves
            return resolve_typed(game, state, seat, action)
        try:
            return TypeAdapter(game.action_model).validate_python(action)
        except ValidationError:
            raise IllegalAction("unparsable", text=str(action)) from None

    @staticmethod
    def _renumber(seats: list[SeatRow]) -> list[SeatRow]:
        ordered = sorted(seats, key=lambda s: s.joined)
        return [s.model_copy(update={"seat": i}) for i, s in enumerate(ordered)]

    async def _reset_timers(self, tx: Tx, game_id: int, settings: GameSettings, now: float) -> None:
        await tx.set_timer(game_id, "reminder", now + settings.reminder_interval(0), attempt=0)
        if settings.deadline_hours:
            await tx.set_timer(game_id, "deadline", now + settings.deadline_hours * 3600.0)
        else:
            await tx.delete_timers(game_id, "deadline")

    async def _schedule_bots(self, tx: Tx, game_id: int, due: bool, now: float) -> None:
        """The game's 'bots' timer, in the transaction of the change that decides it: due now
        when a bot or a standing order moves next, held by this process, which moves them
        (the caller's `run_bots`); none otherwise. Should this process die before they have
        moved, its lease runs out and another process's sweep takes the timer over
        (`due_bots`), so a game never waits on its bots for a process to restart."""
        if due:
            await tx.set_timer(game_id, "bots", now, holder=self.deliveries.owner,
                               held_until=now + self.deliveries.lease)
        else:
            await tx.delete_timers(game_id, "bots")

    # ==================================================================================
    # the one place a change to a running game is committed
    # ==================================================================================
    @staticmethod
    async def _post_abandoned(tx: Tx, row: GameRow, seats: list[SeatRow], version: int, event: Event,
                              now: float) -> None:
        """The outbox row that tells a game's channel it was closed without a result (by its
        host, or a lobby nobody started) and takes the buttons off its live board."""
        post = AbandonedPost(game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
                             version=version, locale=row.locale, names=[s.display_name for s in seats],
                             events=[event])
        await tx.add_outbox(row.id, "abandoned", post.model_dump(mode="json"), now)

    async def _commit(
        self,
        tx: Tx,
        ld: _Loaded,
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

        public, private = _split_events(events)
        seq: int | None = None
        if kind in ("move", "undo"):
            assert seat is not None and notation is not None
            seq = await tx.append_action(
                row.id, seat=seat, kind=kind, notation=notation, events=_dump_events(public),
                undoable=undoable, actor_user_id=actor_user_id, now=now, auto=auto,
                undoes_seq=undoes_seq,
            )
        if status == "finished":
            await tx.delete_timers(row.id)
            await tx.clear_standing_orders(row.id)
            waiting: list[int] = []
        else:
            await self._reset_timers(tx, row.id, ld.settings, now)
            waiting = sorted(game.active_players(new_state))
        # a seat whose standing orders will move is not pinged: run_bots makes its move
        movers = await self._automatic_movers(tx, ld, new_state, waiting, seats, tidy=True) if waiting else frozenset()
        mention = [seats[s].user_id for s in waiting
                   if s < len(seats) and seats[s].user_id and s not in movers]
        bots_next = _bots_waited_on(seats, waiting) or bool(movers)
        if status != "finished":
            await self._schedule_bots(tx, row.id, bots_next, now)
            if has_lapses(game):
                await self._schedule_lapse(tx, ld, bool(_lapsing(game, new_state, waiting, seats, movers)), now)
        view = game.view(new_state, None)
        menu = _public_menu(game, new_state, waiting)
        names = [s.display_name for s in seats]
        post = GamePost(
            game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
            version=version, kind=kind, locale=row.locale, names=names, seat=seat,
            notation=_public(ld.game, notation) if notation else notation, auto=auto,
            events=public, waiting=waiting, mention_user_ids=mention,
            view=view.model_dump(mode="json"), menu=menu, finished=status == "finished", result=result,
        )
        payload = post.model_dump(mode="json")
        outbox_id = await tx.add_outbox(row.id, kind, payload, now)
        return Outcome(
            game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
            version=version, status=status, locale=row.locale, names=names,
            seat_user_ids=[s.user_id for s in seats], kind=kind, seat=seat, notation=notation,
            auto=auto, seq=seq, public_events=public, private_events=private, waiting=waiting,
            mention_user_ids=mention, bots_next=bots_next, orders_next=bool(movers), view=view,
            result=result, outbox_id=outbox_id, post=post,
        )

    async def _schedule_lapse(self, tx: Tx, ld: _Loaded, lapsing: bool, now: float) -> None:
        """The game's 'lapse' timer, in the transaction of the change that decides it: while
        the game waits on answers that lapse (Game.lapse_action), one timer due the game's
        reminder delay after the first of them was waited on (an answer given meanwhile does
        not put it off: the offer is as old as it is); none otherwise."""
        if not lapsing:
            await tx.delete_timers(ld.row.id, "lapse")
        elif await tx.get_timer(ld.row.id, "lapse") is None:
            await tx.set_timer(ld.row.id, "lapse", now + ld.settings.reminder_interval(0))

    async def _automatic_movers(self, tx: Tx, ld: _Loaded, state: Any, waiting: list[int],
                                seats: list[SeatRow], *, tidy: bool = False) -> frozenset[int]:
        """The waited-on people's seats that move without being asked (`run_bots` makes their
        moves; nobody is pinged for them): a move the rules force (Game.forced_action), else
        their standing orders (`_order_movers`; `tidy` as there)."""
        forced = _forced_moves(ld.game, state, waiting, seats)
        rest = [s for s in waiting if s not in forced]
        return frozenset(forced) | (await self._order_movers(tx, ld, state, rest, seats, tidy=tidy) if rest
                                    else frozenset())

    async def _order_movers(self, tx: Tx, ld: _Loaded, state: Any, waiting: list[int],
                            seats: list[SeatRow], *, tidy: bool = False) -> frozenset[int]:
        """The waited-on seats whose standing orders will move now (bot/sessions/orders.py
        answers; here no seat has orders). With `tidy`, orders that `state` makes moot are
        removed in the caller's write transaction."""
        return frozenset()


def _forced_moves(game: Game, state: Any, waiting: list[int], seats: list[SeatRow]) -> dict[int, Any]:
    """The waited-on people's seats whose move the rules make for them, with that move
    (Game.forced_action), in seat order."""
    out = {}
    for s in sorted(waiting):
        if s < len(seats) and seats[s].user_id and (action := game.forced_action(state, s)) is not None:
            out[s] = action
    return out


def has_lapses(game: Game) -> bool:
    """Whether the game has answers that lapse at all (it overrides Game.lapse_action)."""
    return type(game).lapse_action is not Game.lapse_action


def _lapsing(game: Game, state: Any, waiting: list[int], seats: list[SeatRow],
             movers: frozenset[int] | set[int] = frozenset()) -> dict[int, Any]:
    """The waited-on people's seats whose answer lapses when nobody gives it (Game.lapse_action),
    with the move it then is, in seat order; a seat that moves without being asked (a forced
    move, its standing orders: `movers`) is not among them."""
    out = {}
    for s in sorted(waiting):
        if s in movers or s >= len(seats) or not seats[s].user_id:
            continue
        try:
            action = game.lapse_action(state, s)
        except Exception:  # noqa: BLE001 - a game bug leaves the seat waited on, as without lapses
            log.exception("%s: lapse_action failed for seat %s", getattr(game, "name", game), s)
            continue
        if action is not None:
            out[s] = action
    return out


def _move_words(ld: _Loaded, seat: int, action: Any) -> Any:
    """A move made for a seat, for the line that says so: its words, or its public notation
    when the full notation hides something from the others."""
    game, state = ld.game, ld.state
    public = game.public_notation(action)
    if public != game.format_action(action):
        try:
            words = game.describe_public(state, seat, action)
        except Exception:  # noqa: BLE001 - words are a nicety; the public notation says it too
            words = None
        return words.model_dump(mode="json", exclude={"to"}) if words is not None else public
    try:
        return game.describe_action(state, seat, action).model_dump(mode="json", exclude={"to"})
    except Exception:  # noqa: BLE001 - words are a nicety; the notation says it too
        return public


def _bots_waited_on(seats: list[SeatRow], waiting: list[int]) -> bool:
    """Whether a bot holds one of the seats the game waits on."""
    return any(s < len(seats) and seats[s].bot for s in waiting)


def _public_menu(game: Game, state: Any, waiting: list[int]) -> PublicMenu | None:
    """What the public turn post offers (see PublicMenu); None when nobody is waited on."""
    if not waiting:
        return None
    if len(waiting) > 1:
        return PublicMenu()
    decision = game.decision(state, waiting[0])
    if decision.secret:
        return PublicMenu(seat=waiting[0], key=decision.key)
    return PublicMenu(seat=waiting[0], key=decision.key, options=decision.first_step(),
                      more=any(g.entry is None for g in decision.groups) or bool(decision.amounts),
                      amounts=decision.amounts)

