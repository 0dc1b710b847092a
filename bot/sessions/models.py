"""What the sessions service takes and returns. All Discord-free and JSON-serialisable."""
from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny
from pydantic.dataclasses import dataclass

from bot.sessions.settings import GameSettings
from games.core import Event, Result
from games.core.choices import Amount, Decision, Pick


@dataclass(frozen=True)
class Actor:
    """Who is asking. `is_manager`: may manage the channel (Discord 'Manage Channels' or
    similar), which allows abandon / kick / settings without being the host."""

    user_id: str
    name: str
    locale: str | None = None
    is_manager: bool = False


class SeatInfo(BaseModel):
    seat: int
    user_id: str | None
    bot: str | None
    name: str

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


class GameInfo(BaseModel):
    """A game as the lobby (and any status line) shows it."""

    game_id: int
    channel_id: str
    guild_id: str | None
    game: str
    status: Literal["lobby", "active", "finished", "abandoned"]
    host_user_id: str
    locale: str
    version: int
    seats: list[SeatInfo]
    min_players: int
    max_players: int
    options: dict[str, Any]
    settings: GameSettings

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


class Outcome(BaseModel):
    """Everything one committed change produced, for the immediate reply and for tests.

    The public part (public_events, mention_user_ids, view, result) is also in the outbox row
    `outbox_id`, written in the same transaction; private_events never leave this object.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    game_id: int
    channel_id: str
    guild_id: str | None
    game: str
    version: int
    status: Literal["lobby", "active", "finished", "abandoned"]
    locale: str
    names: list[str]
    seat_user_ids: list[str | None]
    kind: Literal["start", "move", "undo", "kick"]
    seat: int | None = None  # the seat that acted (or was kicked)
    notation: str | None = None
    auto: Literal["bot", "deadline", "order", "forced", "lapsed", "away"] | None = None
    seq: int | None = None  # the action log row written, if any
    public_events: list[Event] = Field(default_factory=list)
    private_events: dict[int, list[Event]] = Field(default_factory=dict)
    waiting: list[int] = Field(default_factory=list)  # seats the game now waits on
    mention_user_ids: list[str] = Field(default_factory=list)  # humans among them
    bots_next: bool = False  # a bot or a standing order moves next: call run_bots(game_id)
    orders_next: bool = False  # ... and it is a standing order (bot/sessions/orders.py)
    orders_cancelled: bool = False  # the actor's own move cancelled standing orders of theirs
    orders_kept: int = 0  # ... and how many of their standing orders still stand after it
    view: SerializeAsAny[BaseModel] | None = None  # spectator view (never a private one)
    result: Result | None = None
    outbox_id: int | None = None
    post: Any = None  # the GamePost written to the outbox with this change (bot/sessions/posting.py)

    @property
    def finished(self) -> bool:
        return self.status == "finished"


class StatusInfo(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    info: GameInfo
    names: list[str]
    version: int
    waiting: list[int] = Field(default_factory=list)
    waiting_user_ids: list[str] = Field(default_factory=list)
    view: SerializeAsAny[BaseModel] | None = None
    result: Result | None = None
    last_move_at: float | None = None
    menu: "PublicMenu | None" = None
    # the local time of each waited-on person who set a time zone (bot/sessions/hours.py)
    clocks: list["LocalClock"] = Field(default_factory=list)
    # each seat's time bank and away time (bot/sessions/clocks.py, pace.py)
    pace: list["SeatPace"] = Field(default_factory=list)


class SeatPace(BaseModel):
    """A seat's pace as a post or /game status shows it: the time left in its bank (None in a
    game without banks) and, while the bank runs, when it runs out; whether the person is
    away, and until when."""

    seat: int
    bank_left: float | None = None  # seconds
    runs_out: float | None = None  # Unix time; None while the bank does not run
    away_until: float | None = None


class LocalClock(BaseModel):
    """A waited-on person's time of day where they are, and whether it is their quiet time."""

    seat: int
    time: str  # HH:MM
    asleep: bool


class LegalMove(BaseModel):
    notation: str
    label: Event


