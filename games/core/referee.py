"""How every game judges and makes a move: the opening of `apply`, the table of handlers by
(phase, kind), and the one refusal from which both `apply` and the legality check follow.

A game built on `Referee` writes, for its moves:

- `refusal(state, seat, action) -> IllegalAction | None`: why the seat (waited on, the game
  not over) may not make this move now, with the most useful reason the rules can give
  (which resources are short, whose route it is); None when the rules allow it. It is the one
  place a move's legality is written: `apply` refuses what it refuses, `allows` is "it gives
  no reason", and the menus (`legal_actions`) either list candidates through it or are built
  by one rule per kind that both lists its moves and answers for one move (the game's
  choice, by what its menus cost);
- `handlers`: a `Handlers` table from (phase, kind) to the function that makes the move on
  the state's copy, `handler(game, state, seat, action, events) -> undoable`; a handler
  under ANY_PHASE serves its kind in every phase that has none of its own;
- `phase_of(state)`: the phase the table goes by, OVER once the game has ended;
- `after_move(before, state, seat, action, events)`: what the game keeps up after every
  move (the last move's public lines, the turn's record, a row of cards refilled).

The opening is the same for all: a finished game refuses every move, a seat not waited on is
told who is, the refusal (if any) is raised, and the handler works on a copy (`fork`): the
state given is never changed.
"""
from __future__ import annotations

from abc import abstractmethod
from typing import Any, Callable, Generic, Mapping

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.protocol import ActionT, ApplyResult, Game, StateT, ViewT
from games.core.unchecked import made

OVER = "over"
ANY_PHASE = "*"

# handler(game, state's copy, seat, action, events to append to) -> whether the move may be undone
Handler = Callable[[Any, Any, int, Any, list[Event]], Any]


class Handlers:
    """The move handlers of a game by (phase, kind). A kind made the same way in several
    phases is filed once under ANY_PHASE."""

    __slots__ = ("_table",)

    def __init__(self, table: Mapping[tuple[str, str], Handler]) -> None:
        self._table = dict(table)

    def find(self, phase: str, kind: str) -> Handler | None:
        table = self._table
        handler = table.get((phase, kind))
        return handler if handler is not None else table.get((ANY_PHASE, kind))

    def kinds(self) -> frozenset[str]:
        return frozenset(kind for _, kind in self._table)


class Referee(Game[StateT, ActionT, ViewT], Generic[StateT, ActionT, ViewT]):
    """A game whose `apply` is the shared opening over its refusal and its handlers."""

    handlers: Handlers

    @abstractmethod
    def phase_of(self, state: StateT) -> str:
        """The phase the handlers are filed under; OVER when the game has ended."""

    @abstractmethod
    def refusal(self, state: StateT, seat: int, action: ActionT) -> IllegalAction | None:
        """Why `seat` (waited on, the game not over) may not make `action` now; None if it may."""

    def is_active(self, state: StateT, seat: int) -> bool:
        """Whether the game waits on `seat` (a game may answer without building the set)."""
        return seat in self.active_players(state)

    def fork(self, state: StateT) -> StateT:
        """The copy a move changes (the state given is never changed)."""
        return state.clone()  # type: ignore[attr-defined]

    def after_move(self, before: StateT, state: StateT, seat: int, action: ActionT, events: list[Event]) -> None:
        """What the game keeps up after every move, on the changed copy. Default: nothing."""

    def judge(self, state: StateT, seat: int, action: ActionT) -> IllegalAction | None:
        """The refusal `apply` raises, or None: the game's over, the seat is not waited on, or
        the game's own `refusal`."""
        return self._judged(state, seat, action, self.phase_of(state))

    def _judged(self, state: StateT, seat: int, action: ActionT, phase: str) -> IllegalAction | None:
        if phase == OVER:
            return IllegalAction("game_over")
        if not self.is_active(state, seat):
            return IllegalAction("not_active", waiting=sorted(self.active_players(state)))
        return self.refusal(state, seat, action)

    def allows(self, state: StateT, seat: int, action: ActionT) -> bool:
        """Whether `apply` would take the move."""
        return self.judge(state, seat, action) is None

    def apply(self, state: StateT, seat: int, action: ActionT) -> ApplyResult:
        phase = self.phase_of(state)
        problem = self._judged(state, seat, action, phase)
        if problem is not None:
            raise problem
        handler = self.handlers.find(phase, action.kind)  # type: ignore[attr-defined]
        if handler is None:  # a refusal lets through only what some handler makes
            raise IllegalAction("unparsable", text=str(action)[:80])
        s = self.fork(state)
        events: list[Event] = []
        undoable = handler(self, s, seat, action, events) is True
        self.after_move(state, s, seat, action, events)
        # Made without validation (games.core.unchecked): random games apply moves by the
        # million, and these are the rules' own values.
        return made(ApplyResult, {"state": s, "events": list(events), "undoable": undoable}, _RESULT_SET)


_RESULT_SET = {"state", "events", "undoable"}
