"""Steam deliveries: which cubes the mover may deliver, by which routes, and who scores (ST-9).

This is the "deliver one cube" action of ST-8's delivery rounds; the rounds themselves, the
locomotive upgrade and the income-or-points answers belong to the rules engine.

Inputs (plain values; the rules engine owns the state and passes them in)
    links        `Link(id, ends, owner, complete)`: a link joins two places (cities or towns)
                 through a run of track; `owner` is a seat number or None (unowned), and only
                 complete links carry goods. Ids and places must each be mutually orderable
                 (ints, strings, `Hex`es), because every list below is sorted by them.
    city_colours {place: Colour} for every city on the board — printed cities and urbanized new
                 cities alike; a place absent from it is a town.
    cubes        {city: {Colour: count}}: the goods waiting on each city.
    mover        the seat delivering; `locomotive` its level (the most links a route may use).

What a delivery is (ST-9 and the rulebook's delivery section)
    A route leaves the cube's city over completed links, anyone's or nobody's, at most
    `locomotive` of them, and ends at the first city of the cube's colour it reaches: it may pass
    through cities of other colours and through towns, never through a city of its own colour,
    never through a city twice, never back into its start. A route never ends at a town. The
    ruling forbids revisiting cities only, so a route may pass a town twice by two different
    links; a link, being one piece of track, is used at most once. The mover must use at least
    one own link and at least as many own links as any other single player — unowned links
    belong to no player, so they never count against the mover. Every link scores 1 point to its
    owner; unowned links score nobody.

What the chooser lists
    Two routes for the same cube to the same city that give every seat the same points are the
    same move for the game, and at locomotive 6 a dense network has thousands of them, so
    `deliveries` lists each distinct move once — (cube's city, colour, destination, points per
    seat) — with one representative route: the fewest links, then the smallest link ids in
    order. `check_route` accepts any legal route a player names, not only the representative.

How the search stays fast
    One depth-first walk per cube's city carries all its cube colours at once, as a bit set: a
    colour drops out at the first city of that colour (delivered there or not), and a branch
    stops when no colour is left, when no city of a remaining colour lies within the links left
    (a breadth-first distance bound), or when the mover can no longer catch up with the
    largest other owner's count. The last link is looked for only among links into cities.
    `Network` turns places and links into small integers once per board state. On the dense
    Northeast network of tools/games/steam/delivery_bench.py (76 links, every colour on every city)
    all of one player's deliveries at locomotive 6 take about 15-30 ms.

Notation
    `notation` writes the places visited, joined by "-" ("L7-L9-L11" with map labels); where
    more than one completed link joins two consecutive places the step names its link in
    brackets ("L7-L9[12]-L11"), so `parse_route` can read every route back.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from games.core.errors import IllegalAction
from games.steam.map import Colour

Place = Any    # a city or town: whatever the caller names places by (Hex on the real maps)
LinkId = Any   # the caller's name for a link (int or str), unique on the board
Seat = int
COLOUR_ORDER = tuple(Colour)
_COLOUR_BIT = {c: 1 << k for k, c in enumerate(COLOUR_ORDER)}
_COLOUR_RANK = {1 << k: k for k in range(len(COLOUR_ORDER))}


@dataclass(frozen=True, slots=True)
class Link:
    """One link: a run of track joining two places, with its owner (None: unowned)."""

    id: LinkId
    ends: tuple[Place, Place]
    owner: Seat | None = None
    complete: bool = True

    def other(self, place: Place) -> Place:
        a, b = self.ends
        return b if place == a else a


@dataclass(frozen=True, slots=True)
class Delivery:
    """One legal delivery: the cube (its city and colour), the route, and the points it gives."""

    colour: Colour
    places: tuple[Place, ...]                  # the cube's city first, its destination last
    links: tuple[LinkId, ...]                  # one fewer than places, in travel order
    points: tuple[tuple[Seat, int], ...]       # (seat, points) by seat; unowned links score nobody

    @property
    def source(self) -> Place:
        return self.places[0]

    @property
    def destination(self) -> Place:
        return self.places[-1]

    def points_of(self, seat: Seat) -> int:
        return dict(self.points).get(seat, 0)


@dataclass(frozen=True, slots=True)
class _Compiled:
    places: tuple[Place, ...]
    index: dict[Place, int]
    link_ids: tuple[LinkId, ...]
    seats: tuple[Seat, ...]
    slot: dict[Seat, int]
    # Per place: (other place's index, link's index, owner's slot or -1, other place, link id).
    adjacent: tuple[tuple[tuple[int, int, int, Place, LinkId], ...], ...]


class Network:
    """The completed links of a board, indexed by place for the route search.

    Build it once per board state and reuse it for every question about that state."""

    def __init__(self, links: Iterable[Link]) -> None:
        self.links: dict[LinkId, Link] = {}
        for link in links:
            if link.id in self.links:
                raise ValueError(f"two links share the id {link.id!r}")
            if link.ends[0] == link.ends[1]:
                raise ValueError(f"link {link.id!r} starts and ends at the same place (ST-3)")
            self.links[link.id] = link
        adjacent: dict[Place, list[tuple[Place, LinkId]]] = {}
        for link in self.links.values():
            if not link.complete:
                continue
            a, b = link.ends
            adjacent.setdefault(a, []).append((b, link.id))
            adjacent.setdefault(b, []).append((a, link.id))
        # Sorted so that every search, and so every list of deliveries, comes out in one order.
        self.adjacent = {p: tuple(sorted(v)) for p, v in adjacent.items()}
        self._bounds: dict[tuple, tuple[list[tuple], list[list[int]]]] = {}

    @cached_property
    def compiled(self) -> _Compiled:
        """The search's view of the network: places and links as small integers, sorted."""
        places = tuple(sorted(self.adjacent))
        index = {p: i for i, p in enumerate(places)}
        link_ids = tuple(sorted(self.links))
        link_index = {lid: i for i, lid in enumerate(link_ids)}
        seats = tuple(sorted({l.owner for l in self.links.values()
                              if l.complete and l.owner is not None}))
        slot = {s: k for k, s in enumerate(seats)}  # an owner's counter; unowned links have none (-1)
        adjacent = tuple(
            tuple((index[o], link_index[lid], slot.get(self.links[lid].owner, -1), o, lid)
                  for o, lid in self.adjacent[p])
            for p in places)
        return _Compiled(places, index, link_ids, seats, slot, adjacent)

    def bounds(self, city_bit: list[int], locomotive: int) -> tuple[list[tuple], list[list[int]]]:
        """For the search with these city colours: each place's steps into cities, and `_reach`.
        Remembered per colours and locomotive (the board changes less often than the question
        is asked). Do not modify."""
        key = (tuple(city_bit), locomotive)
        known = self._bounds.get(key)
        if known is None:
            adjacent = self.compiled.adjacent
            to_cities = [tuple(step for step in steps if city_bit[step[0]]) for steps in adjacent]
            known = self._bounds[key] = (to_cities, _reach(adjacent, city_bit, locomotive))
        return known

    def between(self, a: Place, b: Place) -> tuple[LinkId, ...]:
        """The completed links joining a and b, smallest id first."""
        return tuple(i for other, i in self.adjacent.get(a, ()) if other == b)