class PrivateView(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    game_id: int
    channel_id: str
    game: str
    seat: int
    version: int
    status: Literal["active", "finished"]  # a game under way, or the final hand of one played out
    names: list[str]
    active: bool  # the game waits on this seat now
    waiting: list[int] = Field(default_factory=list)  # the seats the game waits on now
    view: SerializeAsAny[BaseModel]
    prompt: Event | None = None
    legal: list[LegalMove] = Field(default_factory=list)
    decision: Decision | None = None  # the seat's menu while the game waits on it


@dataclass(frozen=True)
class MenuMove:
    """The move a click in a seat's menu completes (see MenuWalk). `bound`: the menu goes
    stale with any move (it was drawn for one version of the game), so the move is made on
    the version that was read or not at all; else (a menu with a key of its own, which others'
    moves leave as it is) a race lost to another move is tried again on the new board."""

    notation: str
    bound: bool = True


class MenuWalk(Protocol):
    """An adapter's reading of a click in a seat's menu, asked by `SessionService.click` with
    the clicker's view as just read (its `decision`, `version`, `active`, `waiting`): the move
    the click completes, or None when it only leads further into the menu (the adapter keeps
    where, to draw it). It raises the adapter's own refusals (a stale or forged click) and
    IllegalAction for a pick not on offer; nothing is written then."""

    def __call__(self, view: PrivateView) -> MenuMove | None: ...


class ClickResult(BaseModel):
    """What one click or typed move came to (`SessionService.click`): read in one transaction,
    and written in at most one.

    `view`: the clicker's view as read, which the menu was walked on (None for a move given
    by notation, which needs none). `outcome`: the move made, if the click made one.
    `after`: the clicker's view once the move is committed, from the state it committed, when
    the game still waits on them (the next step of a turn of several); None otherwise. Views
    here carry no `legal` list (autocomplete's, from `private_view`)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    view: PrivateView | None = None
    outcome: Outcome | None = None
    after: PrivateView | None = None


class PublicMenu(BaseModel):
    """The choices a public turn post offers: the first step of the one waited-on seat's
    decision when choosing it is not secret (anyone may see those options; only that seat's
    clicks count), or only a way into private menus (`options` empty) when the decision is
    secret or several seats choose at once."""

    seat: int | None = None
    key: str | None = None  # the decision's key (None: version-checked)
    options: list[Pick] = Field(default_factory=list)
    more: bool = False  # the decision also has groups or amounts, shown privately
    amounts: list[Amount] = Field(default_factory=list)  # offered as quick taps too (a bid in one tap)


class HistoryEntry(BaseModel):
    seq: int
    kind: Literal["move", "undo"]
    seat: int
    name: str
    notation: str
    events: list[Event]  # public events only
    undone: bool = False  # a move later taken back
    auto: str | None = None
    created_at: float


class StandingOrder(BaseModel):
    notation: str  # the game's order notation
    label: Event  # its words (Game.describe_order)


class OrdersInfo(BaseModel):
    """One player's standing orders in a game, as only that player may see them, and the
    menu of orders they may set now (`choices`, a decision whose moves are order notations)."""

    game_id: int
    channel_id: str
    game: str
    seat: int
    version: int
    names: list[str]
    active: bool  # the game waits on this seat now
    orders: list[StandingOrder] = Field(default_factory=list)
    choices: Decision
    moves_now: bool = False  # an order moves for this seat right away: call run_bots(game_id)
    # the game keeps orders across the player's own moves (Game.orders_after_own_move); else a
    # move of one's own cancels them all
    kept_by_own_moves: bool = False


class WaitingGame(BaseModel):
    game_id: int
    channel_id: str
    guild_id: str | None
    game: str
    version: int
    seats: list[int]  # the user's seats the game waits on
    since: float | None
    names: list[str] = Field(default_factory=list)
    locale: str = "en"
    asks: Event | None = None  # what the game asks of the user's first seat it waits on (their own prompt)


class Reminder(BaseModel):
    game_id: int
    channel_id: str
    guild_id: str | None
    game: str
    locale: str
    names: list[str]
    user_ids: list[str]  # mention these in the channel
    dm_user_ids: list[str]  # and DM these (opted in with dm_reminders)
    attempt: int  # 1 for the first reminder since the last move, 2 for the next ...
    key: str
    params: dict[str, Any]
    outbox_id: int | None = None


StatusInfo.model_rebuild()
