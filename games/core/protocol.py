"""The rules protocol shared by all Railyard games.

A game is a stateless object whose methods take a state and return new values; a state is
a pydantic model that round-trips through JSON (it is what the database stores). Seats are
numbered 0..n-1. Several seats may be active at once (simultaneous choices), a turn may take
several actions (the state remembers where in the turn it is), and every random draw comes
from the seed kept in the state.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, Sequence, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from games.core.choices import Decision, one_step_decision
from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.vocabulary import Vocabulary

StateT = TypeVar("StateT", bound=BaseModel)
ActionT = TypeVar("ActionT", bound=BaseModel)
ViewT = TypeVar("ViewT", bound=BaseModel)


class Move(BaseModel):
    """A player's move: immutable and hashable, so menus, standing orders and bots can compare,
    keep and look moves up. Each game's moves say which they are in a `kind` literal."""

    model_config = ConfigDict(frozen=True)


class ApplyResult(BaseModel, Generic[StateT]):
    """What `apply` returns: the new state, what happened, and whether it may be undone.

    `undoable` is False when the action revealed hidden information or used randomness:
    undoing it would let a player peek or re-roll.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)
    state: Any
    events: list[Event] = Field(default_factory=list)
    undoable: bool = False


class ScoreLine(BaseModel):
    """One line of a player's final breakdown: a category, its points and what it was for."""

    category: str
    points: int
    key: str = ""  # catalog key describing the line (e.g. a ticket), optional
    params: dict[str, Any] = Field(default_factory=dict)


class PlayerResult(BaseModel):
    seat: int
    rank: int  # 1 = first; tied players share a rank
    total: int
    lines: list[ScoreLine] = Field(default_factory=list)
    stats: dict[str, Any] = Field(default_factory=dict)  # e.g. longest path length

    def by_category(self) -> dict[str, int]:
        """Points per category (every category a line mentions, zero ones included)."""
        totals: dict[str, int] = {}
        for line in self.lines:
            totals[line.category] = totals.get(line.category, 0) + line.points
        return totals


class Tie(BaseModel):
    """Two players next to each other in the ranking with the same total, and what the rules
    say about their order: `key` is the catalog key of the tie-break that put `above` first
    (or of the game's "they share the place" when none did). Its sentence names both players
    ({above_seat}, {below_seat}) and may quote the figures compared, `params` (their totals as
    {points}, the compared values as {above} and {below})."""

    above: int
    below: int
    key: str
    shared: bool = False
    params: dict[str, Any] = Field(default_factory=dict)

    def words(self) -> dict[str, Any]:
        """The catalog parameters of the tie's sentence."""
        return {**self.params, "above_seat": self.above, "below_seat": self.below}


class Result(BaseModel):
    """The end of a game: players in rank order with their breakdowns."""

    players: list[PlayerResult]
    categories: list[str]  # order in which breakdowns are shown
    label_prefix: str = ""  # category labels are catalog keys "<label_prefix>.category.<name>"
    reason: str = "end"  # catalog suffix: why the game ended
    ties: list[Tie] = Field(default_factory=list)  # every pair of neighbours on the same total


