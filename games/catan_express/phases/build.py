"""Settlements, cities, rails and ferries: where each may stand (CE-2, CE-4, CE-B6), what it
costs (a parallel fee per owner already there, none with Road Building), the chips it earns
(CE-5), in the main part of a turn and in special building turns (CE-B7)."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import economy
from games.catan_express.components import components
from games.catan_express.economy import covers
from games.catan_express.geo import Geo
from games.catan_express.models import Build, CatanState
from games.catan_express.phases.facts import (COST, NOTHING, city_cap, dv, ev, holdings, pieces_left, short, store,
                                              touched, with_fees)
from games.catan_express.phases.moves import build, building


def builds(state: CatanState, seat: int) -> list[Build]:
    """The builds the seat can make and pay for now (the main part of a turn, or a special
    building turn)."""
    d = dv(state)
    memo = d.memo
    hand = state.players[seat].hand
    out: list[Build] = []
    used = d.used(seat)
    stock = components().pieces_per_player
    if stock["settlement"] > used["settlement"] and covers(hand, COST["settlement"]):
        moves = memo.get("settlements")
        if moves is None:
            moves = memo["settlements"] = tuple(build("settlement", str(pt)) for pt in d.settlement_spots())
        out += moves
    if used["city"] < city_cap(state) and stock["city"] > used["city"] and covers(hand, COST["city"]):
        moves = memo.get(("cities", seat))
        if moves is None:
            near = d.touched()
            moves = memo["cities", seat] = tuple(
                build("city", str(pt)) for pt, b in sorted(state.buildings.items())
                if b.seat == seat and b.kind == "settlement" and str(pt) in near)
        out += moves
    free = state.free_pieces > 0 and seat == state.current and state.phase == "main"
    for what in ("rail", "ferry"):
        # The price (CE-2, economy.build_price): the cost (none with Road Building) and one
        # parallel fee per owner already there, by the number of owners; a hand short of the
        # cost alone can pay for no spot.
        base = NOTHING if free else COST[what]
        if stock[what] <= used[what] or not covers(hand, base):
            continue
        spots = memo.get(("spots", seat, what))
        if spots is None:
            pieces = state.pieces
            spots = memo["spots", seat, what] = tuple((len(set(pieces.get(piece) or ())), build(what, piece))
                                                      for piece in d.spots(seat, what))
        out += [move for owners, move in spots if not owners or covers(hand, with_fees(base, owners))]
    return out


def refusal(state: CatanState, seat: int, a: Build) -> IllegalAction | None:
    """Why the seat may not build this now, the first rule in the way; None if it may."""
    phase = state.phase
    if phase not in ("main", "special", "setup"):
        return IllegalAction("catan_express.roll_first" if phase == "roll" else "catan_express.not_now")
    if state.moving:
        return IllegalAction("catan_express.moving_no_build")
    d = dv(state)
    geo = d.geo
    what, at = a.what, a.at
    if what in ("settlement", "city"):
        if not at.isdigit() or int(at) not in geo.neighbours:
            return IllegalAction("catan_express.unknown_point", text=at)
        pt = int(at)
        if what == "city":
            b = state.buildings.get(pt)
            if b is None or b.seat != seat or b.kind != "settlement":
                return IllegalAction("catan_express.city_needs_settlement")
            if not touched(state, pt):
                return IllegalAction("catan_express.city_needs_rail")
            if d.used(seat)["city"] >= city_cap(state):
                return IllegalAction("catan_express.city_cap", count=city_cap(state))
        else:
            if pt in state.buildings:
                return IllegalAction("catan_express.point_taken")
            if any(n in state.buildings for n in geo.neighbours[pt]):
                return IllegalAction("catan_express.distance_rule")
            if touched(state, pt):
                return IllegalAction("catan_express.settlement_touched")
        if phase == "setup":  # CE-B6: a settlement on a free spot, in its turn of the setup
            return None if what == "settlement" and not state.setup_rail else IllegalAction("catan_express.not_now")
        if pieces_left(state, seat, what) <= 0:
            return IllegalAction("catan_express.no_pieces_left", what={"key": f"catan_express.piece.{what}"})
        return None if covers(state.players[seat].hand, COST[what]) else short(state, seat, economy.cost(what))
    if geo.kind.get(at) != what:
        return IllegalAction("catan_express.unknown_piece", text=at)
    if phase == "setup":  # CE-3: the free rail from the second settlement
        if state.setup_rail and what == "rail" and at in geo.at.get(str(state.players[seat].start), ()):
            return None
        return IllegalAction("catan_express.setup_rail_from_second")
    owners = state.pieces.get(at)
    if owners and seat in owners:
        return IllegalAction("catan_express.piece_yours")
    if not any(pt in d.network(seat) for pt in geo.ends[at]):
        return IllegalAction("catan_express.piece_not_connected")
    if pieces_left(state, seat, what) <= 0:
        return IllegalAction("catan_express.no_pieces_left", what={"key": f"catan_express.piece.{what}"})
    free = state.free_pieces > 0 and phase == "main"
    if covers(state.players[seat].hand, with_fees(NOTHING if free else COST[what], len(set(owners)) if owners else 0)):
        return None
    return short(state, seat, economy.build_price(what, sorted(set(owners or ())), free=free))  # type: ignore[arg-type]


def make(game: Any, s: CatanState, seat: int, a: Build, events: list[Event]) -> bool:
    geo = dv(s).geo
    free = a.what in ("rail", "ferry") and s.free_pieces > 0 and s.phase == "main"
    owners = sorted(set(s.pieces.get(a.at, ()))) if a.what in ("rail", "ferry") else []
    paid = economy.pay_build(holdings(s), seat, a.what, parallel_owners=owners, free=free)
    store(s, paid.holdings)
    events += paid.events
    if free:
        s.free_pieces -= 1
    _place(s, seat, a, events, geo)
    return True


def _place(s: CatanState, seat: int, a: Build, events: list[Event], geo: Geo) -> None:
    # A new dict, never a change in place: the parent state shares it (CatanState.fork).
    if a.what in ("settlement", "city"):
        s.buildings = {**s.buildings, int(a.at): building(seat, a.what)}
    else:
        parallel = bool(s.pieces.get(a.at))
        s.pieces = {**s.pieces, a.at: s.pieces.get(a.at, []) + [seat]}
        chips(s, seat, a.at, events, geo)
        if parallel:
            events.append(ev("built_parallel", seat=seat, what={"key": f"catan_express.piece.{a.what}"}, at=a.at))
    events.insert(0, ev("built", seat=seat, what={"key": f"catan_express.piece.{a.what}"}, at=a.at))
    s.last_build = [a.at]


def chips(s: CatanState, seat: int, piece: str, events: list[Event], geo: Geo) -> None:
    """CE-5: a chip for each other player's building the network comes to touch (once per
    building), and for each other player's network it comes to join (once per pair)."""
    p = s.own(seat)
    ends = geo.ends[piece]
    for point in ends:
        if point.isdigit():
            b = s.buildings.get(int(point))
            if b is not None and b.seat != seat and f"touch:{point}" not in p.chips:
                p.chips = p.chips + [f"touch:{point}"]
                events.append(ev("chip_touch", seat=seat, owner_seat=b.seat, at=point))
    paired = {tuple(j) for j in s.joined}
    for other in range(s.n):
        pair = (min(seat, other), max(seat, other))
        if other == seat or pair in paired:
            continue
        if any(other in s.pieces.get(x, ()) for pt in ends for x in geo.at.get(pt, ())):
            s.joined = s.joined + [list(pair)]
            p.chips = p.chips + [f"join:{other}"]
            events.append(ev("chip_join", seat=seat, other_seat=other))
