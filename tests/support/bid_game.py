"""A tiny auction for testing amounts in menus: each player in turn bids more than the
current bid (up to their money) or passes; when all but one have passed, the last bidder wins.
Its menu is an Amount (the bid, bounded) and a Pass choice; no game of Railyard's uses
amounts yet, the hex games will (Steam's turn-order auction)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from games.core import ApplyResult, Event, Game, IllegalAction, PlayerResult, Result
from games.core.choices import Amount, Choice, Decision, Pick

MONEY = 12


class BidOptions(BaseModel):
    pass


class Bid(BaseModel):
    kind: Literal["bid"] = "bid"
    amount: int


class Pass(BaseModel):
    kind: Literal["pass"] = "pass"


class BidState(BaseModel):
    n: int
    seed: int
    turn: int = 0
    bid: int = 0
    leader: int | None = None
    passed: list[bool]


class BidView(BaseModel):
    turn: int
    bid: int
    leader: int | None
    passed: list[bool]
    result: Result | None = None


class BidGame(Game[BidState, Any, BidView]):
    name = "bid"
    min_players = 2
    max_players = 4
    options_model = BidOptions
    state_model = BidState
    action_model = Any
    view_model = BidView

    def setup(self, n_players: int, options: Any, seed: int) -> BidState:
        return BidState(n=n_players, seed=seed, passed=[False] * n_players)

    def _over(self, s: BidState) -> bool:
        return s.passed.count(False) <= 1 and s.leader is not None or all(s.passed)

    def active_players(self, state: BidState) -> frozenset[int]:
        return frozenset() if self._over(state) else frozenset({state.turn})

    def legal_actions(self, state: BidState, seat: int) -> list[Any]:
        if seat not in self.active_players(state):
            return []
        return [Pass(), *(Bid(amount=a) for a in range(state.bid + 1, MONEY + 1))]

    def apply(self, state: BidState, seat: int, action: Any) -> ApplyResult:
        if seat not in self.active_players(state):
            raise IllegalAction("not_active", waiting=sorted(self.active_players(state)))
        s = state.model_copy(deep=True)
        if isinstance(action, Bid):
            if not state.bid < action.amount <= MONEY:
                raise IllegalAction("choice.amount_range", min=state.bid + 1, max=MONEY)
            s.bid, s.leader = action.amount, seat
            event = Event(key="bid.ev.bid", params={"seat": seat, "amount": action.amount})
        else:
            s.passed[seat] = True
            event = Event(key="bid.ev.pass", params={"seat": seat})
        if not self._over(s):
            s.turn = (s.turn + 1) % s.n
            while s.passed[s.turn]:
                s.turn = (s.turn + 1) % s.n
        return ApplyResult(state=s, events=[event], undoable=False)

    def view(self, state: BidState, seat: int | None) -> BidView:
        return BidView(turn=state.turn, bid=state.bid, leader=state.leader, passed=list(state.passed),
                       result=self.result(state))

    def result(self, state: BidState) -> Result | None:
        if not self._over(state):
            return None
        return Result(categories=["bid"], players=[
            PlayerResult(seat=i, rank=1 if i == state.leader else 2, total=state.bid if i == state.leader else 0)
            for i in range(state.n)])

    def format_action(self, action: Any) -> str:
        return f"bid {action.amount}" if isinstance(action, Bid) else "pass"

    def parse_action(self, text: str) -> Any:
        words = text.strip().lower().split()
        if words == ["pass"]:
            return Pass()
        if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
            return Bid(amount=int(words[1]))
        raise IllegalAction("unparsable", text=text[:80])

    def describe_action(self, state: BidState, seat: int, action: Any) -> Event:
        return Event(key="bid.act", params={"move": self.format_action(action)})

    def decision(self, state: BidState, seat: int) -> Decision:
        if seat not in self.active_players(state):
            return Decision(seat=seat)
        amounts = [Amount(step="bid.step.bid", label=Event(key="bid.act.bid"), min=state.bid + 1, max=MONEY,
                          template="bid {}")] if state.bid < MONEY else []
        return Decision(seat=seat, amounts=amounts, choices=[Choice(notation="pass", path=(
            Pick(step="bid.step.bid", value="pass", label=Event(key="bid.act.pass")),))])


GAME = BidGame()
