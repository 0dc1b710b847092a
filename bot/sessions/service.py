"""The sessions service: lobby, moves, undo, bots, timers — everything but Discord.

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
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel, TypeAdapter, ValidationError

from bot.sessions.errors import SessionError
from bot.sessions.models import (
    Actor,
    GameInfo,
    HistoryEntry,
    LegalMove,
    Outcome,
    PrivateView,
    PublicMenu,
    Reminder,
    SeatInfo,
    StatusInfo,
    WaitingGame,
)
from bot.sessions.settings import REMINDER_CAP_SECONDS, GameSettings
from bot.store import ActionRow, ChannelBusy, GameRow, SeatRow, StaleVersion, Store, Tx
from bot.store.models import UserPrefs
from games import registry
from games.core import Event, Game, IllegalAction
from games.core.i18n import language_for
from games.core.rng import derive
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


class SessionService:
    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        *,
        new_seed: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self._new_seed = new_seed or (lambda: secrets.randbits(63))

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
                raise SessionError("no_game_here")
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
            raise SessionError("no_game_here")
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

    # ==================================================================================
    # the one place a change to a running game is committed
    # ==================================================================================
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
            waiting: list[int] = []
        else:
            await self._reset_timers(tx, row.id, ld.settings, now)
            waiting = sorted(game.active_players(new_state))
        mention = [seats[s].user_id for s in waiting if s < len(seats) and seats[s].user_id]
        bots_next = any(s < len(seats) and seats[s].bot for s in waiting)
        view = game.view(new_state, None)
        menu = _public_menu(game, new_state, waiting)
        names = [s.display_name for s in seats]
        payload = {
            "game_id": row.id,
            "channel_id": row.channel_id,
            "guild_id": row.guild_id,
            "game": row.game,
            "version": version,
            "kind": kind,
            "locale": row.locale,
            "names": names,
            "seat": seat,
            "notation": _public(ld.game, notation) if notation else notation,
            "auto": auto,
            "events": _dump_events(public),
            "waiting": waiting,
            "mention_user_ids": mention,
            "view": view.model_dump(mode="json"),
            "menu": menu.model_dump(mode="json") if menu is not None else None,
            "finished": status == "finished",
            "result": result.model_dump(mode="json") if result is not None else None,
        }
        outbox_id = await tx.add_outbox(row.id, kind, payload, now)
        return Outcome(
            game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
            version=version, status=status, locale=row.locale, names=names,
            seat_user_ids=[s.user_id for s in seats], kind=kind, seat=seat, notation=notation,
            auto=auto, seq=seq, public_events=public, private_events=private, waiting=waiting,
            mention_user_ids=mention, bots_next=bots_next, view=view, result=result,
            outbox_id=outbox_id,
        )

    # ==================================================================================
    # lobby
    # ==================================================================================
    async def create(
        self,
        game_name: str,
        channel_id: str,
        guild_id: str | None,
        host: Actor,
        options: dict[str, Any] | None = None,
        locale: str | None = "en",
        autostart_players: int | None = None,
    ) -> GameInfo:
        """Open a lobby in the channel; the host takes the first seat. With
        `autostart_players` the lobby has that many seats and the game is to start as soon as
        they are taken (`autostart` starts it on the host's behalf)."""
        try:
            game = registry.get(game_name)
        except registry.UnknownGame:
            raise SessionError("unknown_game", game=game_name, available=registry.names()) from None
        except Exception:  # noqa: BLE001 - a game that cannot be imported is not offered
            log.exception("game %s cannot be loaded", game_name)
            raise SessionError("unknown_game", game=game_name, available=registry.names()) from None
        try:
            opts = game.options_model.model_validate(options or {}).model_dump(mode="json")
        except ValidationError as exc:
            err = exc.errors()[0]
            name = ".".join(str(p) for p in err.get("loc", ())) or "options"
            raise SessionError("bad_option", option=name, value=str(err.get("input"))) from None
        if autostart_players is not None and not game.min_players <= autostart_players <= game.max_players:
            raise SessionError("bad_option", option="players", value=str(autostart_players))
        settings = GameSettings(autostart_players=autostart_players)
        now = self.clock()
        async with self.store.write() as tx:
            if await tx.open_game(channel_id) is not None:
                raise SessionError("game_already_here")
            try:
                game_id = await tx.insert_game(
                    game=game_name, guild_id=guild_id, channel_id=channel_id,
                    host_user_id=host.user_id, locale=language_for(locale), options=opts,
                    settings=settings.model_dump(mode="json"), seed=self._new_seed(), now=now,
                )
            except ChannelBusy:
                raise SessionError("game_already_here") from None
            await tx.add_seat(game_id, 0, user_id=host.user_id, bot=None, display_name=host.name)
            return await self._info_in_tx(tx, game_id)

    async def join(self, channel_id: str, actor: Actor) -> GameInfo:
        now = self.clock()
        async with self.store.write() as tx:
            ld = await self._open_in_tx(tx, channel_id)
            if ld.row.status != "lobby":
                raise SessionError("not_lobby")
            if ld.seat_of(actor.user_id) is not None:
                raise SessionError("already_joined")
            seats = self._lobby_seats(ld)
            if len(ld.seats) >= seats:
                raise SessionError("lobby_full", max=seats)
            await tx.add_seat(ld.row.id, len(ld.seats), user_id=actor.user_id, bot=None,
                              display_name=actor.name)
            await tx.update_game(ld.row.id, ld.row.version, now)
            return await self._info_in_tx(tx, ld.row.id)

    async def leave(self, channel_id: str, actor: Actor) -> GameInfo:
        """Leave a lobby. If the host leaves, the earliest other human becomes host; with no
        human left the lobby is closed (status 'abandoned')."""
        now = self.clock()
        async with self.store.write() as tx:
            ld = await self._open_in_tx(tx, channel_id)
            if ld.row.status != "lobby":
                raise SessionError("not_lobby")
            seat = ld.seat_of(actor.user_id)
            if seat is None:
                raise SessionError("not_in_game")
            await self._remove_from_lobby(tx, ld, seat, now)
            return await self._info_in_tx(tx, ld.row.id)

    async def _remove_from_lobby(self, tx: Tx, ld: _Loaded, seat: int, now: float) -> None:
        leaving = ld.seats[seat]
        rest = self._renumber([s for s in ld.seats if s.seat != seat])
        await tx.replace_seats(ld.row.id, rest)
        fields: dict[str, Any] = {}
        if leaving.user_id is not None and leaving.user_id == ld.row.host_user_id:
            humans = sorted((s for s in rest if s.user_id), key=lambda s: s.joined)
            if humans:
                fields["host_user_id"] = humans[0].user_id
            else:
                fields["status"] = "abandoned"
        await tx.update_game(ld.row.id, ld.row.version, now, **fields)

    async def add_bot(self, channel_id: str, actor: Actor, bot_name: str | None = None) -> GameInfo:
        now = self.clock()
        async with self.store.write() as tx:
            ld = await self._open_in_tx(tx, channel_id)
            self._require_host(ld, actor)
            if ld.row.status != "lobby":
                raise SessionError("not_lobby")
            available = self._bot_names(ld.game)
            name = bot_name or (available[0] if available else None)
            if name is None or name not in available:
                raise SessionError("unknown_bot", bot=bot_name or "", available=available)
            seats = self._lobby_seats(ld)
            if len(ld.seats) >= seats:
                raise SessionError("lobby_full", max=seats)
            taken = {s.display_name for s in ld.seats}
            number = 1
            while f"Bot {number}" in taken:
                number += 1
            await tx.add_seat(ld.row.id, len(ld.seats), user_id=None, bot=name,
                              display_name=f"Bot {number}")
            await tx.update_game(ld.row.id, ld.row.version, now)
            return await self._info_in_tx(tx, ld.row.id)

    async def remove_bot(self, channel_id: str, actor: Actor, seat: int) -> GameInfo:
        now = self.clock()
        async with self.store.write() as tx:
            ld = await self._open_in_tx(tx, channel_id)
            self._require_host(ld, actor)
            if ld.row.status != "lobby":
                raise SessionError("not_lobby")
            if not 0 <= seat < len(ld.seats):
                raise SessionError("no_such_seat", number=seat + 1)
            if not ld.seats[seat].bot:
                raise SessionError("not_a_bot_seat", seat=seat)
            await self._remove_from_lobby(tx, ld, seat, now)
            return await self._info_in_tx(tx, ld.row.id)

    async def start(self, channel_id: str, actor: Actor) -> Outcome:
        """Shuffle the seats with the game's seed, set the game up and post the first turn."""
        now = self.clock()
        async with self.store.write() as tx:
            ld = await self._open_in_tx(tx, channel_id)
            self._require_host(ld, actor)
            if ld.row.status != "lobby":
                raise SessionError("not_lobby")
            return await self._start_in_tx(tx, ld, now)

    async def autostart(self, channel_id: str) -> Outcome | None:
        """Start the channel's lobby on its host's behalf when it was opened for a number of
        seats (`create(autostart_players=...)`) and they are all taken; else None. The count
        is the one stored with the lobby, never one a caller passes in."""
        now = self.clock()
        async with self.store.write() as tx:
            row = await tx.open_game(channel_id)
            if row is None or row.status != "lobby":
                return None
            ld = self._load(row, await tx.seats(row.id), with_state=False)
            target = ld.settings.autostart_players
            if target is None or len(ld.seats) < target:
                return None
            return await self._start_in_tx(tx, ld, now)

    async def _start_in_tx(self, tx: Tx, ld: _Loaded, now: float) -> Outcome:
        n = len(ld.seats)
        if n < ld.game.min_players:
            raise SessionError("not_enough_players", min=ld.game.min_players, have=n)
        order = list(ld.seats)
        random.Random(derive(ld.row.seed, 0, "seats")).shuffle(order)
        seats = [s.model_copy(update={"seat": i}) for i, s in enumerate(order)]
        await tx.replace_seats(ld.row.id, seats)
        state = ld.game.setup(n, ld.options, ld.row.seed)
        ld.seats = seats
        events = [Event(key="session.started", params={"seats": list(range(n))})]
        return await self._commit(tx, ld, state, kind="start", now=now, events=events,
                                  seats=seats)

    # ==================================================================================
    # moves
    # ==================================================================================
    async def act(
        self,
        channel_id: str,
        actor: Actor,
        notation_or_action: Any,
        expected_version: int | None = None,
    ) -> Outcome:
        """Play one action for the actor's seat. With `expected_version` (a button that
        carries the version it was drawn for) a changed board gives stale_version; without
        it (a typed move) a lost race is retried against the new board."""
        attempts = 1 if expected_version is not None else _RETRIES
        for attempt in range(attempts):
            ld, _ = await self._read_channel(channel_id)
            if ld.row.status != "active":
                raise SessionError("not_active_game")
            seat = ld.seat_of(actor.user_id)
            if seat is None:
                raise SessionError("not_in_game")
            if expected_version is not None and expected_version != ld.row.version:
                raise SessionError("stale_version", version=ld.row.version)
            game, state = ld.game, ld.state
            active = game.active_players(state)
            if seat not in active:
                raise IllegalAction("not_active", waiting=sorted(active))
            action = self._parse(game, notation_or_action, state, seat)
            applied = game.apply(state, seat, action)
            notation = game.format_action(action)
            now = self.clock()
            try:
                async with self.store.write() as tx:
                    return await self._commit(
                        tx, ld, applied.state, kind="move", now=now, seat=seat, notation=notation,
                        events=applied.events, undoable=applied.undoable,
                        actor_user_id=actor.user_id,
                    )
            except StaleVersion as exc:
                if attempt + 1 >= attempts:
                    raise SessionError("stale_version", version=exc.current) from None
        raise AssertionError("unreachable")

    async def step_bot(self, game_id: int) -> Outcome | None:
        """If a bot seat is active, let it move (the lowest such seat); else None."""
        for _ in range(_RETRIES):
            ld, _ = await self._read_id(game_id)
            if ld.row.status != "active":
                return None
            active = ld.game.active_players(ld.state)
            bot_seats = [s for s in sorted(active) if s < len(ld.seats) and ld.seats[s].bot]
            if not bot_seats:
                return None
            seat = bot_seats[0]
            action, applied = self._bot_move(ld, seat, ld.seats[seat].bot, salt="bot")
            now = self.clock()
            try:
                async with self.store.write() as tx:
                    return await self._commit(
                        tx, ld, applied.state, kind="move", now=now, seat=seat,
                        notation=ld.game.format_action(action), events=applied.events,
                        undoable=applied.undoable, actor_user_id=None, auto="bot",
                    )
            except StaleVersion:
                continue  # someone else moved: look again
        return None

    def _bot_move(self, ld: _Loaded, seat: int, bot_name: str | None, salt: str) -> tuple[Any, Any]:
        """A bot's choice for `seat`, falling back to the game's timeout action if the bot
        picks something the rules refuse (a bot bug must not stall the game)."""
        game, state, row = ld.game, ld.state, ld.row
        bot = self._bot(ld, bot_name)
        rng = random.Random(derive(row.seed, row.version, f"{salt}:{seat}"))
        try:
            action = bot.choose(game, state, seat, rng)
            return action, game.apply(state, seat, action)
        except IllegalAction as exc:
            log.warning("game %s: bot %s chose an illegal action (%s); using the timeout action",
                        row.id, bot_name, exc)
            action = game.timeout_action(state, seat)
            return action, game.apply(state, seat, action)

    async def run_bots(self, game_id: int, limit: int = 10_000) -> list[Outcome]:
        """Let bots move until a human is needed, the game ends, or `limit` moves."""
        outcomes: list[Outcome] = []
        while len(outcomes) < limit:
            outcome = await self.step_bot(game_id)
            if outcome is None:
                break
            outcomes.append(outcome)
        return outcomes

    # ==================================================================================
    # undo and replay
    # ==================================================================================
    @staticmethod
    def _effective(ld: _Loaded, actions: list[ActionRow]) -> list[ActionRow]:
        """The moves still in force: every undo takes back the move it names, which must be
        the last one in force."""
        stack: list[ActionRow] = []
        for a in actions:
            if a.kind == "move":
                stack.append(a)
            elif stack and a.undoes_seq == stack[-1].seq:
                stack.pop()
            else:
                raise _corrupt(ld.row, f"undo #{a.seq} does not take back the last move")
        return stack

    def _replay(self, ld: _Loaded, moves: list[ActionRow]) -> Any:
        game = ld.game
        try:
            state = game.setup(len(ld.seats), ld.options, ld.row.seed)
            for move in moves:
                state = game.apply(state, move.seat, game.parse_action(move.notation)).state
        except Exception as exc:  # noqa: BLE001 - any failure means the log is unusable
            raise _corrupt(ld.row, "the action log does not replay", exc) from None
        return state

    async def undo(self, channel_id: str, actor: Actor) -> Outcome:
        """Take back the actor's own last move, if nothing happened since and it revealed
        nothing hidden. The state is rebuilt from the seed and the remaining log."""
        ld, actions = await self._read_channel(channel_id, with_actions=True)
        if ld.row.status != "active":
            raise SessionError("not_active_game")
        seat = ld.seat_of(actor.user_id)
        if seat is None:
            raise SessionError("not_in_game")
        moves = self._effective(ld, actions)
        if not moves:
            raise SessionError("nothing_to_undo")
        last = moves[-1]
        if last.seat != seat or last.actor_user_id != actor.user_id:
            if last.seat == seat:  # a bot or the deadline moved for this seat
                raise SessionError("undo_not_allowed", reason="not_your_action")
            # Once the game waits on this player again, their earlier moves belong to past
            # turns: they have not moved yet in this one, and that is what to tell them.
            waited_on = seat in ld.game.active_players(ld.state)
            if not waited_on and any(m.actor_user_id == actor.user_id for m in moves):
                raise SessionError("undo_not_allowed", reason="someone_moved_since")
            raise SessionError("nothing_of_yours_to_undo")
        if not last.undoable:
            raise SessionError("undo_not_allowed", reason="hidden_info_revealed")
        state = self._replay(ld, moves[:-1])
        now = self.clock()
        events = [Event(key="session.undone", params={"seat": seat, "notation": _public(ld.game, last.notation)})]
        try:
            async with self.store.write() as tx:
                return await self._commit(
                    tx, ld, state, kind="undo", now=now, seat=seat, notation=last.notation,
                    events=events, undoable=False, actor_user_id=actor.user_id,
                    undoes_seq=last.seq,
                )
        except StaleVersion as exc:
            raise SessionError("stale_version", version=exc.current) from None

    async def current_state(self, game_id: int) -> Any:
        """The stored snapshot as a state (for a bot or tool acting on a person's behalf)."""
        ld, _ = await self._read_id(game_id)
        if ld.state is None:
            raise SessionError("not_active_game")
        return ld.state

    async def rebuild(self, game_id: int) -> Any:
        """The state replayed from the seed and the moves in force (not the snapshot)."""
        ld, actions = await self._read_id(game_id, with_actions=True)
        if ld.state is None:
            raise SessionError("not_active_game")
        return self._replay(ld, self._effective(ld, actions))

    # ==================================================================================
    # host / manager tools
    # ==================================================================================
    async def abandon(self, channel_id: str, actor: Actor) -> GameInfo:
        """End the channel's game without a result. Works on a corrupt game too (it only
        needs the game's row), so a damaged game can always be cleared away."""
        now = self.clock()
        async with self.store.write() as tx:
            row = await tx.open_game(channel_id)
            if row is None:
                raise SessionError("no_game_here")
            if actor.user_id != row.host_user_id and not actor.is_manager:
                raise SessionError("not_host")
            seats = await tx.seats(row.id)
            version = await tx.update_game(row.id, row.version, now, status="abandoned")
            await tx.delete_timers(row.id)
            if row.status == "active":
                await tx.add_outbox(row.id, "abandoned", {
                    "game_id": row.id, "channel_id": row.channel_id, "guild_id": row.guild_id,
                    "game": row.game, "version": version, "kind": "abandoned",
                    "locale": row.locale, "names": [s.display_name for s in seats],
                    "events": _dump_events([Event(key="session.abandoned",
                                                  params={"by": actor.name})]),
                    "mention_user_ids": [],
                }, now)
            new = await tx.get_game(row.id)
            assert new is not None
            try:
                return self._info(self._load(new, seats, with_state=False))
            except SessionError:
                # corrupt options/settings: still report the abandonment
                return GameInfo(
                    game_id=new.id, channel_id=new.channel_id, guild_id=new.guild_id,
                    game=new.game, status=new.status, host_user_id=new.host_user_id,
                    locale=new.locale, version=new.version,
                    seats=[SeatInfo(seat=s.seat, user_id=s.user_id, bot=s.bot,
                                    name=s.display_name) for s in seats],
                    min_players=0, max_players=0, options={}, settings=GameSettings(),
                )

    async def kick(
        self,
        channel_id: str,
        actor: Actor,
        seat_or_user: int | str,
        replace_with_bot: str | None = None,
    ) -> Outcome:
        """Host or manager: remove a player. In a lobby the seat is freed; in a running game
        a bot (`replace_with_bot`, default the game's first bot) takes the seat over."""
        now = self.clock()
        async with self.store.write() as tx:
            row = await tx.open_game(channel_id)
            if row is None:
                raise SessionError("no_game_here")
            ld = self._load(row, await tx.seats(row.id))
            self._require_host(ld, actor)
            if isinstance(seat_or_user, int):
                if not 0 <= seat_or_user < len(ld.seats):
                    raise SessionError("no_such_seat", number=seat_or_user + 1)
                seat = seat_or_user
            else:
                found = ld.seat_of(str(seat_or_user))
                if found is None:
                    raise SessionError("player_not_found")
                seat = found
            target = ld.seats[seat]
            event = Event(key="session.kicked", params={"seat": seat})
            if row.status == "lobby":
                await self._remove_from_lobby(tx, ld, seat, now)
                new = await tx.get_game(row.id)
                seats = await tx.seats(row.id)
                assert new is not None
                return Outcome(
                    game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id,
                    game=row.game, version=new.version, status=new.status, locale=row.locale,
                    names=[s.display_name for s in seats], seat_user_ids=[s.user_id for s in seats],
                    kind="kick", seat=seat,
                    public_events=[Event(key="session.kicked",
                                         params={"seat": seat, "name": target.display_name})],
                )
            if target.bot:
                raise SessionError("already_a_bot", seat=seat)
            available = self._bot_names(ld.game)
            bot = replace_with_bot or (available[0] if available else None)
            if bot is None or bot not in available:
                raise SessionError("unknown_bot", bot=replace_with_bot or "", available=available)
            await tx.update_seat(row.id, seat, user_id=None, bot=bot,
                                 display_name=target.display_name)
            seats = await tx.seats(row.id)
            host = None
            if target.user_id == row.host_user_id:
                humans = sorted((s for s in seats if s.user_id), key=lambda s: s.joined)
                if humans:
                    host = humans[0].user_id
            return await self._commit(tx, ld, ld.state, kind="kick", now=now, seat=seat,
                                      events=[event], seats=seats, host_user_id=host)

    async def settings(self, channel_id: str, actor: Actor, **changes: Any) -> GameSettings:
        """Change reminder / deadline / quiet-hour settings (host or manager)."""
        now = self.clock()
        async with self.store.write() as tx:
            ld = await self._open_in_tx(tx, channel_id)
            self._require_host(ld, actor)
            known = GameSettings.model_fields
            for name, value in changes.items():
                # the auto-start size is the lobby's promise to whoever joined: not changed later
                if name not in known or name == "autostart_players":
                    raise SessionError("bad_setting", setting=name, value=str(value))
            try:
                new = GameSettings.model_validate({**ld.settings.model_dump(), **changes})
            except ValidationError as exc:
                err = exc.errors()[0]
                loc = err.get("loc") or ("settings",)
                name = str(loc[0])
                raise SessionError("bad_setting", setting=name,
                                   value=str(changes.get(name, err.get("input")))) from None
            if new.deadline_action == "bot" and not self._bot_names(ld.game):
                raise SessionError("bad_setting", setting="deadline_action", value="bot")
            await tx.update_game(ld.row.id, ld.row.version, now,
                                 settings_json=new.model_dump(mode="json"))
            if ld.row.status == "active":
                await self._reset_timers(tx, ld.row.id, new, now)
            return new

    async def set_user_prefs(self, user_id: str, *, dm_reminders: bool | None = None,
                             locale: str | None = None) -> UserPrefs:
        return await self.store.set_prefs(
            user_id, dm_reminders=dm_reminders,
            locale=language_for(locale) if locale is not None else None,
        )

    # ==================================================================================
    # looking
    # ==================================================================================
    async def lobby(self, channel_id: str) -> GameInfo:
        async with self.store.read() as tx:
            ld = await self._open_in_tx(tx, channel_id)
        return self._info(ld)

    async def status(self, channel_id: str) -> StatusInfo:
        """The channel's open game, or its most recent one when none is open."""
        ld, _ = await self._read_channel(channel_id, include_closed=True)
        info = self._info(ld)
        if ld.state is None:
            return StatusInfo(info=info, names=ld.names, version=ld.row.version)
        game = ld.game
        result = game.result(ld.state)
        waiting = sorted(game.active_players(ld.state)) if ld.row.status == "active" else []
        return StatusInfo(
            info=info, names=ld.names, version=ld.row.version, waiting=waiting,
            waiting_user_ids=[ld.seats[s].user_id for s in waiting
                              if s < len(ld.seats) and ld.seats[s].user_id],
            view=game.view(ld.state, None), result=result, last_move_at=ld.row.last_move_at,
            menu=_public_menu(game, ld.state, waiting),
        )

    async def private_view(self, channel_id: str, user_id: str) -> PrivateView:
        """What this user's seat may see (hand, secret choices), with the moves open to it."""
        ld, _ = await self._read_channel(channel_id, include_closed=True)
        if ld.state is None:
            raise SessionError("not_active_game")
        seat = ld.seat_of(user_id)
        if seat is None:
            raise SessionError("not_in_game")
        game, state = ld.game, ld.state
        active = ld.row.status == "active" and seat in game.active_players(state)
        legal: list[LegalMove] = []
        if active:
            for action in game.legal_actions(state, seat):
                legal.append(LegalMove(notation=game.format_action(action),
                                       label=game.describe_action(state, seat, action)))
        return PrivateView(
            game_id=ld.row.id, channel_id=ld.row.channel_id, game=ld.row.game, seat=seat,
            version=ld.row.version, names=ld.names, active=active, view=game.view(state, seat),
            prompt=game.prompt(state, seat) if active else None, legal=legal,
            decision=game.decision(state, seat) if active else None,
        )

    async def history(self, channel_id: str) -> list[HistoryEntry]:
        """The move log of the channel's game (open, else most recent), public events only."""
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id) or await tx.latest_game(channel_id)
            if row is None:
                raise SessionError("no_game_here")
            seats = await tx.seats(row.id)
            actions = await tx.actions(row.id)
        names = [s.display_name for s in seats]
        undone = {a.undoes_seq for a in actions if a.kind == "undo"}
        try:
            game: Game | None = registry.get(row.game)
        except Exception:  # noqa: BLE001 - the log of a game we can no longer load still shows
            game = None
        entries: list[HistoryEntry] = []
        for a in actions:
            events: list[Event] = []
            for raw in a.events():
                try:
                    event = Event.model_validate(raw)
                except ValidationError:
                    continue
                if event.to is None:
                    events.append(event)
            entries.append(HistoryEntry(
                seq=a.seq, kind=a.kind, seat=a.seat,
                name=names[a.seat] if 0 <= a.seat < len(names) else f"#{a.seat + 1}",
                notation=_public(game, a.notation), events=events, undone=a.seq in undone, auto=a.auto,
                created_at=a.created_at,
            ))
        return entries

    async def games_waiting_on(self, user_id: str, guild_id: str | None = None) -> list[WaitingGame]:
        """Active games (in this guild, if given) that wait on this user now."""
        async with self.store.read() as tx:
            rows = await tx.games_of_user(user_id, guild_id, ("active",))
            seat_rows = {row.id: await tx.seats(row.id) for row in rows}
        waiting: list[WaitingGame] = []
        for row in rows:
            try:
                ld = self._load(row, seat_rows[row.id])
                active = ld.game.active_players(ld.state)
            except SessionError:
                continue  # a corrupt game is reported when someone opens it, not here
            mine = sorted(s.seat for s in ld.seats if s.user_id == user_id and s.seat in active)
            if mine:
                waiting.append(WaitingGame(
                    game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id,
                    game=row.game, version=row.version, seats=mine, since=row.last_move_at,
                ))
        return waiting

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
            humans = [s for s in active if s < len(ld.seats) and ld.seats[s].user_id]
            if not humans:  # only bots to wait on: run_bots is the cure, not a ping
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
            payload = {
                "game_id": row.id, "channel_id": row.channel_id, "guild_id": row.guild_id,
                "game": row.game, "version": row.version, "kind": "reminder",
                "locale": row.locale, "names": ld.names, "mention_user_ids": user_ids,
                "dm_user_ids": dm, "attempt": attempt,
                "events": [Event(key="reminder.waiting", params=params).model_dump(mode="json")],
            }
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
                      more=bool(decision.groups or decision.amounts))

