"""Ticket to Ride state, actions, options and views (pydantic, JSON round-trippable).

Cards are stored as small integers: indexes into `TicketToRideMap.card_colors` (0..7 the colours,
8 the locomotive), which keeps the state cheap to copy; views turn them back into names.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from games.core.protocol import Event, Move, Result

LOCO = 8  # index of the locomotive in card_colors
EMPTY = -1  # an empty face-up slot (the deck and discard ran out)
UNCLAIMED = -1


class TicketToRideOptions(BaseModel):
    """The USA rulebook describes no variants; the model exists so every game takes options
    the same way and unknown keys are refused rather than silently ignored."""

    model_config = ConfigDict(extra="forbid")


class PlayerState(BaseModel):
    hand: list[int]  # count of each card kind, indexed like card_colors
    tickets: list[int] = Field(default_factory=list)  # kept ticket ids
    offered: list[int] = Field(default_factory=list)  # tickets drawn, waiting for a keep
    keep_min: int = 0
    trains: int

    def clone(self) -> "PlayerState":
        # A shallow pydantic copy, then fresh lists: far cheaper than model_construct, and the
        # copy shares nothing mutable with the original.
        new = self.model_copy()
        fields = new.__dict__
        fields["hand"] = list(self.hand)
        fields["tickets"] = list(self.tickets)
        fields["offered"] = list(self.offered)
        return new


class TicketToRideState(BaseModel):
    game: Literal["ticket_to_ride"] = "ticket_to_ride"
    n: int
    seed: int
    draws: int = 0  # how many random draws were made: the RNG counter
    deck: list[int]  # top of the deck is the END of the list
    discard: list[int] = Field(default_factory=list)
    face_up: list[int]  # five slots, EMPTY when nothing could be dealt
    face_up_stuck: bool = False  # TTR-2: a row with 3+ locomotives no deal can fix was announced
    ticket_deck: list[int]  # top is the START of the list; returned tickets go to the end
    owners: list[int]  # per route id: owning seat or UNCLAIMED
    players: list[PlayerState]
    phase: Literal["choose", "play", "over"] = "choose"
    current: int = 0
    drew_one: bool = False  # the current player took one card and must take a second
    final_turns: int | None = None  # turns left once the end was triggered
    triggered_by: int | None = None
    passes_in_row: int = 0
    turn: int = 0  # turns completed in the play phase
    end_reason: str | None = None
    last: list[Event] = Field(default_factory=list)  # public events of the last action
    # The whole last turn, for the board (both draws of a card turn, not only the second):
    turn_log: list[Event] = Field(default_factory=list)  # its public events
    turn_route: int | None = None  # the route it claimed
    turn_cards: list[str] = Field(default_factory=list)  # where each card came from: a colour or "deck"
    # Public score (route points) of every seat after each turn of the play phase: the chart.
    history: list[list[int]] = Field(default_factory=list)

    def clone(self) -> "TicketToRideState":
        """A copy safe to change: containers are copied, events are immutable."""
        new = self.model_copy()
        fields = new.__dict__
        for name in ("deck", "discard", "face_up", "ticket_deck", "owners", "last", "turn_log", "turn_cards",
                     "history"):
            fields[name] = list(fields[name])
        fields["players"] = [p.clone() for p in self.players]
        return new


# --- actions --------------------------------------------------------------------------
class DrawCard(Move):
    kind: Literal["draw"] = "draw"
    source: str  # "deck" or a face-up card colour name (incl. "locomotive")


class DrawTickets(Move):
    kind: Literal["tickets"] = "tickets"


class KeepTickets(Move):
    kind: Literal["keep"] = "keep"
    ids: tuple[int, ...]


class Claim(Move):
    kind: Literal["claim"] = "claim"
    route: int
    color: str  # colour of the non-locomotive cards paid ("locomotive" when all are)
    locos: int = 0  # locomotives paid


class Pass(Move):
    kind: Literal["pass"] = "pass"


TicketToRideAction = Annotated[Union[DrawCard, DrawTickets, KeepTickets, Claim, Pass], Field(discriminator="kind")]


# --- views ----------------------------------------------------------------------------
class TicketView(BaseModel):
    id: int
    a: str
    b: str
    points: int
    completed: bool | None = None  # known to the owner during play, to all at the end


class PlayerView(BaseModel):
    seat: int
    trains: int
    card_count: int
    ticket_count: int
    route_points: int  # public score so far (routes only; tickets stay secret)
    routes_claimed: int
    longest: int  # length of this player's longest continuous path
    choosing: int  # tickets this player is choosing from right now (0 = not choosing)
    longest_routes: list[int] = Field(default_factory=list)  # at the end: the routes of the longest path
    # Private parts: filled only in the owner's view (and tickets for all at the end).
    hand: dict[str, int] | None = None
    tickets: list[TicketView] | None = None
    offered: list[TicketView] | None = None
    keep_min: int = 0


class TicketToRideView(BaseModel):
    game: Literal["ticket_to_ride"] = "ticket_to_ride"
    viewer: int | None
    n: int
    phase: str
    current: int
    active: list[int]
    drew_one: bool
    final_round: bool
    turns_left: int | None
    face_up: list[str | None]
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    owners: list[int]
    players: list[PlayerView]
    last: list[Event]
    turn: int
    turn_log: list[Event] = Field(default_factory=list)  # public events of the whole last turn
    turn_route: int | None = None  # the route the last turn claimed
    turn_cards: list[str] = Field(default_factory=list)  # cards the last turn took: colour, or "deck" (hidden)
    history: list[list[int]] = Field(default_factory=list)  # seat scores after each turn (finals last at the end)
    result: Result | None = None
    legal: list[str] = Field(default_factory=list)  # the viewer's legal moves in notation
