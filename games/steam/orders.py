"""Steam's standing orders: moves a player decides in advance, made for them when their turn
comes if still legal (the Game protocol's order_choices / follow_orders / describe_order).

Why
    A Steam turn passes through every player many times — bids, action tiles, builds, two
    delivery rounds and an income-or-points answer after every delivery that used their links.
    Played by chat, each of those passes can cost hours; most have an answer the player knows
    in advance ("I will not bid above $4", "take income whenever others use my links").

Notation (one order per string, in the order the player set them)
    t3 bid upto 4          this turn's auction: bid the minimum while it is at most $4, else pass
    t3 deliver red C7-E9   this turn: deliver this cube by this route; several are tried in the
    t3 locomotive          order set ("this one, else that one"), a locomotive upgrade among them
    t3 pass deliver        the rest of this turn's phase: pass (auction), done (build) or pass
    t3 pass build          (delivery) — when none of the orders above applies
    t3 pass auction
    always income          for deliveries by others, put the points into income (or points)
    always points

An order stamped with a turn expires with it, so a forgotten order never plays a later turn.
A delivery or locomotive order is used up when it makes its move; the others stand.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from games.core.choices import Amount, Choice, Decision, Pick
from games.core.errors import IllegalAction
from games.core.events import Event
from games.steam.models import Bid, Deliver, Done, Pass, Score, SteamState, Upgrade

_TURN = re.compile(r"^t(\d{1,2}) (.+)$")
_BID = re.compile(r"^bid upto (\d{1,4})$")
_DELIVER = re.compile(r"^deliver ([a-z]+) ([A-Z0-9\-\[\]]+)$")
_PASS = re.compile(r"^pass (auction|build|deliver)$")
PHASE_OF = {"first_auction": "auction", "auction": "auction", "build": "build", "deliver": "deliver"}

STEP_KIND = "steam.order.step.kind"
STEP_CUBE = "steam.order.step.cube"
STEP_ROUTE = "steam.order.step.route"


def _parse(order: str) -> tuple[int | None, str]:
    """(turn or None for standing answers, the rest); IllegalAction('unparsable') on junk."""
    if order in ("always income", "always points"):
        return None, order
    found = _TURN.match(order)
    if found:
        body = found[2]
        if _BID.match(body) or _DELIVER.match(body) or _PASS.match(body) or body == "locomotive":
            return int(found[1]), body
    raise IllegalAction("unparsable", text=order[:60])


def describe(state: SteamState, seat: int, order: str) -> Event:
    turn, body = _parse(order)
    if turn is None:
        return Event(key=f"steam.order.{body.replace(' ', '_')}")
    if found := _BID.match(body):
        return Event(key="steam.order.bid_upto", params={"amount": int(found[1]), "turn": turn})
    if found := _DELIVER.match(body):
        return Event(key="steam.order.deliver", params={"colour": {"key": f"steam.colour.{found[1]}"},
                                                        "route": found[2], "turn": turn})
    if body == "locomotive":
        return Event(key="steam.order.locomotive", params={"turn": turn})
    found = _PASS.match(body)
    assert found is not None
    return Event(key=f"steam.order.pass_{found[1]}", params={"turn": turn})


def follow(game: Any, state: SteamState, seat: int, orders: Sequence[str]) -> tuple[Any | None, list[str]]:
    standing: list[str] = []
    current: list[tuple[str, str]] = []  # (order, its body) of the orders that apply this turn
    for order in orders:
        try:
            turn, body = _parse(order)
        except IllegalAction:
            continue  # unreadable orders are dropped, never followed
        if turn is None or turn >= state.turn:
            standing.append(order)
        if turn is None or turn == state.turn:
            current.append((order, body))
    legal = game.legal_actions(state, seat)
    phase = PHASE_OF.get(state.phase)

    if state.phase == "deliver" and state.pending:
        mover = state.step_order[state.step_pos]
        if seat != mover:
            for order, body in current:
                if body.startswith("always "):
                    return Score(into=body.split()[1]), standing
        return None, standing

    if phase == "auction":
        for order, body in current:
            if found := _BID.match(body):
                low, high = game.bid_range(state, seat)
                limit = min(int(found[1]), high)
                return (Bid(amount=low) if low <= limit else Pass()), standing
        if any(body == "pass auction" for _, body in current):
            return Pass(), standing
        return None, standing

    if phase == "build":
        if any(body == "pass build" for _, body in current) and Done() in legal:
            return Done(), standing
        return None, standing

    if phase == "deliver":
        for order, body in current:
            move: Any = None
            if found := _DELIVER.match(body):
                move = Deliver(colour=found[1], route=found[2])
            elif body == "locomotive":
                move = Upgrade()
            if move is not None:
                if move in legal or (isinstance(move, Deliver) and _deliverable(game, state, seat, move)):
                    return move, [o for o in standing if o != order]
        if any(body == "pass deliver" for _, body in current):
            return Pass(), standing
    return None, standing


def _deliverable(game: Any, state: SteamState, seat: int, move: Deliver) -> bool:
    """Any legal route the player named, not only the one the listing shows for that outcome."""
    try:
        game.apply(state, seat, move)
    except IllegalAction:
        return False
    return True


def choices(game: Any, state: SteamState, seat: int) -> Decision:
    """The orders `seat` may set now. Answers for deliveries by others are offered any time; the
    turn's orders while the phase they are for has not ended."""
    if state.phase == "over" or state.players[seat].bankrupt:
        return Decision(seat=seat)
    t = state.turn
    out: list[Choice] = []
    amounts: list[Amount] = []

    def kind(value: str, key: str, **params: Any) -> Pick:
        return Pick(step=STEP_KIND, value=value, label=Event(key=key, params=params))

    for into in ("income", "points"):
        out.append(Choice(notation=f"always {into}", path=(kind(f"always_{into}", f"steam.order.always_{into}"),)))
    if state.phase in ("first_auction", "auction", "capital"):
        low, high = game.bid_range(state, seat) if state.phase != "capital" else (0, state.players[seat].cash)
        high = max(high, low)
        amounts.append(Amount(step="steam.order.step.bid", label=Event(key="steam.order.bid_label"),
                              min=low, max=min(high, 999), template=f"t{t} bid upto {{}}"))
        out.append(Choice(notation=f"t{t} pass auction", path=(kind("pass_auction", "steam.order.pass_auction", turn=t),)))
    if state.phase in ("actions", "build"):
        out.append(Choice(notation=f"t{t} pass build", path=(kind("pass_build", "steam.order.pass_build", turn=t),)))
    if state.phase in ("first_auction", "auction", "capital", "actions", "build", "deliver"):
        out.append(Choice(notation=f"t{t} pass deliver",
                          path=(kind("pass_deliver", "steam.order.pass_deliver", turn=t),)))
        p = state.players[seat]
        if not p.loco_upgraded and p.locomotive < 6:
            out.append(Choice(notation=f"t{t} locomotive", path=(kind("locomotive", "steam.order.locomotive", turn=t),)))
        deliver = kind("deliver", "steam.order.deliver_kind")
        for d in game.deliveries(state, seat):
            route = game._route_text(state, d)
            cube = Pick(step=STEP_CUBE, value=f"{route.split('-')[0]}:{d.colour.value}",
                        label=Event(key="steam.order.cube", params={"colour": {"key": f"steam.colour.{d.colour.value}"},
                                                                    "city": route.split("-")[0]}))
            label = Event(key="steam.order.route", params={"route": route, "links": len(d.links),
                                                           "points": d.points_of(seat)})
            value = route if len(route) <= 40 else f"#{len(out)}"
            out.append(Choice(notation=f"t{t} deliver {d.colour.value} {route}",
                              path=(deliver, cube, Pick(step=STEP_ROUTE, value=value, label=label))))
    return Decision(seat=seat, key=f"orders.{seat}", choices=out, amounts=amounts)


__all__ = ["choices", "describe", "follow"]