def _as_network(links: Network | Iterable[Link]) -> Network:
    return links if isinstance(links, Network) else Network(links)


def _points(owners: Iterable[Seat | None]) -> tuple[tuple[Seat, int], ...]:
    tally: dict[Seat, int] = {}
    for o in owners:
        if o is not None:
            tally[o] = tally.get(o, 0) + 1
    return tuple(sorted(tally.items()))


def _majority_ok(points: Mapping[Seat, int], mover: Seat) -> bool:
    own = points.get(mover, 0)
    return own >= 1 and all(n <= own for seat, n in points.items() if seat != mover)


# --- listing every delivery ------------------------------------------------------------------

def deliveries(links: Network | Iterable[Link], city_colours: Mapping[Place, Colour],
               cubes: Mapping[Place, Mapping[Colour, int]], mover: Seat,
               locomotive: int) -> list[Delivery]:
    """Every distinct legal delivery for `mover` (see the module notes), sorted by the cube's
    city, its colour (Colour's order), the destination, then the route's length and link ids."""
    net = _as_network(links)
    g = net.compiled
    if locomotive < 1 or mover not in g.slot:
        return []  # no own completed link: nothing is deliverable (ST-9)
    me = g.slot[mover]
    places, adjacent = g.places, g.adjacent
    city_bit = [0] * len(places)   # the colour bit of a city, 0 for a town
    for p, c in city_colours.items():
        i = g.index.get(p)
        if i is not None:
            city_bit[i] = _COLOUR_BIT[c]

    to_cities, reach = net.bounds(city_bit, locomotive)
    best: dict[tuple, tuple[tuple[LinkId, ...], tuple[Place, ...]]] = {}   # outcome -> route
    counts = [0] * len(g.seats)
    used = [False] * len(g.link_ids)
    visited = [False] * len(places)
    path: list[LinkId] = []   # links taken so far
    trail: list[Place] = []   # places visited so far, the cube's city first

    def walk(here: int, alive: int, source: int) -> None:
        remaining = locomotive - len(path) - 1   # links left after the one about to be taken
        # The last link of a route must end at a city: towns are not worth looking at then.
        for there, li, owner, there_place, lid in (adjacent if remaining else to_cities)[here]:
            if used[li] or visited[there]:
                continue
            if owner >= 0:
                counts[owner] += 1
            path.append(lid)
            bit = city_bit[there]
            top = max(counts)
            own = counts[me]
            if bit & alive and own >= 1 and top <= own:
                key = (source, _COLOUR_RANK[bit], there, tuple(counts))
                old = best.get(key)
                # Fewest links first, then the smallest link ids.
                if old is None or (len(path), tuple(path)) < (len(old[0]), old[0]):
                    trail.append(there_place)
                    best[key] = (tuple(path), tuple(trail))
                    trail.pop()
            # Colours still deliverable: not yet passed, and a city of theirs close enough.
            left = alive & ~bit & reach[remaining][there] if remaining > 0 else 0
            if left and own + remaining >= top:
                if bit:
                    visited[there] = True  # cities once only (ST-9); towns may be passed again
                used[li] = True
                trail.append(there_place)
                walk(there, left, source)
                trail.pop()
                used[li] = False
                visited[there] = False
            path.pop()
            if owner >= 0:
                counts[owner] -= 1

    for p, on_city in cubes.items():
        s = g.index.get(p)
        alive = 0
        for c, n in on_city.items():
            if n > 0:
                alive |= _COLOUR_BIT[c]
        if s is None or not alive or not city_bit[s]:
            continue
        visited[s] = True
        trail.append(p)
        walk(s, alive, s)
        trail.pop()
        visited[s] = False

    # Native tuple order: source, colour, destination, then fewest links and smallest ids.
    rows = sorted((k[0], k[1], k[2], len(route), route, k[3], trail)
                  for k, (route, trail) in best.items())
    seats = g.seats
    points_of: dict[tuple[int, ...], tuple[tuple[Seat, int], ...]] = {}
    out = []
    for _s, rank, _d, _n, route, tally, trail in rows:
        points = points_of.get(tally)
        if points is None:
            points = points_of[tally] = tuple((seats[k], n) for k, n in enumerate(tally) if n)
        out.append(Delivery(COLOUR_ORDER[rank], trail, route, points))
    return out


