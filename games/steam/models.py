"""Steam's stored state, options, moves and view (pydantic, JSON round-trip).

Why it is shaped so
    The pure modules beside this one (building, delivery, economy, auction, track) work on frozen
    dataclasses; the state keeps the same facts as plain JSON values, named the way players name
    them — hexes by their map label ("C7"), tiles by face id, colours by name — so a stored game
    reads like the board. `rails` is parsed back into a `track.Rails` once per state object and
    kept in a private cache: the link tracing memoised on a Rails survives every question asked
    of one state, and a copy of the state shares it until a build replaces it.

    Everything in Steam is public (ST-15), so the view is the state's facts plus who may move
    and what they may do; only the seed is blanked (0): every random draw comes from it.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from games.core.events import Event
from games.core.protocol import Move, Result

COLOURS = ("red", "blue", "yellow", "purple", "gray")  # cube count lists follow this order
ACTION_TILES = ("turn_order", "first_deliver", "engineer", "first_build", "city_growth", "locomotive", "urbanize")

Phase = Literal["first_auction", "capital", "auction", "actions", "build", "deliver", "over"]


class SteamOptions(BaseModel):
    """Chosen when the game is created. `map`: ST-M1 (either map for 3–5 players).
    `standard`: the standard game (ST-12) instead of the basic game. `first_order`: the basic
    game's first turn order by auction (default) or at random with $1, $2, … to later seats
    (ST-11); the standard game always starts from a random action tile each."""

    model_config = ConfigDict(extra="forbid")
    map: Literal["northeast", "rhine_ruhr"] = "northeast"
    standard: bool = False
    first_order: Literal["auction", "random"] = "auction"


class PlayerState(BaseModel):
    cash: int = 0
    income: int = 0
    points: int = 0
    locomotive: int = 1
    action: str | None = None        # the action tile taken this turn
    declined: bool = False           # basic game: declined when taken (ST-11)
    action_done: bool = False        # City Growth / Urbanize carried out this turn
    loco_upgraded: bool = False      # upgraded in this turn's delivery phase (ST-8: once)
    bankrupt: bool = False
    last_tile: int = 99              # the number of the action tile of the latest turn (ST-14 tie-break)
    delivered: int = 0               # cubes this seat delivered (statistics)


class StoredLink(BaseModel):
    """One link record: id, owner (None: unowned), the last turn its owner built on it, and its
    track segments as [hex label, [absolute sides]] (a town tile's track pairs an exit with -1)."""

    model_config = ConfigDict(frozen=True)
    id: int
    owner: int | None = None
    extended: int = 0
    segments: tuple[tuple[str, tuple[int, ...]], ...]


class StoredTile(BaseModel):
    model_config = ConfigDict(frozen=True)
    hex: str
    face: str
    rotation: int
    pairing: int


_set = object.__setattr__


def _copy(model: BaseModel) -> Any:
    """A shallow copy of a model, as `model_copy()` makes it, without the general case's
    checks (the rules copy the state and every player on each move)."""
    new = object.__new__(model.__class__)
    _set(new, "__dict__", model.__dict__.copy())
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_fields_set__", model.__pydantic_fields_set__.copy())
    private = model.__pydantic_private__
    _set(new, "__pydantic_private__", None if private is None else dict(private))
    return new


class SteamState(BaseModel):
    game: Literal["steam"] = "steam"
    n: int
    seed: int
    draws: int = 0
    options: SteamOptions = Field(default_factory=SteamOptions)
    turn: int = 1
    turns: int = 8                       # game length (ST-14)
    phase: Phase = "actions"
    order: list[int]                     # this turn's turn order (seats still in the game)
    players: list[PlayerState]
    # --- the board
    tiles: list[StoredTile] = Field(default_factory=list)
    links: list[StoredLink] = Field(default_factory=list)
    next_link: int = 1
    new_cities: dict[str, str] = Field(default_factory=dict)   # town hex -> new city colour (ST-7)
    new_city_tiles: dict[str, int] = Field(default_factory=dict)  # colour -> tiles left
    grown: list[str] = Field(default_factory=list)            # cities with a growth marker
    growth_left: int = 10
    stock: list[int] = Field(default_factory=list)            # unplaced tiles per pairing (ST-T2)
    cubes: dict[str, list[int]] = Field(default_factory=dict)  # city hex -> cubes per colour
    supply: list[list[int]] = Field(default_factory=list)      # 12 goods supply spaces
    bag: list[int] = Field(default_factory=list)               # never drawn from after setup
    delivered: list[int] = Field(default_factory=lambda: [0] * 5)
    # --- where the turn stands
    auction: dict[str, Any] | None = None     # auction.BasicAuction / StandardAuction fields
    step_order: list[int] = Field(default_factory=list)  # the seats of this phase, in order
    step_pos: int = 0
    placed: int = 0                          # placements the builder made this turn (ST-1)
    built_hexes: list[str] = Field(default_factory=list)  # hexes the current builder changed
    deliver_round: int = 1
    pending: list[tuple[int, int]] = Field(default_factory=list)  # (seat, points) still to choose income/points
    holder: int | None = None                # took Turn Order last turn (standard game's free pass)
    # --- money accounting (every dollar between players and bank)
    bank_out: int = 0
    bank_in: int = 0
    # --- what happened, for the board and the log
    last: list[Event] = Field(default_factory=list)
    turn_key: list[int | str] = Field(default_factory=list)
    turn_events: list[Event] = Field(default_factory=list)
    last_builds: list[str] = Field(default_factory=list)    # hexes changed in the latest build turn
    last_route: list[int] = Field(default_factory=list)     # link ids of the latest delivery
    last_route_places: list[str] = Field(default_factory=list)
    scores: list[list[int]] = Field(default_factory=list)   # each seat's victory points after each turn
    history: list[dict[str, Any]] = Field(default_factory=list)  # per game turn: statistics for tests and the final post

    # The parsed rails (what is derived from them is kept on the Rails value itself); never
    # stored, never compared: two states are equal when their fields are.
    _rails: Any = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, k) == getattr(other, k)
                                                  for k in type(self).model_fields)

    __hash__ = None  # type: ignore[assignment]  # mutable, like every pydantic model

    def clone(self) -> "SteamState":
        """A copy the rules may change without touching this state. The rules change in place
        only the containers copied here; every other field (order, tiles, links, stock, bag,
        step order, auction, the latest events, builds and route, each city's and supply
        space's cube counts) they only ever replace, so the copy shares those until it does
        (tests/games/test_steam_golden.py checks that apply leaves its input as it was)."""
        new = _copy(self)
        f = new.__dict__
        for name in ("grown", "delivered", "built_hexes", "pending", "turn_events", "scores", "history"):
            f[name] = list(f[name])
        f["players"] = [_copy(p) for p in self.players]
        f["new_cities"] = dict(self.new_cities)
        f["new_city_tiles"] = dict(self.new_city_tiles)
        f["cubes"] = dict(self.cubes)
        f["supply"] = list(self.supply)
        return new  # the parsed rails come along with the private attributes

    @property
    def in_game(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if not p.bankrupt]


