"""The race (CE-6 … CE-11): which stops a player may name, and where a locomotive may go.

Why it is shaped so
    A move of the locomotive is a sequence of legs, one piece each. Whether a leg is allowed
    depends on who owns the piece, what the mover can still pay and what happened on the legs
    before it (a water tower ends the move; on the islands, the move ends where the locomotive
    would change between rail and ferry, so it goes on along the kind it started on), so
    `legs_from` answers for one leg from a position, and `routes` searches whole paths to the
    mover's towers for the "go to a stop" menu. Both read the state and never change it;
    phases/ride.py applies a leg.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from heapq import heappop, heappush
from typing import Iterator

from games.catan_express.components import RESOURCES
from games.catan_express.geo import Geo
from games.catan_express.models import CatanState, Leg


_NAMES = tuple(r.value for r in RESOURCES)


def network_points(state: CatanState, geo: Geo, seat: int) -> set[str]:
    """Every point one of the seat's rails or ferries ends at."""
    out: set[str] = set()
    for piece, owners in state.pieces.items():
        if seat in owners:
            out.update(geo.ends[piece])
    return out


def nameable_stops(state: CatanState, geo: Geo, seat: int) -> list[int]:
    """CE-7: settlements and cities (anyone's) the seat's network touches, except every
    locomotive's starting intersection and the stops already named."""
    mine = network_points(state, geo, seat)
    starts = {p.start for p in state.players}
    return sorted(pt for pt in state.buildings
                  if str(pt) in mine and pt not in starts and pt not in state.stops)


def lines_at(state: CatanState, geo: Geo, at: str) -> Iterator[tuple[str, list[int], str, str]]:
    """The built pieces a locomotive at `at` may leave by: (piece, its owners, the point it
    leads to, rail or ferry)."""
    for piece in geo.at.get(at, ()):
        owners = state.pieces.get(piece)
        if owners:
            yield piece, owners, geo.other_end(piece, at), geo.kind[piece]


def reachable(state: CatanState, geo: Geo, start: str) -> set[str]:
    """Every point a locomotive at `start` could ever get to over the pieces now built
    (anyone's: others' cost a toll, but they are open to all)."""
    seen = {start}
    todo = [start]
    while todo:
        for _, _, to, _ in lines_at(state, geo, todo.pop()):
            if to not in seen:
                seen.add(to)
                todo.append(to)
    return seen


def ends_move_at(state: CatanState, seat: int, point: str) -> bool:
    """CE-9: reaching one of the mover's own towers (a stop not yet collected) ends the move."""
    return point.isdigit() and int(point) in state.stops and int(point) not in state.players[seat].towers


@lru_cache(maxsize=8192)
def leg(to: str, payee: int | None = None, resource: str | None = None) -> Leg:
    """A leg, made once per (point, payee, resource): legs are frozen values, listed and searched
    over again on every move of the race."""
    return Leg(to=to, payee=payee, resource=resource) if payee is not None or resource is not None else Leg(to=to)


@dataclass(frozen=True, slots=True)
class LegOption:
    leg: Leg
    piece: str
    kind: str  # rail | ferry


def kind_kept(state: CatanState, transfer_stop: bool) -> str | None:
    """The kind of piece the locomotive's move must go on along, if any. CE-11: where the
    locomotive would change between rail and ferry its move ends (the rulebook: it must stop
    there), so a move goes on along the kind of its first leg; the next turn starts afresh."""
    return state.moved_on if transfer_stop and state.moving else None


def legs_from(state: CatanState, geo: Geo, seat: int, at: str, hand: list[int],
              keep: str | None = None) -> list[LegOption]:
    """Every leg the seat's locomotive may take from `at` now (CE-8): along any piece with
    an owner (of kind `keep` only, when given: CE-11); free on the mover's own (or parallel)
    piece, else 1 resource to one owner, the mover's choice of owner and resource."""
    out: list[LegOption] = []
    for piece, owners, to, kind in lines_at(state, geo, at):
        if keep is not None and kind != keep:
            continue
        if seat in owners:
            out.append(LegOption(leg(to), piece, kind))
            continue
        for owner in sorted(set(owners)):
            for r, n in zip(_NAMES, hand):
                if n:
                    out.append(LegOption(leg(to, owner, r), piece, kind))
    return out


def routes(state: CatanState, geo: Geo, seat: int, transfer_stop: bool) -> list[tuple[Leg, ...]]:
    """One way to each of the seat's uncollected towers reachable within the points left this
    turn: the fewest paid legs, then the fewest legs. Tolls go to the lowest owner in the
    resource the mover holds most of at that moment, so the route is one the mover can pay.
    A route runs through no other own tower (it would end the move early), and where the
    islands rule applies (CE-11) it never changes between rail and ferry: the move would end
    at the change, short of the tower."""
    p = state.players[seat]
    if p.loco is None or state.move_left <= 0:
        return []
    start = str(p.loco)
    targets = {str(s) for s in state.stops if s not in p.towers}
    if not targets:
        return []
    hand0 = tuple(p.hand or (0,) * len(RESOURCES))
    move_left = state.move_left
    pieces, at_map, ends, kind_of = state.pieces, geo.at, geo.ends, geo.kind
    # Search states: (paid legs, length, tie-break, point, last kind, hand, path), the path a
    # chain (previous path, point, payee, resource) turned into legs only for the routes found.
    # Reaching one of the mover's towers ends a move (CE-9), and those are the targets: a path
    # stops at the first it reaches.
    heap: list = [(0, 0, 0, start, kind_kept(state, transfer_stop) or "", hand0, None)]
    pushed = 0  # a tie-break, so the heap never compares two paths
    best: dict[tuple[str, str], tuple[int, int]] = {}
    found: dict[str, tuple] = {}
    while heap:
        paid, length, _, at, last, hand, path = heappop(heap)
        if at in targets and path is not None:
            if at not in found:
                found[at] = path
            continue
        if length >= move_left:
            continue
        key = (at, last)
        seen = best.get(key)
        if seen is not None and seen <= (paid, length):
            continue
        best[key] = (paid, length)
        for piece in at_map.get(at, ()):
            owners = pieces.get(piece)
            if not owners:
                continue
            a, b = ends[piece]
            to = b if a == at else a
            kind = kind_of[piece]
            if transfer_stop and last and kind != last:
                continue  # CE-11: the move would end here, at the change
            pushed += 1
            if seat in owners:
                heappush(heap, (paid, length + 1, pushed, to, kind, hand, (path, to, None, None)))
                continue
            if not any(hand):
                continue
            i = hand.index(max(hand))  # the most held, the first resource on a tie
            rest = hand[:i] + (hand[i] - 1,) + hand[i + 1:]
            heappush(heap, (paid + 1, length + 1, pushed, to, kind, rest, (path, to, min(owners), _NAMES[i])))
    return [_legs(found[t]) for t in sorted(found, key=int)]


def _legs(path: tuple) -> tuple[Leg, ...]:
    out = []
    while path is not None:
        path, to, payee, resource = path
        out.append(leg(to, payee, resource))
    return tuple(reversed(out))