def _reach(adjacent, city_bit: list[int], locomotive: int) -> list[list[int]]:
    """reach[r][p]: the colours with a city at most r links from place p, a bound that lets the
    search drop a branch as soon as no colour it still carries can arrive in time."""
    n = len(adjacent)
    reach = [[0] * n for _ in range(locomotive + 1)]
    for bit in {b for b in city_bit if b}:
        dist = [-1] * n
        frontier = [p for p in range(n) if city_bit[p] == bit]
        for p in frontier:
            dist[p] = 0
        d = 0
        while frontier and d < locomotive:
            d += 1
            nxt = []
            for p in frontier:
                for q, *_ in adjacent[p]:
                    if dist[q] < 0:
                        dist[q] = d
                        nxt.append(q)
            frontier = nxt
        for p in range(n):
            if dist[p] >= 0:
                for r in range(dist[p], locomotive + 1):
                    reach[r][p] |= bit
    return reach


def by_cube(found: Iterable[Delivery]) -> dict[tuple[Place, Colour], list[Delivery]]:
    """Deliveries grouped for the chooser's "cube -> route" steps, keeping their order."""
    out: dict[tuple[Place, Colour], list[Delivery]] = {}
    for d in found:
        out.setdefault((d.source, d.colour), []).append(d)
    return out


def delivery_order(d: Delivery) -> tuple:
    """The order deliveries are listed in (see `deliveries`)."""
    return (d.source, COLOUR_ORDER.index(d.colour), d.destination, len(d.links), d.links)


# --- checking one route a player names -----------------------------------------------------

