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
    (it would predict the dice) and, while an offer is being answered, the other answers.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from games.core.events import Event
from games.core.protocol import Result

# Bounds of a player's offers (CE-B5 puts no limit on terms; these keep the menus short and every
# turn finite): at most this many offers a turn, each giving 1–3 cards for 1–2.
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
        """A copy whose lists and dicts are the copy's own (what `apply` changes). Built by hand
        rather than with model_copy: apply runs for every move, and this is ten times cheaper."""
        new = shallow(self)
        f = new.__dict__
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
        """The copy `apply` changes: it shares every list the rules never change in place (they
        replace a hand, a deck, a queue or a piece's owners with a new list), so only the
        dicts changed item by item are copied. Cheaper than `clone` by half; use `clone` for a
        copy to edit freely."""
        new = shallow(self)
        f = new.__dict__
        f["players"] = [shallow(p) for p in self.players]
        f["buildings"] = dict(self.buildings)
        f["pieces"] = dict(self.pieces)
        return new


def shallow(model: BaseModel) -> Any:
    """A pydantic model's copy sharing its field values (the caller replaces what it changes)."""
    new = object.__new__(type(model))
    object.__setattr__(new, "__dict__", dict(model.__dict__))
    object.__setattr__(new, "__pydantic_fields_set__", model.__pydantic_fields_set__)  # never changed here
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


# --- moves ---------------------------------------------------------------------------------
# Cards in a move are five counts in resource order; the notation writes them "2ore+1brick".

class _Move(BaseModel):
    model_config = ConfigDict(frozen=True)


Cards = tuple[int, int, int, int, int]


class Roll(_Move):
    kind: Literal["roll"] = "roll"


class Build(_Move):
    """A settlement or city on an intersection, or a rail / ferry on a spoke / coast edge.
    In setup a settlement ("settlement") and the free rail ("rail") are built this way too."""

    kind: Literal["build"] = "build"
    what: Literal["settlement", "city", "rail", "ferry"]
    at: str


class Buy(_Move):
    kind: Literal["buy"] = "buy"


class Robber(_Move):
    """Move the robber to `hex` and rob `victim` (None: nobody there to rob). As a Knight
    (`knight`) it is a development card played; otherwise the roll was a 7."""

    kind: Literal["robber"] = "robber"
    hex: str
    victim: int | None = None
    knight: bool = False


class Monopoly(_Move):
    kind: Literal["monopoly"] = "monopoly"
    resource: str


class Plenty(_Move):
    kind: Literal["plenty"] = "plenty"
    cards: Cards


class Roads(_Move):
    kind: Literal["roads"] = "roads"


class Discard(_Move):
    kind: Literal["discard"] = "discard"
    cards: Cards


class Gold(_Move):
    kind: Literal["gold"] = "gold"
    cards: Cards


class BankTrade(_Move):
    kind: Literal["bank"] = "bank"
    give: Cards
    get: Cards


class Propose(_Move):
    kind: Literal["offer"] = "offer"
    give: Cards
    get: Cards


class Answer(_Move):
    kind: Literal["answer"] = "answer"
    accept: bool


class Partner(_Move):
    """Close the offer with one of those who accepted (None: withdraw it)."""

    kind: Literal["partner"] = "partner"
    seat: int | None = None


class Leg(_Move):
    """One piece passed along: to `to` (a point name), paying `payee` one `resource` when the
    piece is only others' (CE-8)."""

    to: str
    payee: int | None = None
    resource: str | None = None


class Ride(_Move):
    kind: Literal["ride"] = "ride"
    legs: tuple[Leg, ...] = Field(min_length=1)


class NameStop(_Move):
    kind: Literal["stop"] = "stop"
    at: int


class End(_Move):
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


class CatanView(BaseModel):
    viewer: int | None
    state: CatanState          # with the secrets blanked (see the module docstring)
    board_seed: int            # the layout's seed: the state's own seed is blanked in a view
    seats: list[SeatSummary]
    active: list[int]
    legal: list[str] = Field(default_factory=list)
    result: Result | None = None
    accepted: list[int] = Field(default_factory=list)  # who accepted the offer, once everyone answered

    @property
    def turn(self) -> int:
        return self.state.turn