# --- moves ---------------------------------------------------------------------------------


class Bid(Move):
    """A bid in a turn-order auction (the basic game's first turn, the standard game's every turn)."""

    kind: Literal["bid"] = "bid"
    amount: int = Field(ge=0)


class Capital(Move):
    """Standard game phase 1: give `steps` income spaces for $5 each (ST-12)."""

    kind: Literal["capital"] = "capital"
    steps: int = Field(ge=0)


class Take(Move):
    """Take an action tile; in the basic game City Growth and Urbanize may be declined now (ST-11)."""

    kind: Literal["take"] = "take"
    tile: str
    decline: bool = False


class Place(Move):
    """Lay a track tile: on an empty hex ("build"), over a tile ("upgrade", ST-6), or replacing the
    last tile of an incomplete link ("redirect", ST-5)."""

    kind: Literal["place"] = "place"
    how: Literal["build", "upgrade", "redirect"] = "build"
    hex: str
    face: str
    rotation: int = Field(ge=0, le=5)


class Urbanize(Move):
    """ST-7: a new city tile of `colour` on the town `hex`, then the cubes of supply space
    `space` (1–12; 0 when every supply space is empty)."""

    kind: Literal["urbanize"] = "urbanize"
    hex: str
    colour: str
    space: int = Field(ge=0)


class Grow(Move):
    """City Growth (action 5): the cubes of supply space `space` onto `hex`, which gets a marker."""

    kind: Literal["grow"] = "grow"
    hex: str
    space: int = Field(ge=1)


class Done(Move):
    """End one's building turn (in the standard game also forgoing an undone City Growth or
    Urbanize, ST-12)."""

    kind: Literal["done"] = "done"


class Deliver(Move):
    """ST-9: a cube of `colour` from the city `source` along `route` (the route notation of
    games/steam/delivery.py, places joined by "-")."""

    kind: Literal["deliver"] = "deliver"
    colour: str
    route: str


class Upgrade(Move):
    """ST-8: raise the locomotive one level instead of delivering (free, once per turn)."""

    kind: Literal["locomotive"] = "locomotive"


class Pass(Move):
    """Do nothing this time: drop out of a turn-order auction (or use the Turn Order tile's free
    pass), or deliver nothing in this delivery round."""

    kind: Literal["pass"] = "pass"


class Score(Move):
    """ST-9: put all of this delivery's points into income or into victory points."""

    kind: Literal["score"] = "score"
    into: Literal["income", "points"]


SteamAction = Annotated[Union[Bid, Capital, Take, Place, Urbanize, Grow, Done, Deliver, Upgrade, Pass,
                              Score], Field(discriminator="kind")]


class SteamView(BaseModel):
    """What anybody may see (ST-15: everything but the seed), plus who may move and the viewer's
    legal moves."""

    viewer: int | None
    state: SteamState
    active: list[int]
    legal: list[str] = Field(default_factory=list)
    result: Result | None = None

    @property
    def turn(self) -> int:
        """The game turn (1 … state.turns), as other games' views name it."""
        return self.state.turn