class Game(ABC, Generic[StateT, ActionT, ViewT]):
    """One game's rules. Subclasses are stateless singletons registered in games.registry."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[BaseModel]]
    state_model: ClassVar[type[BaseModel]]
    action_model: ClassVar[Any]  # a pydantic type (often a discriminated union) for actions
    view_model: ClassVar[type[BaseModel]]
    # Whether a seat can hold anything the others may not see (a hand, tickets, a secret
    # choice), as the game's rulebook says. Adapters offer a player a private look at their
    # own part ("Show my hand") only in a game where something is private.
    private_information: ClassVar[bool]
    # The figures of a player's result (PlayerResult.stats) that a profile shows the best of,
    # a player's records in this game ("<game>.stat.<name>" in the game's catalog names each).
    record_stats: ClassVar[tuple[str, ...]] = ()

    # --- lifecycle -----------------------------------------------------------------
    @abstractmethod
    def setup(self, n_players: int, options: dict[str, Any] | BaseModel | None, seed: int) -> StateT: ...

    @abstractmethod
    def active_players(self, state: StateT) -> frozenset[int]: ...

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[ActionT]:
        """The seat's legal moves, every one of them — except a family too large to list (any
        offer a hand can make): the seat's decision has a counted group for it (see
        games/core/choices.py), this list may hold only some of its moves (what /move
        suggests), and `apply` judges the others."""

    @abstractmethod
    def apply(self, state: StateT, seat: int, action: ActionT) -> ApplyResult:
        """Validate and apply; raise IllegalAction; never mutate `state`."""

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> ViewT:
        """What `seat` (or a spectator, None) may see. The only place secrets are stripped."""

    @abstractmethod
    def result(self, state: StateT) -> Result | None: ...

    # --- notation --------------------------------------------------------------------
    @abstractmethod
    def format_action(self, action: ActionT) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """Raise IllegalAction('unparsable', text=...) on garbage."""

    def public_notation(self, action: ActionT) -> str:
        """The notation as everyone may read it (logs, announcements). A move whose notation
        names something secret (which tickets were kept) overrides this to hide it."""
        return self.format_action(action)

    @abstractmethod
    def describe_action(self, state: StateT, seat: int, action: ActionT) -> Event:
        """Words for a move the seat could make (autocomplete labels, buttons)."""

    def describe_public(self, state: StateT, seat: int, action: ActionT) -> Event | None:
        """Words for a move as everyone may read them, for a move whose notation names something
        secret (`public_notation` hides it): what a line saying the move was made for the seat
        shows ("Answer the offer", not which answer). None (the default): that line shows the
        public notation."""
        return None

    def vocabulary(self) -> Vocabulary:
        """What a person may type for this game's things besides the notation's own spelling
        (names in other languages, synonyms); games.core.typed reads a typed move with it.
        Default: nothing beyond the notation."""
        return Vocabulary()

    # --- helpers with sensible defaults -----------------------------------------------
    def timeout_action(self, state: StateT, seat: int) -> ActionT:
        """The mildest legal move, made for a player whose deadline passed."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction("no_legal_action")
        return actions[0]

    def decision(self, state: StateT, seat: int) -> Decision:
        """The seat's legal moves as a menu (see games/core/choices.py): by default one
        pick per legal move. A game overrides it to group moves into steps (route, then
        payment), to offer multi-picks and amounts, and to mark a secret choice."""
        return one_step_decision(self, state, seat)

    def menu_head(self, state: StateT, seat: int) -> Decision:
        """`decision` as far as its first step shows it (the public turn post's buttons): its
        key, prompt, groups and amounts, and some of its choices, at least one per first pick
        and two where that pick leads to several moves, so that Decision.first_step() is the
        full decision's, words and all. A game whose full menu is costly to make (Steam's
        build turns: hundreds of placements) makes this from less; by default, the decision."""
        return self.decision(state, seat)

    def prompt(self, state: StateT, seat: int) -> Event | None:
        """What the game is asking this seat to do now (None when not active), in words
        addressed to that seat. A reminder tells it in the game's channel too, so it is drawn
        from what everyone may know (how many cards a hand holds, never which)."""
        return None

    def forced_action(self, state: StateT, seat: int) -> ActionT | None:
        """The move `seat` (active) is bound to make, when it is its only legal move and making
        it for them reveals nothing the others may not know (a player whose public card count
        pays for nothing passes); None when the person must be asked. The platform makes it at
        once, says so in the log and pings nobody. Default: none, everyone is asked. A game
        where nothing is private may return `sole_legal_action`."""
        return None

    def sole_legal_action(self, state: StateT, seat: int) -> ActionT | None:
        """The seat's only legal move; None when it has several (or none)."""
        legal = self.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None

    # --- standing orders (moves set in advance, applied when the seat's turn comes) ------
    def order_choices(self, state: StateT, seat: int) -> Decision:
        """The standing orders `seat` may set now, as a menu whose moves are order notations
        (the shared chooser presents it like any decision). Default: none, the game has no
        standing orders. A game whose turns pass through every player many times (bids,
        income-or-points answers) offers them so an asynchronous game waits less on people."""
        return Decision(seat=seat)

    def follow_orders(self, state: StateT, seat: int, orders: Sequence[str]) -> tuple[ActionT | None, list[str]]:
        """The move `orders` make for `seat` now, or None to wait for the person; and the
        orders still standing afterwards (an order used up or made moot is dropped). Called
        only when `seat` is active. The move must be legal: the platform applies it as the
        seat's own, announced as made by an order."""
        return None, list(orders)

    def describe_order(self, state: StateT, seat: int, order: str) -> Event:
        """Words for a standing order (its owner's list of orders). Raises IllegalAction
        ('unparsable', text=...) for an order the game cannot read."""
        raise IllegalAction("unparsable", text=order)

    def orders_after_own_move(self, state: StateT, seat: int, orders: Sequence[str], action: ActionT) -> list[str]:
        """The seat's standing orders still standing after it made `action` itself in `state`
        (the state before the move): a subset of `orders`, the rest cancelled. Default: none,
        a move of one's own replaces whatever one had decided in advance (orders for this
        turn's moves, as Steam's are). A game whose orders are standing answers meant for the
        whole game ("refuse every offer") keeps them."""
        return []

    # --- answers that lapse -------------------------------------------------------------
    def lapse_action(self, state: StateT, seat: int) -> ActionT | None:
        """The move made for `seat` (waited on) when the game's reminder delay has passed since
        the game began waiting on such moves and the seat has not made it: an answer that
        lapses (an unanswered trade offer counts as refused), so one slow person does not hold
        the game. Like a forced move it must reveal nothing: the rules fix it from public facts
        and the clock. None (the default): the seat is reminded and waited on as long as it
        takes."""
        return None

    def bots(self) -> dict[str, Any]:
        """Bot name -> bot object with `choose(game, state, seat, rng) -> action`."""
        return {}

    def load_state(self, data: str | bytes | dict) -> StateT:
        """Rebuild a state from its stored JSON (raises pydantic.ValidationError on junk)."""
        if isinstance(data, dict):
            return self.state_model.model_validate(data)  # type: ignore[return-value]
        return self.state_model.model_validate_json(data)  # type: ignore[return-value]

    def dump_state(self, state: StateT) -> str:
        return state.model_dump_json()

    def is_over(self, state: StateT) -> bool:
        return self.result(state) is not None

    def check_invariants(self, state: StateT) -> None:
        """Raise AssertionError if conservation laws (cards, pieces, money) are broken."""

    def parse_many(self, lines: Sequence[str]) -> list[ActionT]:
        return [self.parse_action(line) for line in lines]
