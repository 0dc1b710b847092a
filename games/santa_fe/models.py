"""Santa Fe state, actions, options and views (pydantic, JSON round-trippable).

Cities, sections and railroads are small integers: indexes into the map's lists (railroads in
the map's order: SF, SP, GN, UP, KP). A line head is a tuple (city, section, built, end): the
city the line last reached, and when it is inside a section, that section (-1 at a city), how
many of its spaces are built and from which end it was started (0 = the section's `a`).
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from games.core.protocol import Event, Move, Result

DOUBLE = -1  # Choice.card: the double turn card
NOTHING = -2  # Choice.card: nothing could be played


class SantaFeOptions(BaseModel):
    """Chosen when the game is created."""

    model_config = ConfigDict(extra="forbid")
    advanced: bool = False  # SF-11: money, terrain costs, engineers, passing
    buy_track: bool = False  # SF-12: the optional rule, buying track tiles
    first_player: int | None = None  # SF-1: random unless the host sets it


class Choice(BaseModel):
    model_config = ConfigDict(frozen=True)
    card: int  # a city index, DOUBLE or NOTHING
    spur: bool = False


class PlayerState(BaseModel):
    hand: list[int]  # city cards (city indexes), sorted
    doubles: int = 0  # double turn cards in hand (public)
    spur: int = -1  # railroad of the spur card in hand, -1 none (public)
    money: int
    played: list[int] = Field(default_factory=list)  # city cards played, face up
    engineer: bool = False
    engineer_drawn: bool = False  # taken instead of a card: hand limit 4 (SF-11)
    decided_engineer: bool = False
    bought: list[int] = Field(default_factory=lambda: [0] * 5)  # SF-12: tiles bought, per railroad
    choice: Choice | None = None  # secret until everyone has chosen
    revealed: Choice | None = None  # this round's choice, public after the reveal
    spur_active: int = -1  # railroad of the spur played this round
    spur_used: bool = False
    exchanged: bool = False

    def clone(self) -> "PlayerState":
        new = self.model_copy()
        f = new.__dict__
        f["hand"] = list(self.hand)
        f["played"] = list(self.played)
        f["bought"] = list(self.bought)
        return new

    @property
    def double_turn(self) -> bool:
        return self.revealed is not None and self.revealed.card == DOUBLE

    def hand_size(self) -> int:
        return len(self.hand) + self.doubles + (self.spur >= 0)


Phase = Literal["engineer", "choose", "track", "exchange", "draw", "buy", "over"]


class SantaFeState(BaseModel):
    game: Literal["santa_fe"] = "santa_fe"
    n: int
    seed: int
    draws: int = 0
    options: SantaFeOptions = Field(default_factory=SantaFeOptions)
    deck: list[int]  # city cards, top = END of the list
    removed: list[int] = Field(default_factory=list)  # exchanged away: out of the game (SF-3)
    doubles_total: int
    double_pile: int  # face-up double turn cards beside the board
    spurs: list[int]  # spur cards left per railroad
    spurs_used: int = 0  # spur cards played (they leave the game, SF-5)
    engineers: int = 0  # engineer cards left (advanced)
    supply: list[int]  # unbought, unplaced tiles per railroad
    sec_rr: list[int]  # per section: railroad that started it, -1 free
    sec_built: list[int]  # per section: spaces built
    sec_from: list[int]  # per section: 0 started from `a`, 1 from `b`
    lines: list[list[tuple[int, int, int, int]]]  # per railroad: line heads (city, section, built, end)
    connected: list[int]  # per city: bit mask of the railroads reaching it
    players: list[PlayerState]
    phase: Phase = "choose"
    round: int = 1
    first: int = 0
    track_turn: int = 0  # 1 or 2 during the track-laying turns
    order_pos: int = 0  # position in seat order (from the first player) in sequential phases
    left: int = 0  # placements the current player still has in this track-laying turn
    placed_now: int = 0  # placements the current player made in this track-laying turn
    passes: int = 0  # players who passed the whole track-laying turn (SF-11)
    end_reason: str | None = None
    ended_by: int | None = None
    last: list[Event] = Field(default_factory=list)
    # The last turn: one seat's run of moves in one phase (a double turn's two tiles, a draw's
    # cards), so a board can show all of it, not only its last move. Defaults: old games load.
    turn_key: list[int | str] = Field(default_factory=list)  # [seat, round, phase, track turn]
    turn_events: list[Event] = Field(default_factory=list)  # public events of that turn
    turn_tiles: list[tuple[int, int]] = Field(default_factory=list)  # (section, built order) placed
    scores: list[list[int]] = Field(default_factory=list)  # each seat's public score after each turn

    @property
    def current(self) -> int:
        return (self.first + self.order_pos) % self.n

    def clone(self) -> "SantaFeState":
        new = self.model_copy()
        f = new.__dict__
        for name in ("deck", "removed", "spurs", "supply", "sec_rr", "sec_built", "sec_from", "connected", "last",
                     "turn_key", "turn_events", "turn_tiles"):
            f[name] = list(f[name])
        f["lines"] = [list(heads) for heads in self.lines]
        f["players"] = [p.clone() for p in self.players]
        f["scores"] = [list(row) for row in self.scores]
        return new


# --- actions --------------------------------------------------------------------------
class Play(Move):
    """SF-2: the secret card choice (a city card or the double turn, with or without a spur)."""

    kind: Literal["play"] = "play"
    card: int  # city index, DOUBLE or NOTHING
    spur: bool = False


class Place(Move):
    kind: Literal["place"] = "place"
    rr: int
    section: int
    end: int  # 0: built from the section's `a` city, 1: from `b`
    spur: bool = False  # starts a new line with the spur card played this round


class Pass(Move):
    kind: Literal["pass"] = "pass"


class Decline(Move):
    """SF-12: refuse to place one's own bought tiles (counts as unable to place)."""

    kind: Literal["decline"] = "decline"


