"""Catan Express's standing orders: answers a player decides in advance, made for them when
the game waits on them (the Game protocol's order_choices / follow_orders / describe_order).

Why
    Much of a Catan Express game waits on the players who are not moving: everyone answers
    every offer, and with 5–6 players everyone has a special building turn after every turn
    (CE-B7). Played by chat each of those can cost hours, and most have an answer the player
    knows in advance. These orders stand for the whole game: a move the player makes
    themselves leaves them in place (`kept_after_own_move`), and only the player cancels them.

Notation (one order per string)
    end special             end my special building turns at once (5–6 players, CE-B7)
    refuse all              refuse every offer that none of my accept orders takes (CE-B5)
    accept 1ore for 1wool   accept an offer that gives me at least these cards (1 ore) and asks
                            no more than these (at most 1 wool, and nothing of another kind)
    roll                    roll the dice as soon as my turn begins (no card played before it)

An offer is accepted only if the hand holds what it asks: the order reads the player's own
hand, as the player would. What the log shows of the move is its public notation ("answer"),
so nobody learns from an order which way a player answered.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from games.catan_express.components import RESOURCES
from games.catan_express.economy import Hand, covers
from games.catan_express.models import Answer, CatanState, End, Roll
from games.catan_express.notation import parse_cards
from games.core.choices import Choice, Decision, Group, Part, Pick
from games.core.errors import IllegalAction
from games.core.events import Event

_ACCEPT = re.compile(r"^accept (\S+) for (\S+)$")
PLAIN = ("end special", "refuse all", "roll")

# How much an accept order may name of one resource, and in all on each side: plenty for any
# trade one would agree to in advance, and a menu of reasonable size.
GET_MOST, GIVE_MOST = 3, 4
GET_TOTAL, GIVE_TOTAL = 4, 6

STEP_KIND = "catan_express.order.step.kind"

_END, _ROLL, _YES, _NO = End(), Roll(), Answer(accept=True), Answer(accept=False)


def parse(order: str) -> tuple[str, tuple[int, ...] | None, tuple[int, ...] | None]:
    """(kind, the least received, the most given) of an order: the counts only for "accept".
    IllegalAction('unparsable') on anything else."""
    if order in PLAIN:
        return order, None, None
    found = _ACCEPT.match(order)
    if found:
        try:
            get, give = parse_cards(found[1]), parse_cards(found[2])
        except IllegalAction:
            raise IllegalAction("unparsable", text=order[:60]) from None
        if not any(g and w for g, w in zip(get, give)):
            return "accept", get, give
    raise IllegalAction("unparsable", text=order[:60])


def describe(state: CatanState, seat: int, order: str) -> Event:
    kind, get, give = parse(order)
    if kind == "accept":
        return Event(key="catan_express.order.accept", params={"get": Hand(get).param(), "give": Hand(give).param()})
    return Event(key=f"catan_express.order.{kind.replace(' ', '_')}")


def matches(state: CatanState, seat: int, get: Sequence[int], give: Sequence[int]) -> bool:
    """Whether the offer being answered is one an "accept" order of these terms takes: it gives
    the seat at least `get`, asks no more than `give` of it, and the seat holds what it asks."""
    offer = state.offer
    return (offer is not None and all(o >= g for o, g in zip(offer.give, get))
            and all(o <= g for o, g in zip(offer.get, give)) and covers(state.players[seat].hand, offer.get))


def follow(game: Any, state: CatanState, seat: int, orders: Sequence[str]) -> tuple[Any | None, list[str]]:
    standing: list[tuple[str, str, Any, Any]] = []
    for order in orders:
        try:
            standing.append((order, *parse(order)))
        except IllegalAction:
            continue  # unreadable orders are dropped, never followed
    kept = [order for order, *_ in standing]
    kinds = {kind for _, kind, _, _ in standing}
    phase = state.phase
    if phase == "special" and "end special" in kinds and state.special_queue[0] == seat:
        return _END, kept
    if phase == "roll" and "roll" in kinds and state.current == seat:
        return _ROLL, kept
    if phase == "answer" and seat != state.current and seat not in state.offer.answers:
        # an order that accepts this offer wins over "refuse all", whatever their order
        for _, kind, get, give in standing:
            if kind == "accept" and matches(state, seat, get, give):
                return _YES, kept
        if "refuse all" in kinds:
            return _NO, kept
    return None, kept


def kept_after_own_move(orders: Sequence[str]) -> list[str]:
    """Every order stands whatever the player does themselves: they are answers for the whole
    game, not plans for one turn (the unreadable ones go)."""
    out = []
    for order in orders:
        try:
            parse(order)
        except IllegalAction:
            continue
        out.append(order)
    return out


def _kind(value: str, key: str) -> Pick:
    return Pick(step=STEP_KIND, value=value, label=Event(key=key))


def _resource(step: str, resource: str) -> Pick:
    return Pick(step=step, value=resource, label=Event(key=f"catan_express.resource.{resource}"), icon=resource)


def _accept_group() -> Group:
    """The accept order's terms: the cards an offer must give at least, and the cards it may
    ask at most (never one resource on both sides: no offer has one)."""
    names = [r.value for r in RESOURCES]
    return Group(step="catan_express.order.step.accept",
                 items=tuple(_resource("catan_express.order.step.get", r) for r in names)
                 + tuple(_resource("catan_express.order.step.give", r) for r in names),
                 most=(GET_MOST,) * len(names) + (GIVE_MOST,) * len(names),
                 min=2, max=GET_TOTAL + GIVE_TOTAL, template="accept {} for {}", sep="+", counted="{n}{value}",
                 parts=(Part(step="catan_express.order.step.get", size=len(names), min=1, max=GET_TOTAL),
                        Part(step="catan_express.order.step.give", size=len(names), min=1, max=GIVE_TOTAL)),
                 exclusive=True, entry=_kind("accept", "catan_express.order.accept_kind"))


def choices(game: Any, state: CatanState, seat: int) -> Decision:
    """The orders `seat` may set: any time until the game is over, the special building one
    only where there are special building turns (5–6 players, CE-B7)."""
    if state.phase == "over":
        return Decision(seat=seat)
    out: list[Choice] = []
    if state.n >= 5:
        out.append(Choice(notation="end special", path=(_kind("end_special", "catan_express.order.end_special"),)))
    out.append(Choice(notation="refuse all", path=(_kind("refuse_all", "catan_express.order.refuse_all"),)))
    out.append(Choice(notation="roll", path=(_kind("roll", "catan_express.order.roll"),)))
    return Decision(seat=seat, key=f"catan_express.orders.{seat}", choices=out, groups=[_accept_group()])


__all__ = ["choices", "describe", "follow", "kept_after_own_move", "matches", "parse"]
