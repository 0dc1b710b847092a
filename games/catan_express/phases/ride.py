"""The locomotive's move in the race (CE-8 … CE-11): up to the higher die's number of legs
along built rails and ferries, free on one's own, a card to an owner on another's; a stop
reached takes a water tower and ends the move; all stops reached wins the race. On the
islands map a move keeps to the kind of piece it started on (CE-11, `transfer_stop`)."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import economy, race
from games.catan_express.economy import Hand
from games.catan_express.models import CatanState, Leg, Ride, made
from games.catan_express.phases.end import end_turn
from games.catan_express.phases.facts import RESOURCE_AT, dv, ev, holdings, store
from games.catan_express.phases.moves import LEGS_SET, ride
from games.catan_express.phases.turn import finish


def may_ride(state: CatanState, seat: int) -> bool:
    return (state.race and state.phase == "main" and seat == state.current and state.move_left > 0
            and state.players[seat].loco is not None)


def transfer_stop(state: CatanState) -> bool:
    return state.options.map == "islands" and state.options.transfer_stop


def legs(state: CatanState, seat: int) -> list[Ride]:
    """The single steps from the locomotive (race.legs_from)."""
    p = state.players[seat]
    if not may_ride(state, seat):
        return []
    d = dv(state)
    keep = race.kind_kept(state, transfer_stop(state))  # CE-11
    # The legs follow from the pieces, the point, which resources the seat holds and the
    # kind of piece the move must keep to.
    key = ("legs", seat, p.loco, tuple([n > 0 for n in p.hand]), keep)
    rides = d.memo.get(key)
    if rides is None:
        rides = d.memo[key] = tuple(ride(o.leg) for o in race.legs_from(state, d.geo, seat, str(p.loco),
                                                                         p.hand, keep))
    return list(rides)


def routes(state: CatanState, seat: int) -> list[Ride]:
    """A route to each stop the locomotive can reach this move (race.routes)."""
    if not may_ride(state, seat):
        return []
    d = dv(state)
    p = state.players[seat]
    transfer = transfer_stop(state)
    # The search reads the pieces and these alone (race.routes); a turn lists it again and again.
    key = ("routes", seat, p.loco, state.move_left, race.kind_kept(state, transfer),
           tuple(p.hand or ()), tuple(p.towers), tuple(state.stops), transfer)
    rides = d.memo.get(key)
    if rides is None:
        found = race.routes(state, d.geo, seat, transfer)
        rides = d.memo[key] = tuple(made(Ride, {"kind": "ride", "legs": way}, LEGS_SET)
                                    for way in found if len(way) > 1)
    return list(rides)


def refusal(state: CatanState, seat: int, a: Ride) -> IllegalAction | None:
    """A single step as the menus list it (`legs`), or a ride along any legal path; refused,
    the first leg the rules stop at says why (a missing line, a toll, CE-11)."""
    if not state.race:
        return IllegalAction("catan_express.race_not_started")
    if not may_ride(state, seat):
        return IllegalAction("catan_express.ride_illegal")
    if len(a.legs) == 1 and _leg_allowed(state, seat, a.legs[0]):
        return None
    problem = walk(state.fork(), seat, a, [], dry=True)
    if problem is None and len(a.legs) > 1:
        return None
    return problem or IllegalAction("catan_express.ride_illegal")


def _leg_allowed(state: CatanState, seat: int, leg: Leg) -> bool:
    """Whether one leg from the locomotive is on the menu (`legs`, race.legs_from): along a
    built piece to `leg.to`; free on one the seat owns, else paid with a card the seat holds to
    one of the piece's owners."""
    geo = dv(state).geo
    p = state.players[seat]
    at = str(p.loco)
    keep = race.kind_kept(state, transfer_stop(state))  # CE-11
    for piece in geo.at.get(at, ()):
        owners = state.pieces.get(piece)
        if not owners or geo.other_end(piece, at) != leg.to or (keep is not None and geo.kind[piece] != keep):
            continue
        if seat in owners:
            if leg.payee is None and leg.resource is None:
                return True
        elif leg.payee in owners and leg.resource in RESOURCE_AT and p.hand[RESOURCE_AT[leg.resource]]:
            return True
    return False


def move(game: Any, s: CatanState, seat: int, a: Ride, events: list[Event]) -> bool:
    problem = walk(s, seat, a, events, dry=False)
    if problem is not None:
        raise problem
    return False


def walk(s: CatanState, seat: int, a: Ride, events: list[Event], dry: bool) -> IllegalAction | None:
    """Carry out a ride leg by leg on `s` (a copy), or `dry`, only far enough to know it is
    legal; the first leg the rules stop at gives the reason (None: the ride is legal)."""
    geo = dv(s).geo
    p = s.own(seat)
    if not s.moving:
        s.moving = True
        s.last_ride = [p.loco]
    for i, leg in enumerate(a.legs):
        if s.move_left <= 0:
            return IllegalAction("catan_express.ride_ends_early")
        at = str(p.loco)
        pieces = [x for x in geo.between.get(frozenset((at, leg.to)), ()) if s.pieces.get(x)]
        if not pieces:
            return IllegalAction("catan_express.ride_no_line", at=at, to=leg.to)
        piece = pieces[0]
        kind = geo.kind[piece]
        if transfer_stop(s) and s.moved_on is not None and kind != s.moved_on:
            # CE-11: the locomotive would change between rail and ferry here: its move
            # ended on arriving (a move keeps to the kind it started on).
            return IllegalAction("catan_express.ride_transfer", at=at)
        owners = s.pieces[piece]
        if seat in owners:
            if leg.payee is not None:
                return IllegalAction("catan_express.ride_own_line")
        else:
            if leg.payee is None or leg.payee not in owners or leg.resource is None:
                return IllegalAction("catan_express.ride_toll_owner", to=leg.to)
            fare = Hand.of({leg.resource: 1})
            if not Hand(tuple(p.hand)).covers(fare):
                return IllegalAction("catan_express.ride_cannot_pay")
            out = economy.give(holdings(s), seat, leg.payee, fare, reason="fare")
            store(s, out.holdings)
            if not dry:
                events += out.events
        s.moved_on = kind
        p.loco = leg.to
        s.move_left -= 1
        s.last_ride = s.last_ride + [leg.to]
        if race.ends_move_at(s, seat, leg.to):
            p.towers = p.towers + [int(leg.to)]
            s.move_left = 0
            if not dry:
                events.append(ev("tower", seat=seat, at=leg.to, count=len(p.towers), of=len(s.stops)))
        if s.move_left <= 0 and i < len(a.legs) - 1:
            return IllegalAction("catan_express.ride_ends_early")
    if dry:
        return None
    events.insert(0, ev("rode", seat=seat, route=list(s.last_ride)))
    if len(p.towers) == len(s.stops) and s.stops:
        p.fastest = True
        s.race_winner = seat
        events.append(ev("race_won", seat=seat))
        finish(s, events)
        return None
    if s.move_left <= 0:
        end_turn(s, seat, events)
    return None
