"""Steam's turn order: the basic game's first-turn auction (ST-11), the standard game's auction
every turn (ST-12) and the order by action tile numbers (basic game phase 5).

Why it is shaped so
    Each auction is a small frozen state machine the rules engine keeps in its state and feeds
    one move at a time (`bid`, `pass_`); a move returns a `Step`: the new auction, the public
    events and the `Award`s it settled (seat, position on the turn-order display, price). The
    engine charges an award's price through games/steam/economy.py (`pay` in the basic game,
    `pay_cash` in the standard game); the auction never touches money.

    Nobody is asked to outbid themselves: when the turn comes back to the highest bidder it moves
    on (this only matters when the Turn Order tile's free pass kept its holder in).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from games.core.errors import IllegalAction
from games.core.events import Event


@dataclass(frozen=True, slots=True)
class Award:
    seat: int
    position: int  # 1 = first on the turn-order display
    price: int


@dataclass(frozen=True, slots=True)
class Step:
    auction: "BasicAuction | StandardAuction"
    events: tuple[Event, ...]
    awards: tuple[Award, ...] = ()


def _ev(key: str, **params) -> Event:
    return Event(key=f"steam.ev.{key}", params=params)


def _next(active: Sequence[int], after: int, ring: Sequence[int], skip: int | None) -> int | None:
    """The next seat of `active` clockwise (round `ring`) after `after`, never `skip`."""
    i = ring.index(after)
    for k in range(1, len(ring) + 1):
        seat = ring[(i + k) % len(ring)]
        if seat in active and seat != skip:
            return seat
    return None


def _check_bid(to_act, seat, amount, high, limit):
    if seat != to_act:
        raise IllegalAction("steam.not_your_bid")
    minimum = 0 if high is None else high + 1
    if amount < minimum:
        raise IllegalAction("steam.bid_too_low", minimum=minimum)
    if limit is not None and amount > limit:
        raise IllegalAction("steam.bid_too_high", limit=limit)


@dataclass(frozen=True, slots=True)
class BasicAuction:
    """The basic game's first-turn auction (ST-11), one position at a time: seats bid clockwise,
    a pass drops out of this position's auction, the last one in takes the position at their bid
    (0 if nobody bid) and pays it by raising cash; the next position's auction starts left of the
    winner; the last player takes the last position free."""

    seats: tuple[int, ...]  # clockwise seating
    placed: tuple[int, ...] = ()  # the turn-order display so far
    active: tuple[int, ...] = ()  # still bidding for the current position
    high: int | None = None
    high_seat: int | None = None
    to_act: int | None = None

    @classmethod
    def start(cls, seats: Sequence[int], first: int) -> "BasicAuction":
        seats = tuple(seats)
        return cls(seats=seats, active=seats, to_act=first)

    @property
    def done(self) -> bool:
        return len(self.placed) == len(self.seats)

    @property
    def minimum(self) -> int:
        return 0 if self.high is None else self.high + 1

    def bid(self, seat: int, amount: int, limit: int | None = None) -> Step:
        """`limit`: the most this player could pay (economy.available), if bids are capped."""
        _check_bid(self.to_act, seat, amount, self.high, limit)
        a = replace(self, high=amount, high_seat=seat)
        return a._advance(seat, (_ev("bid", seat=seat, amount=amount),))

    def pass_(self, seat: int) -> Step:
        if seat != self.to_act:
            raise IllegalAction("steam.not_your_bid")
        a = replace(self, active=tuple(s for s in self.active if s != seat))
        return a._advance(seat, (_ev("passed", seat=seat),))

    def _advance(self, seat: int, events: tuple[Event, ...]) -> Step:
        nxt = _next(self.active, seat, self.seats, self.high_seat)
        if len(self.active) > 1 and nxt is not None:
            return Step(replace(self, to_act=nxt), events)
        winner = self.active[0] if len(self.active) == 1 else self.high_seat
        price = self.high if winner == self.high_seat and self.high is not None else 0
        awards = [Award(winner, len(self.placed) + 1, price)]
        placed = self.placed + (winner,)
        rest = tuple(s for s in self.seats if s not in placed)
        if len(rest) == 1:  # the minimum bid is 0, so the last player takes the last place free
            awards.append(Award(rest[0], len(placed) + 1, 0))
            placed, rest = placed + rest, ()
        following = _next(rest, winner, self.seats, None) if rest else None
        a = replace(self, placed=placed, active=rest, high=None, high_seat=None, to_act=following)
        return Step(a, events + tuple(_ev("won_position", seat=w.seat, position=w.position, price=w.price)
                                      for w in awards), tuple(awards))


@dataclass(frozen=True, slots=True)
class StandardAuction:
    """The standard game's auction every turn (ST-12): bidding in the current turn order from its
    first player, a bid never above cash on hand, a pass takes the last free position (except the
    Turn Order tile holder's one free pass), the last one in takes position 1. Positions 1 and 2
    pay their full bid, the last position nothing, the others half rounded up."""

    order: tuple[int, ...]  # current turn order: the bidding order
    holder: int | None = None  # took the Turn Order tile last turn
    free_pass_used: bool = False
    spaces: tuple[int | None, ...] = ()  # the new turn-order display, filled from the back
    active: tuple[int, ...] = ()
    bids: tuple[tuple[int, int], ...] = ()  # (seat, highest bid) of everyone who bid
    high: int | None = None
    high_seat: int | None = None
    to_act: int | None = None

    @classmethod
    def start(cls, order: Sequence[int], holder: int | None = None) -> "StandardAuction":
        order = tuple(order)
        return cls(order=order, holder=holder, spaces=(None,) * len(order), active=order,
                   to_act=order[0])

    @property
    def done(self) -> bool:
        return None not in self.spaces

    def bid(self, seat: int, amount: int, cash: int) -> Step:
        _check_bid(self.to_act, seat, amount, self.high, cash)
        bids = tuple((s, b) for s, b in self.bids if s != seat) + ((seat, amount),)
        a = replace(self, bids=bids, high=amount, high_seat=seat)
        return a._advance(seat, (_ev("bid", seat=seat, amount=amount),))

    def pass_(self, seat: int) -> Step:
        if seat != self.to_act:
            raise IllegalAction("steam.not_your_bid")
        if seat == self.holder and not self.free_pass_used:
            return replace(self, free_pass_used=True)._advance(seat, (_ev("free_pass", seat=seat),))
        last_free = max(i for i, s in enumerate(self.spaces) if s is None)
        spaces = self.spaces[:last_free] + (seat,) + self.spaces[last_free + 1:]
        a = replace(self, spaces=spaces, active=tuple(s for s in self.active if s != seat))
        return a._advance(seat, (_ev("passed", seat=seat), _ev("took_position", seat=seat, position=last_free + 1)))

    def _advance(self, seat: int, events: tuple[Event, ...]) -> Step:
        nxt = _next(self.active, seat, self.order, self.high_seat)
        if len(self.active) > 1 and nxt is not None:
            return Step(replace(self, to_act=nxt), events)
        # Everyone else has passed (or only the highest bidder is left to ask): the rest, highest
        # bidder first, fill the display from the front.
        rest = sorted(self.active, key=lambda s: s != self.high_seat)
        free = [i for i, s in enumerate(self.spaces) if s is None]
        spaces = list(self.spaces)
        for i, s in zip(free, rest):
            spaces[i] = s
        a = replace(self, spaces=tuple(spaces), active=(), to_act=None)
        awards = a.payments()
        return Step(a, events + (_ev("took_position", seat=spaces[0], position=1),)
                    + tuple(_ev("pays_for_position", seat=w.seat, position=w.position, price=w.price)
                            for w in awards if w.price), awards)

    def payments(self) -> tuple[Award, ...]:
        bids = dict(self.bids)
        n = len(self.spaces)
        out = []
        for i, seat in enumerate(self.spaces):
            position, bid = i + 1, bids.get(seat, 0)
            price = bid if position <= 2 else 0 if position == n else -(-bid // 2)
            out.append(Award(seat, position, price))
        return tuple(out)


def order_by_tiles(taken: Mapping[int, int]) -> tuple[int, ...]:
    """Basic game phase 5: next turn's order by the numbers of the action tiles taken (seat ->
    tile number), lowest first, declined tiles included."""
    return tuple(sorted(taken, key=lambda seat: taken[seat]))
