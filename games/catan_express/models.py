"""Catan Express's stored state, options, moves and view (pydantic, JSON round-trip).

Why it is shaped so
    The pure modules beside this one (economy.py for cards, cards.py for the development deck,
    rail.py for the graph) work on frozen values; the state keeps the same facts as plain JSON,
    named the way the board image prints them: intersections by number ("12"), hex centres by
    label ("C3"), rails and ferries by their two ends ("12-C3", "12-13"). A stored game reads
    like the board, and a move's notation is the same words.

    Hands are five counts in the order of components.RESOURCES and development cards five
    counts in the order of cards.KINDS. The view (CE-12) keeps every count public and blanks
    what a seat may not see: other players' hands and cards (None), the deck's order, the seed
    (it would predict the dice and the deck; the board it dealt is shown by name instead,
    maps.BoardLayout) and, while an offer is being answered, the other answers.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from games.catan_express.map import BoardLayout
from games.core.events import Event
from games.core.protocol import Move, Result
from games.core.unchecked import made, shallow

# CE-B5 puts no limit on an offer's terms. At most MAX_OFFERS offers a turn keep every turn
# finite; the rules' list of moves suggests the offers giving 1 to OFFER_GIVE_MAX cards for 1 to
# OFFER_GET_MAX (what /move completes and the random players draw from), while the menu's
# counted group offers every term the rules allow (rules.CatanExpress.offer_problem).
MAX_OFFERS = 3
OFFER_GIVE_MAX = 3
OFFER_GET_MAX = 2

Phase = Literal["setup", "roll", "gold", "discard", "robber", "main", "answer", "pick", "special", "stops", "over"]
PieceKind = Literal["rail", "ferry"]


class CatanOptions(BaseModel):
    """Chosen when the game is created. `map`: the main board for the player count (CE-M1,
    CE-M2) or the islands map (CE-M3, CE-11). `layout`: the printed beginner layout or a
    seeded random one. `transfer_stop`: on the islands map, a locomotive changing between
    rail and ferry stops there (CE-11, the rulebook's optional harder rule; on by default)."""

    model_config = ConfigDict(extra="forbid")
    map: Literal["main", "islands"] = "main"
    layout: Literal["beginner", "random"] = "random"
    transfer_stop: bool = True


class _Stored(BaseModel):
    """A part of the stored state. The rules set its fields many times a move; a field is
    written straight into the model (pydantic validates nothing on assignment here anyway, and
    its attribute hook cost about a microsecond a write, a fifth of a cheap move)."""

    def __setattr__(self, name: str, value: Any) -> None:
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = frozenset(type(self).model_fields)
        if name in names:
            self.__dict__[name] = value
        else:
            super().__setattr__(name, value)


_FIELD_NAMES: dict[type, frozenset[str]] = {}  # per model class (pydantic's own lookup is slow)


class PlayerState(_Stored):
    hand: list[int] | None = Field(default_factory=lambda: [0] * 5)     # None in another seat's view
    dev: list[int] | None = Field(default_factory=lambda: [0] * 5)      # playable development cards
    dev_new: list[int] | None = Field(default_factory=lambda: [0] * 5)  # bought this turn
    cards: int = 0            # public count of resource cards (CE-12)
    dev_cards: int = 0        # public count of unplayed development cards
    played_card: bool = False
    knights: int = 0
    played: list[int] = Field(default_factory=lambda: [0] * 5)  # development cards played, by kind (public)
    vp_cards: int = 0         # revealed at once (CE-5)
    loco: str | None = None   # the point the locomotive stands on: an intersection or a centre (CE-3)
    start: int | None = None  # the locomotive's starting intersection (never a stop, CE-7)
    towers: list[int] = Field(default_factory=list)  # stops whose water tower this seat collected
    chips: list[str] = Field(default_factory=list)   # "touch:<point>" / "join:<seat>" (CE-5)
    fastest: bool = False


class Building(BaseModel):
    model_config = ConfigDict(frozen=True)
    seat: int
    kind: Literal["settlement", "city"]


class Offer(_Stored):
    """The active player's offer (CE-B5): they give `give` and get `get`; `answers` maps each
    other seat to True (accept) or False (refuse) as it answers."""

    give: list[int]
    get: list[int]
    answers: dict[int, bool] = Field(default_factory=dict)


class CatanState(_Stored):
    game: Literal["catan_express"] = "catan_express"
    n: int
    seed: int
    draws: int = 0
    options: CatanOptions = Field(default_factory=CatanOptions)
    map_id: str
    phase: Phase = "setup"
    turn: int = 0                  # turns begun after setup (1, 2, …)
    current: int = 0               # whose turn (setup: who places)
    setup_pos: int = 0             # index into the snake order (CE-B6)
    setup_rail: bool = False       # the second settlement stands; its free rail is owed (CE-3)
    players: list[PlayerState]
    bank: list[int]
    deck: list[str]                # development cards, top first; empty in a view
    deck_left: int = 0
    buildings: dict[int, Building] = Field(default_factory=dict)
    pieces: dict[str, list[int]] = Field(default_factory=dict)  # piece name -> owners in building order
    robber: str
    dice: list[int] = Field(default_factory=list)   # this turn's roll, empty before it
    free_pieces: int = 0           # Road Building pieces left this turn
    moving: bool = False           # the locomotive has started moving this turn (CE-8)
    move_left: int = 0
    moved_on: PieceKind | None = None   # the kind of piece of the last leg (CE-11)
    gold_owed: list[list[int]] = Field(default_factory=list)  # [seat, cards] to choose, in order
    gold_then: Phase = "main"      # where the game goes once the gold is chosen
    discards: dict[int, int] = Field(default_factory=dict)    # seat -> cards still to discard
    offer: Offer | None = None
    offers_made: int = 0           # offers this turn (bounded so a turn always ends)
    special_queue: list[int] = Field(default_factory=list)    # CE-B7
    stop_queue: list[int] = Field(default_factory=list)       # CE-7
    stops: list[int] = Field(default_factory=list)
    race: bool = False
    starter: int | None = None
    race_winner: int | None = None
    largest_army: int | None = None
    joined: list[list[int]] = Field(default_factory=list)   # [a, b] pairs whose networks met (CE-5)
    # --- what happened, for the board and the log
    last_build: list[str] = Field(default_factory=list)     # points and pieces of the latest build
    last_ride: list[str] = Field(default_factory=list)  # points of the latest locomotive move
    last: list[Event] = Field(default_factory=list)
    history: list[dict[str, Any]] = Field(default_factory=list)  # per turn: the roll and VP, for the final post

    def clone(self) -> "CatanState":
        """A copy whose lists and dicts are the copy's own, to edit freely (tests, the view).
        Built by hand rather than with model_copy: ten times cheaper. The rules' derived facts
        stay behind (see `fork`): whoever edits the copy changes what they were derived from."""
        new = shallow(self)
        f = new.__dict__
        f.pop("_derived", None)
        f.pop("_owned", None)
        players = []
        for p in self.players:
            q = shallow(p)
            d = q.__dict__
            for name in ("hand", "dev", "dev_new"):
                if d[name] is not None:
                    d[name] = list(d[name])
            d["played"] = list(d["played"])
            d["towers"] = list(d["towers"])
            d["chips"] = list(d["chips"])
            players.append(q)
        f["players"] = players
        for name in ("bank", "deck", "dice", "stops", "special_queue", "stop_queue", "last_build", "last_ride",
                     "last", "history"):
            f[name] = list(f[name])
        f["gold_owed"] = [list(g) for g in self.gold_owed]
        f["joined"] = [list(j) for j in self.joined]
        f["buildings"] = dict(self.buildings)
        f["pieces"] = {k: list(v) for k, v in self.pieces.items()}
        f["discards"] = dict(self.discards)
        if self.offer is not None:
            offer = shallow(self.offer)
            offer.__dict__["answers"] = dict(self.offer.answers)
            f["offer"] = offer
        return new

    def fork(self) -> "CatanState":
        """The copy `apply` changes, copied on write: it shares every list and dict with its
        parent, and the rules replace what they change rather than change it in place (a
        hand, a queue, the pieces: `own` for a player, a new dict for the pieces or the
        buildings). Facts the rules derive from the pieces and buildings (kept beside the
        fields, never serialised) come along while those dicts are the same objects."""
        new = shallow(self)
        new.__dict__["_owned"] = 0   # the seats whose PlayerState this fork has copied (a bit each)
        return new

    def own(self, seat: int) -> "PlayerState":
        """The seat's PlayerState, this state's own to change: a fork copies it on the first
        change; a state made any other way owns all its players."""
        f = self.__dict__
        owned = f.get("_owned")
        players = f["players"]
        if owned is None or owned >> seat & 1:
            return players[seat]
        if not owned:  # the first change: the list of players becomes the fork's own too
            players = f["players"] = list(players)
        p = players[seat] = shallow(players[seat])
        f["_owned"] = owned | 1 << seat
        return p


class Menu(list):
    """Legal moves, listed kind by kind, that also say where each kind's moves lie: `runs`
    holds (kind, start, stop) in order, covering the list. A player drawing a kind first (the
    random bot) reads the runs instead of every move of a menu hundreds of offers long. It is
    a list like any other (a copy is a plain list). `runs_hold` notices a change of length or
    of the kinds where runs begin and end, not every change: a menu changed in place is best
    not handed to a reader of its runs."""

    __slots__ = ("runs",)
    runs: list[tuple[str, int, int]]

    @classmethod
    def empty(cls) -> "Menu":
        menu = cls()
        menu.runs = []
        return menu

    @classmethod
    def of(cls, kind: str, moves: Any) -> "Menu":
        """A menu of moves all of `kind`."""
        menu = cls(moves)
        menu.runs = [(kind, 0, len(menu))] if menu else []
        return menu

    def add(self, kind: str, moves: Any) -> None:
        """Moves all of `kind`."""
        if moves:
            start = len(self)
            self.extend(moves)
            self.runs.append((kind, start, len(self)))

    def add_kinds(self, moves: Any) -> None:
        """Moves of several kinds, each kind's together."""
        for move in moves:
            runs = self.runs
            if runs and runs[-1][0] == move.kind and runs[-1][2] == len(self):
                runs[-1] = (move.kind, runs[-1][1], len(self) + 1)
            else:
                runs.append((move.kind, len(self), len(self) + 1))
            self.append(move)

    def runs_hold(self) -> bool:
        """Whether `runs` still describes the list (nobody added, removed or moved a move)."""
        runs = getattr(self, "runs", None)
        if runs is None:
            return False
        at = 0
        for kind, start, stop in runs:
            if start != at or stop <= start or self[start].kind != kind or self[stop - 1].kind != kind:
                return False
            at = stop
        return at == len(self)


_EVENT_SET = {"key", "params", "to"}


def event(key: str, params: dict[str, Any], to: tuple[int, ...] | None = None) -> Event:
    """An Event built without validation (see `made`): `params` a fresh dict of JSON values,
    `to` None or a tuple of seats."""
    return made(Event, {"key": key, "params": params, "to": to}, _EVENT_SET)


# --- moves ---------------------------------------------------------------------------------
# Cards in a move are five counts in resource order; the notation writes them "2ore+1brick".

Cards = tuple[int, int, int, int, int]


class Roll(Move):
    kind: Literal["roll"] = "roll"


class Build(Move):
    """A settlement or city on an intersection, or a rail / ferry on a spoke / coast edge.
    In setup a settlement ("settlement") and the free rail ("rail") are built this way too."""

    kind: Literal["build"] = "build"
    what: Literal["settlement", "city", "rail", "ferry"]
    at: str


class Buy(Move):
    kind: Literal["buy"] = "buy"


class Robber(Move):
    """Move the robber to `hex` and rob `victim` (None: nobody there to rob). As a Knight
    (`knight`) it is a development card played; otherwise the roll was a 7."""

    kind: Literal["robber"] = "robber"
    hex: str
    victim: int | None = None
    knight: bool = False


class Monopoly(Move):
    kind: Literal["monopoly"] = "monopoly"
    resource: str


class Plenty(Move):
    kind: Literal["plenty"] = "plenty"
    cards: Cards


class Roads(Move):
    kind: Literal["roads"] = "roads"


class Discard(Move):
    kind: Literal["discard"] = "discard"
    cards: Cards


class Gold(Move):
    kind: Literal["gold"] = "gold"
    cards: Cards


class BankTrade(Move):
    kind: Literal["bank"] = "bank"
    give: Cards
    get: Cards


class Propose(Move):
    kind: Literal["offer"] = "offer"
    give: Cards
    get: Cards


class Answer(Move):
    kind: Literal["answer"] = "answer"
    accept: bool


class Partner(Move):
    """Close the offer with one of those who accepted (None: withdraw it)."""

    kind: Literal["partner"] = "partner"
    seat: int | None = None


class Leg(Move):
    """One piece passed along: to `to` (a point name), paying `payee` one `resource` when the
    piece is only others' (CE-8)."""

    to: str
    payee: int | None = None
    resource: str | None = None


class Ride(Move):
    kind: Literal["ride"] = "ride"
    legs: tuple[Leg, ...] = Field(min_length=1)


class NameStop(Move):
    kind: Literal["stop"] = "stop"
    at: int


class End(Move):
    """End one's turn (or one's special building turn, CE-B7)."""

    kind: Literal["end"] = "end"


CatanAction = Annotated[Union[Roll, Build, Buy, Robber, Monopoly, Plenty, Roads, Discard, Gold, BankTrade, Propose,
                              Answer, Partner, Ride, NameStop, End], Field(discriminator="kind")]


class SeatSummary(BaseModel):
    """One seat's public numbers (CE-12)."""

    points: int
    cards: int
    dev_cards: int
    knights: int
    towers: int
    chips: int
    settlements: int
    cities: int
    rails: int
    ferries: int
    largest_army: bool = False
    fastest: bool = False
    harbours: list[str] = Field(default_factory=list)  # kinds of the harbours its buildings trade at (CE-B5)
    ratios: list[int] = Field(default_factory=list)  # its bank trade ratio per resource, in RESOURCES order


class CatanView(BaseModel):
    viewer: int | None
    state: CatanState          # with the secrets blanked (see the module docstring)
    board: BoardLayout         # the laid-out board (the seed that dealt it is blanked with the state's)
    seats: list[SeatSummary]
    active: list[int]
    legal: list[str] = Field(default_factory=list)
    result: Result | None = None
    accepted: list[int] = Field(default_factory=list)  # who accepted the offer, once everyone answered

    @property
    def turn(self) -> int:
        return self.state.turn
