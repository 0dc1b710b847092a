"""The sessions service's core: loading a game and the helpers every part of the service uses
(the one place a change to a running game is committed is bot/sessions/commit.py).

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
from bot.sessions.models import Actor, GameInfo, PublicMenu, SeatInfo
from bot.sessions.settings import GameSettings
from bot.store import CLAIM_LEASE, ActionRow, GameRow, SeatRow, StoreBackend, Tx
from games import registry
from games.core import Event, Game, IllegalAction
from games.core.typed import resolve as resolve_typed

log = logging.getLogger("railyard.sessions")

RETRIES = 3  # re-reads when a write without an expected version loses a race


@dataclass
class Loaded:
    """A game as read from the store: its row and seats, its rules, settings, options and state."""

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


def corrupt(row: GameRow, why: str, exc: BaseException | None = None) -> SessionError:
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


def split_events(events: list[Event]) -> tuple[list[Event], dict[int, list[Event]]]:
    public: list[Event] = []
    private: dict[int, list[Event]] = {}
    for event in events:
        if event.to is None:
            public.append(event)
        else:
            for seat in event.to:
                private.setdefault(seat, []).append(event)
    return public, private


def public_notation(game: Game | None, notation: str) -> str:
    """A logged move as everyone may read it: secret details (kept tickets) left out."""
    if game is None:
        return notation
    try:
        return game.public_notation(game.parse_action(notation))
    except IllegalAction:  # a log line that no longer parses is shown as it is
        return notation


def dump_events(events: list[Event]) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json") for e in events]


class Core:
    """What every part of the service shares: the store, the clock, the seeds of new games, the
    outbox as the dispatcher sees it; and reading games from the store."""

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
        self.new_seed = new_seed or (lambda: secrets.randbits(63))
        # the outbox as the Discord dispatcher sees it (the adapter's one way to the rows);
        # its owner id and lease are also this process's for the timers it holds
        self.deliveries = Deliveries(store, clock, lease=lease)

    # ==================================================================================
    # loading
    # ==================================================================================
    @staticmethod
    def game_for(row: GameRow) -> Game:
        try:
            return registry.get(row.game)
        except registry.UnknownGame as exc:
            raise corrupt(row, "unknown game name", exc) from None
        except Exception as exc:  # a broken game module must not take the others down
            raise corrupt(row, "game module cannot be loaded", exc) from None

    def load(self, row: GameRow, seats: list[SeatRow], *, with_state: bool = True) -> Loaded:
        game = self.game_for(row)
        try:
            settings = GameSettings.model_validate_json(row.settings_json)
            options = json.loads(row.options_json)
            if not isinstance(options, dict):
                raise ValueError("options are not an object")
        except (ValidationError, ValueError) as exc:
            raise corrupt(row, "options or settings cannot be read", exc) from None
        loaded = Loaded(row=row, seats=seats, game=game, settings=settings, options=options)
        if [s.seat for s in seats] != list(range(len(seats))):
            raise corrupt(row, "seats are not numbered 0..n-1")
        if with_state and row.status != "lobby":
            if row.snapshot is None:
                if row.status == "abandoned":
                    return loaded  # a lobby that was closed before it started
                raise corrupt(row, "no snapshot")
            try:
                loaded.state = game.load_state(row.snapshot)
            except Exception as exc:  # junk JSON, a model that no longer validates, ...
                raise corrupt(row, "snapshot cannot be loaded", exc) from None
        return loaded

    async def read_channel(self, channel_id: str, *, include_closed: bool = False,
                            with_actions: bool = False) -> tuple[Loaded, list[ActionRow]]:
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id)
            if row is None and include_closed:
                row = await tx.latest_game(channel_id)
            if row is None:
                raise await no_open_game(tx, channel_id)
            seats = await tx.seats(row.id)
            actions = await tx.actions(row.id) if with_actions else []
        return self.load(row, seats), actions

    async def read_id(self, game_id: int, *, with_actions: bool = False) -> tuple[Loaded, list[ActionRow]]:
        async with self.store.read() as tx:
            row = await tx.get_game(game_id)
            if row is None:
                raise SessionError("no_game_here")
            seats = await tx.seats(game_id)
            actions = await tx.actions(game_id) if with_actions else []
        return self.load(row, seats), actions

    async def open_in_tx(self, tx: Tx, channel_id: str, *, with_state: bool = False) -> Loaded:
        row = await tx.open_game(channel_id)
        if row is None:
            raise await no_open_game(tx, channel_id)
        return self.load(row, await tx.seats(row.id), with_state=with_state)

    # ==================================================================================
    # small helpers
    # ==================================================================================
    @staticmethod
    def require_host(ld: Loaded, actor: Actor, *, managers: bool = True) -> None:
        if actor.user_id == ld.row.host_user_id or (managers and actor.is_manager):
            return
        raise SessionError("not_host")

    @staticmethod
    def lobby_seats(ld: Loaded) -> int:
        """How many seats the lobby has: its auto-start size, else the game's maximum."""
        return ld.settings.autostart_players or ld.game.max_players

    @staticmethod
    def info(ld: Loaded) -> GameInfo:
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

    async def info_in_tx(self, tx: Tx, game_id: int) -> GameInfo:
        row = await tx.get_game(game_id)
        assert row is not None
        return self.info(self.load(row, await tx.seats(game_id), with_state=False))

    @staticmethod
    def bot_names(game: Game) -> list[str]:
        try:
            return list(game.bots())
        except Exception:  # noqa: BLE001 - a game without working bots simply has none
            log.exception("%s: bots() failed", getattr(game, "name", game))
            return []

    def bot(self, ld: Loaded, name: str | None) -> Any:
        bots = ld.game.bots()
        if name in bots:
            return bots[name]
        if bots:  # a bot renamed or removed since the seat was made: use the default one
            log.warning("game %s: unknown bot %r, using %r", ld.row.id, name, next(iter(bots)))
            return next(iter(bots.values()))
        raise corrupt(ld.row, f"no bot available for seat bot {name!r}")

    @staticmethod
    def parse(game: Game, action: Any, state: Any, seat: int) -> Any:
        if isinstance(action, BaseModel):
            return action
        if isinstance(action, str):  # typed or a button's notation: read against the seat's legal moves
            return resolve_typed(game, state, seat, action)
        try:
            return TypeAdapter(game.action_model).validate_python(action)
        except ValidationError:
            raise IllegalAction("unparsable", text=str(action)) from None

    @staticmethod
    def renumber(seats: list[SeatRow]) -> list[SeatRow]:
        ordered = sorted(seats, key=lambda s: s.joined)
        return [s.model_copy(update={"seat": i}) for i, s in enumerate(ordered)]


def forced_moves(game: Game, state: Any, waiting: list[int], seats: list[SeatRow]) -> dict[int, Any]:
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


def lapsing_answers(game: Game, state: Any, waiting: list[int], seats: list[SeatRow],
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


def move_words(ld: Loaded, seat: int, action: Any) -> Any:
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


def bots_waited_on(seats: list[SeatRow], waiting: list[int]) -> bool:
    """Whether a bot holds one of the seats the game waits on."""
    return any(s < len(seats) and seats[s].bot for s in waiting)


def public_menu(game: Game, state: Any, waiting: list[int]) -> PublicMenu | None:
    """What the public turn post offers (see PublicMenu); None when nobody is waited on."""
    if not waiting:
        return None
    if len(waiting) > 1:
        return PublicMenu()
    decision = game.menu_head(state, waiting[0])
    if decision.secret:
        return PublicMenu(seat=waiting[0], key=decision.key)
    return PublicMenu(seat=waiting[0], key=decision.key, options=decision.first_step(),
                      more=any(g.entry is None for g in decision.groups) or bool(decision.amounts),
                      amounts=decision.amounts)