def check_route(links: Network | Iterable[Link], city_colours: Mapping[Place, Colour],
                cubes: Mapping[Place, Mapping[Colour, int]], mover: Seat, locomotive: int,
                source: Place, colour: Colour, route: Sequence[LinkId]) -> Delivery:
    """The delivery of a `colour` cube from `source` along the links `route`, in travel order;
    IllegalAction with a `steam.delivery.…` code if any rule of ST-9 refuses it."""
    net = _as_network(links)
    if cubes.get(source, {}).get(colour, 0) <= 0:
        raise IllegalAction("steam.delivery.no_cube")
    if not route:
        raise IllegalAction("steam.delivery.no_route")
    if len(route) > locomotive:
        raise IllegalAction("steam.delivery.too_long", count=len(route), locomotive=locomotive)
    if len(set(route)) != len(route):
        raise IllegalAction("steam.delivery.link_twice")
    trail = [source]
    owners = []
    for step, lid in enumerate(route):
        link = net.links.get(lid)
        if link is None or trail[-1] not in link.ends:
            raise IllegalAction("steam.delivery.not_connected")
        if not link.complete:
            raise IllegalAction("steam.delivery.incomplete_link")  # ST-9
        here = link.other(trail[-1])
        if here in city_colours and here in trail:
            raise IllegalAction("steam.delivery.city_twice")  # ST-9, the start included
        if city_colours.get(here) == colour and step < len(route) - 1:
            raise IllegalAction("steam.delivery.passes_own_colour")  # ST-9: the first such city
        trail.append(here)
        owners.append(link.owner)
    if city_colours.get(trail[-1]) != colour:
        raise IllegalAction("steam.delivery.wrong_destination")
    points = _points(owners)
    tally = dict(points)
    if tally.get(mover, 0) < 1:
        raise IllegalAction("steam.delivery.no_own_link")
    if not _majority_ok(tally, mover):
        raise IllegalAction("steam.delivery.not_majority")
    return Delivery(colour, tuple(trail), tuple(route), points)


# --- who scores, and in which order they choose ---------------------------------------------

@dataclass(frozen=True, slots=True)
class Award:
    """Points one seat gets from a delivery; the seat puts all of them into income or all into
    victory points (ST-9: never split)."""

    seat: Seat
    points: int


def awards(delivery: Delivery, mover: Seat, turn_order: Sequence[Seat]) -> tuple[Award, ...]:
    """The scoring seats in the order they choose income or points: the mover first, then the
    others in turn order (ST-9). Seats not in `turn_order` (gone bankrupt) come last by seat."""
    tally = dict(delivery.points)
    rank = {s: i for i, s in enumerate(turn_order)}
    seats = sorted(tally, key=lambda s: (s != mover, rank.get(s, len(rank)), s))
    return tuple(Award(s, tally[s]) for s in seats)


# --- notation ---------------------------------------------------------------------------------

def notation(links: Network | Iterable[Link],
             delivery_or_route: Delivery | tuple[Sequence[Place], Sequence[LinkId]],
             name: Callable[[Place], str] = str) -> str:
    """The places visited, joined by "-", a step naming its link in brackets only where two
    completed links join the same places (module notes)."""
    net = _as_network(links)
    if isinstance(delivery_or_route, Delivery):
        places, route = delivery_or_route.places, delivery_or_route.links
    else:
        places, route = delivery_or_route
    parts = [name(places[0])]
    for (a, b), lid in zip(zip(places, places[1:]), route):
        parts.append(name(b) + (f"[{lid}]" if len(net.between(a, b)) > 1 else ""))
    return "-".join(parts)


def parse_route(links: Network | Iterable[Link], text: str, place: Callable[[str], Place],
                link_id: Callable[[str], LinkId] = int) -> tuple[tuple[Place, ...], tuple[LinkId, ...]]:
    """Read `notation` back: the places and the links of the route. IllegalAction
    `steam.delivery.not_connected` if two consecutive places are not joined as written."""
    net = _as_network(links)
    parts = text.split("-")
    places = [place(parts[0])]
    route = []
    for part in parts[1:]:
        label, _, rest = part.partition("[")
        here = place(label)
        between = net.between(places[-1], here)
        if rest:
            lid = link_id(rest.rstrip("]"))
            if lid not in between:
                raise IllegalAction("steam.delivery.not_connected")
        elif len(between) == 1:
            lid = between[0]
        else:
            raise IllegalAction("steam.delivery.not_connected")
        places.append(here)
        route.append(lid)
    return tuple(places), tuple(route)
