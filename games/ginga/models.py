"""Galactic Railway state, actions, options and views (pydantic, JSON round-trippable).

Tiles are small integers (index into the tile set; the id is T{index + 1}). A placement is a
plain tuple (tile, x, y, orientation, seat, station points, loop points), so copying the state
for a move copies one short list.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from games.core.protocol import Event, Move, Result

# (tile, x, y, orient, seat, station points, loop points)
PlacementRow = tuple[int, int, int, int, int, int, int]


class GingaOptions(BaseModel):
    """`start_player`: seat number (1 = the first seat) who begins; random when absent (GT-7)."""

    model_config = ConfigDict(extra="forbid")
    start_player: int | None = Field(default=None, ge=1, le=4)


class LastPlacement(BaseModel):
    """One placement of the latest turn with what it scored, for the board image."""

    seat: int
    tile: str
    cells: list[tuple[int, int]]  # half L, half R
    station_points: int = 0
    stations: list[tuple[int, int]] = Field(default_factory=list)  # the network's stations
    loop_points: int = 0
    loop: list[tuple[int, int]] = Field(default_factory=list)  # the longest loop, in order


class GingaState(BaseModel):
    game: Literal["ginga"] = "ginga"
    n: int
    seed: int
    start: int  # the start player (GT-7)
    pile: list[int]  # face-up draw pile; pile[0] is the public top
    hands: list[list[int]]
    placed: list[PlacementRow] = Field(default_factory=list)
    current: int = 0
    step: Literal["place", "second", "over"] = "place"
    passes_in_row: int = 0  # GT-8: consecutive passes; a placement resets it
    turn: int = 0  # turns completed
    latest: list[LastPlacement] = Field(default_factory=list)  # placements of the latest turn
    last: list[Event] = Field(default_factory=list)  # public events of the last action

    def clone(self) -> "GingaState":
        new = self.model_copy()
        fields = new.__dict__
        fields["pile"] = list(self.pile)
        fields["hands"] = [list(h) for h in self.hands]
        fields["placed"] = list(self.placed)
        fields["latest"] = list(self.latest)
        fields["last"] = list(self.last)
        return new


# --- actions --------------------------------------------------------------------------
class Place(Move):
    """Put `tile` with its half L on (x, y), half R towards `orient` (0 right, 1 down, 2 left, 3 up)."""

    kind: Literal["place"] = "place"
    tile: int
    x: int
    y: int
    orient: int


class Stop(Move):
    """End the turn after the first placement, without placing the other tile (GT-6)."""

    kind: Literal["stop"] = "stop"


GingaAction = Annotated[Union[Place, Stop], Field(discriminator="kind")]


# --- views ----------------------------------------------------------------------------
class TileOnBoard(BaseModel):
    tile: str
    x: int
    y: int
    orient: int
    seat: int
    number: int  # 1 = the first tile of the game


class PlayerView(BaseModel):
    seat: int
    hand: list[str]  # public (GT-7)
    stations: int  # station points so far
    loops: int  # loop points so far
    total: int
    placed: int  # tiles this player has placed
    best_loop: int


class Frame(BaseModel):
    """Where the tiles are and where they may still go (GT-5's 8×8 box)."""

    min_x: int | None = None  # bounding box of the tiles (None before the first tile)
    max_x: int | None = None
    min_y: int | None = None
    max_y: int | None = None
    fixed_x: bool = False  # the box is 8 wide: the frame's columns are fixed
    fixed_y: bool = False
    reach: tuple[int, int, int, int] = (0, 0, 14, 14)  # x0, y0, x1, y1 tiles may still cover
    size: int = 8


class Option(BaseModel):
    """One legal placement for the viewer, with what it would score."""

    notation: str
    tile: str
    cells: list[tuple[int, int]]
    orient: int
    stations: int
    loop: int

    @property
    def points(self) -> int:
        return self.stations + self.loop


class Best(BaseModel):
    """A player's highest-scoring loop and station network of the game, where they lie."""

    seat: int
    loop_points: int = 0
    loop: list[tuple[int, int]] = Field(default_factory=list)  # the loop's cells, in order
    station_points: int = 0
    stations: list[tuple[int, int]] = Field(default_factory=list)  # the network's stations
    track: list[tuple[int, int]] = Field(default_factory=list)  # cells of the tiles that network runs through


class GingaView(BaseModel):
    game: Literal["ginga"] = "ginga"
    viewer: int | None
    n: int
    phase: str  # "play" or "over"
    step: str  # "place", "second" or "over"
    current: int
    start: int
    active: list[int]
    turn: int
    tiles: list[TileOnBoard]
    pile_top: str | None
    pile_size: int
    players: list[PlayerView]
    passes_in_row: int
    frame: Frame
    latest: list[LastPlacement]
    last: list[Event]
    result: Result | None = None
    legal: list[str] = Field(default_factory=list)  # the viewer's legal moves in notation
    options: list[Option] = Field(default_factory=list)  # ... with their points (viewer only)
    # every seat's total after each turn that placed a tile, from the first turn (public)
    score_history: list[list[int]] = Field(default_factory=list)
    bests: list[Best] = Field(default_factory=list)  # per seat, once the game is over
