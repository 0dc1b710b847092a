"""A tiny auction for testing amounts in menus: each player in turn bids more than the
current bid (up to their money) or passes; when all but one have passed, the last bidder wins.
Its menu is an Amount (the bid, bounded) and a Pass choice; no game of Railyard's uses
amounts yet, the hex games will (Steam's turn-order auction).

It also has standing orders, so the platform's orders are tested on a real game:
`bid up to N` (bid the minimum while it is at most N, else pass), `pass`, and `pass at N`
(pass once the bid has reached N; until then the player decides). The first order in the
list that applies makes the move. Its words are
not in Railyard's catalogs (it is not one of Railyard's games): `MESSAGES` holds them, and
`words()` lends them to the catalogs for a test that reads them."""
from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator, Literal, Sequence

from pydantic import BaseModel

from games.core import ApplyResult, Event, Game, IllegalAction, PlayerResult, Result
from games.core.choices import Amount, Choice, Decision, Pick
from games.core.i18n import catalog

MONEY = 12
_UP_TO = re.compile(r"bid up to (\d{1,3})")
_PASS_AT = re.compile(r"pass at (\d{1,3})")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "bid.act": "{move}",
        "bid.act.bid": "Bid…",
        "bid.act.pass": "Pass",
        "bid.ev.bid": "{seat} bids {amount}.",
        "bid.ev.pass": "{seat} passes.",
        "bid.step.bid": "Your bid",
        "bid.step.order": "Standing order",
        "bid.order.up_to": "Bid up to {amount}, then pass",
        "bid.order.up_to.label": "Bid up to…",
        "bid.order.pass": "Pass when my turn comes",
        "bid.order.pass_at": "Pass once the bid reaches {amount}",
        "bid.order.pass_at.label": "Pass at…",
    },
    "ja": {
        "bid.act": "{move}",
        "bid.act.bid": "入札…",
        "bid.act.pass": "パス",
        "bid.ev.bid": "{seat}が{amount}で入札しました。",
        "bid.ev.pass": "{seat}はパスしました。",
        "bid.step.bid": "入札額",
        "bid.step.order": "予約行動",
        "bid.order.up_to": "{amount}まで入札し、超えたらパス",
        "bid.order.up_to.label": "上限つき入札…",
        "bid.order.pass": "手番が来たらパス",
        "bid.order.pass_at": "入札額が{amount}に達したらパス",
        "bid.order.pass_at.label": "指定額でパス…",
    },
}


@contextlib.contextmanager
def words() -> Iterator[None]:
    """The game's messages in the merged catalogs for the duration (removed afterwards)."""
    for lang, messages in MESSAGES.items():
        catalog(lang).update(messages)
    try:
        yield
    finally:
        for lang, messages in MESSAGES.items():
            for key in messages:
                catalog(lang).pop(key, None)


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
    private_information = False  # bids and money are public

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

    def bots(self) -> dict[str, Any]:
        return {"eager": EagerBidder()}

    # --- standing orders ---------------------------------------------------------------
    def order_choices(self, state: BidState, seat: int) -> Decision:
        if self._over(state) or state.passed[seat] or state.bid >= MONEY:
            return Decision(seat=seat)
        return Decision(
            seat=seat,
            amounts=[Amount(step="bid.step.order", label=Event(key="bid.order.up_to.label"),
                            min=state.bid + 1, max=MONEY, template="bid up to {}"),
                     Amount(step="bid.step.order", label=Event(key="bid.order.pass_at.label"),
                            min=state.bid + 1, max=MONEY, template="pass at {}")],
            choices=[Choice(notation="pass", path=(
                Pick(step="bid.step.order", value="pass", label=Event(key="bid.order.pass")),))])

    def follow_orders(self, state: BidState, seat: int, orders: Sequence[str]) -> tuple[Any, list[str]]:
        if seat not in self.active_players(state):
            return None, list(orders)
        kept = []
        for order in orders:
            if order == "pass":
                return Pass(), []  # a player who passed is out of the auction: nothing stands
            up_to, pass_at = _UP_TO.fullmatch(order), _PASS_AT.fullmatch(order)
            if up_to is not None:
                if state.bid + 1 <= int(up_to.group(1)):
                    return Bid(amount=state.bid + 1), list(orders)  # keeps standing for the next round
                return Pass(), []
            if pass_at is not None:
                if state.bid >= int(pass_at.group(1)):
                    return Pass(), []
                kept.append(order)  # not yet: the player decides this turn
            # anything else is not an order of this game: dropped
        return None, kept

    def describe_order(self, state: BidState, seat: int, order: str) -> Event:
        if order == "pass":
            return Event(key="bid.order.pass")
        up_to, pass_at = _UP_TO.fullmatch(order), _PASS_AT.fullmatch(order)
        if up_to is not None:
            return Event(key="bid.order.up_to", params={"amount": int(up_to.group(1))})
        if pass_at is not None:
            return Event(key="bid.order.pass_at", params={"amount": int(pass_at.group(1))})
        raise IllegalAction("unparsable", text=order[:80])


class EagerBidder:
    """Raises by one two times in three while it can, else passes."""

    def choose(self, game: BidGame, state: BidState, seat: int, rng: Any) -> Any:
        if state.bid < MONEY and rng.random() < 2 / 3:
            return Bid(amount=state.bid + 1)
        return Pass()


class HastyBidGame(BidGame):
    """The bid game whose "bid up to N" bids N outright without looking at the current bid:
    an order the rules may refuse by the time it is followed (the platform must drop it)."""

    def follow_orders(self, state: BidState, seat: int, orders: Sequence[str]) -> tuple[Any, list[str]]:
        if seat in self.active_players(state) and orders and _UP_TO.fullmatch(orders[0]):
            return Bid(amount=int(orders[0].rsplit(" ", 1)[1])), list(orders[1:])
        return super().follow_orders(state, seat, orders)


class ForcedBidGame(BidGame):
    """The bid game whose players, once the bid has reached everyone's money, can only pass:
    the platform passes for them (Game.forced_action; every bid is public)."""

    def forced_action(self, state: BidState, seat: int) -> Any:
        if seat in self.active_players(state) and state.bid >= MONEY:
            return Pass()
        return None


class KeepingBidGame(BidGame):
    """The bid game whose "pass at N" orders are limits meant for the whole auction: a bid of
    one's own keeps those it has not reached (Game.orders_after_own_move) and cancels the rest."""

    def orders_after_own_move(self, state: BidState, seat: int, orders: Sequence[str], action: Any) -> list[str]:
        bid = getattr(action, "amount", None)
        return [o for o in orders if (m := _PASS_AT.fullmatch(o)) is not None and bid is not None
                and int(m.group(1)) > bid]


GAME = BidGame()
HASTY = HastyBidGame()
FORCED = ForcedBidGame()
KEEPING = KeepingBidGame()