class Exchange(Move):
    kind: Literal["exchange"] = "exchange"
    cards: tuple[int, ...] = ()


class Draw(Move):
    kind: Literal["draw"] = "draw"
    what: Literal["city", "double", "spur", "engineer"]
    rr: int = -1  # for a spur


class Buy(Move):
    """SF-12: buy one track tile (rr) or none (rr = -1)."""

    kind: Literal["buy"] = "buy"
    rr: int = -1


class Engineer(Move):
    """SF-11: buy an engineer before the first round, or not."""

    kind: Literal["engineer"] = "engineer"
    buy: bool


SantaFeAction = Annotated[Union[Play, Place, Pass, Decline, Exchange, Draw, Buy, Engineer], Field(discriminator="kind")]


# --- views ----------------------------------------------------------------------------
class PlayerView(BaseModel):
    seat: int
    money: int
    played: list[int]
    hand_size: int
    doubles: int
    spur: int
    engineer: bool
    bought: list[int]
    chosen: bool  # has made this round's choice (what it is stays secret until the reveal)
    revealed: Choice | None = None
    spur_active: int = -1
    spur_used: bool = False
    score: int = 0  # money + played cards at the current connections
    # Private: only in the owner's view.
    hand: list[int] | None = None
    choice: Choice | None = None


class SantaFeView(BaseModel):
    game: Literal["santa_fe"] = "santa_fe"
    viewer: int | None
    n: int
    options: SantaFeOptions
    phase: str
    round: int
    first: int
    track_turn: int
    current: int | None
    active: list[int]
    left: int
    deck_size: int
    double_pile: int
    spurs: list[int]
    engineers: int
    supply: list[int]
    sec_rr: list[int]
    sec_built: list[int]
    sec_from: list[int]
    lines: list[list[tuple[int, int, int, int]]]
    connected: list[int]
    players: list[PlayerView]
    last: list[Event]
    turn_seat: int | None = None  # who played the last turn
    turn_events: list[Event] = Field(default_factory=list)
    turn_tiles: list[tuple[int, int]] = Field(default_factory=list)
    scores: list[list[int]] = Field(default_factory=list)
    end_reason: str | None = None
    result: Result | None = None
    legal: list[str] = Field(default_factory=list)
