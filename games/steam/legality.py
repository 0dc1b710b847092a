"""Where track may go on a Steam map, and what it costs (ST-2, ST-3, ST-M2).

Why it is shaped so
    Every later rule — building, redirects, upgrades, the chooser that lists legal builds, the
    bots — asks the same two questions of the static map: through which sides may track leave
    this hex (never into water, off the map, or across a thick black edge), and what does a face
    cost here. They are answered once, here, from the map alone; who owns what and which tiles
    are already down belong to the rules' state and are passed in by the caller.

    `city_links` walks the same open sides to show that track can join every city to another
    (ST-M3's check that each map plays), as a plain breadth-first search over hexes: a legal
    line of track is a simple path of buildable hexes, and each hex on it needs only a tile
    joining its entry and exit sides — straight, gentle and sharp curves (and two-exit town
    tiles) cover every pair of sides.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from games.core.hexgrid import Hex, opposite
from games.steam.components import BuildCosts, components
from games.steam.map import Space, SteamMap, Terrain
from games.steam.tiles import Face, Stock, TileSet


@dataclass(frozen=True, slots=True)
class Placement:
    face: str
    rotation: int
    exits: frozenset[int]
    cost: int


def buildable(space: Space | None) -> bool:
    """A hex that takes a track tile: on the map, land, not a city (ST-3)."""
    return space is not None and space.land and space.city is None


def open_sides(m: SteamMap, h: Hex) -> frozenset[int]:
    """The sides of `h` track may leave by: towards a land hex of the map (a city included),
    never across a black edge, into water or off the map (ST-3)."""
    entry = _SIDES.get(id(m))
    if entry is None:
        entry = _SIDES[id(m)] = (m, {})
    sides = entry[1].get(h)
    if sides is None:
        sides = entry[1][h] = _open_sides(m, h)
    return sides


# Per map (the entry holds the map itself, so its id cannot be reused): hex -> open sides.
_SIDES: dict[int, tuple[SteamMap, dict[Hex, frozenset[int]]]] = {}


def _open_sides(m: SteamMap, h: Hex) -> frozenset[int]:
    out = []
    for side in range(6):
        n = m.space(h.neighbor(side))
        if n is None or not n.land or m.is_black(h, side):
            continue
        out.append(side)
    return frozenset(out)


def terrain_cost(space: Space, costs: BuildCosts | None = None) -> int:
    """ST-2's surcharge on an empty hex: + town, + river, + hills."""
    c = costs or components().build_costs
    return ((c.town if space.town else 0) + (c.river if space.river else 0)
            + (c.hills if space.terrain is Terrain.HILLS else 0))


def build_cost(face: Face, space: Space, costs: BuildCosts | None = None) -> int:
    """Cost of placing `face` on the empty hex `space`: $1 per exit plus the terrain (ST-2)."""
    c = costs or components().build_costs
    return c.exit * len(face.exits) + terrain_cost(space, c)


def fits(face: Face, space: Space) -> bool:
    """Town hexes take only town tiles, other buildable hexes only plain track (ST-3)."""
    return not face.blank and face.town == space.town


def placements(m: SteamMap, h: Hex, tiles: TileSet, stock: Stock | None = None) -> list[Placement]:
    """Every face and distinct rotation that may go on the empty hex `h` as far as the map is
    concerned, with its cost; only faces the stock still holds if a stock is given."""
    static = _geometry(m, tiles).placements(h)
    if stock is None:
        return list(static)
    return _in_stock(static, stock)


def _in_stock(static: tuple[Placement, ...], stock: Stock) -> list[Placement]:
    left = stock.by_face()
    return [p for p in static if left[p.face]]


def city_links(m: SteamMap, start: Hex) -> set[Hex]:
    """The other cities a line of legal track (through towns allowed) can join to `start`."""
    seen: set[Hex] = set()
    found: set[Hex] = set()
    queue: deque[Hex] = deque()
    for side in open_sides(m, start):
        n = start.neighbor(side)
        if buildable(m.space(n)) and opposite(side) in open_sides(m, n) and n not in seen:
            seen.add(n)
            queue.append(n)
    while queue:
        h = queue.popleft()
        for side in open_sides(m, h):
            n = h.neighbor(side)
            s = m.space(n)
            if s.city is not None:
                if n != start:
                    found.add(n)
            elif n not in seen:
                seen.add(n)
                queue.append(n)
    return found


def upgrades_on(m: SteamMap, h: Hex, tiles: TileSet, face: str, rotation: int,
                stock: Stock | None = None) -> list[Placement]:
    """Every face and rotation that may replace the tile `face`/`rotation` on `h` as an upgrade
    (ST-6: all its track kept, more added, every exit still legal), priced per ST-2: $1 per exit
    of the new tile, + $1 if it replaces a town tile, no terrain cost."""
    static = _geometry(m, tiles).upgrades(h, face, rotation)
    if stock is None:
        return list(static)
    return _in_stock(static, stock)


class _Geometry:
    """What one map and tile set answer about a hex, whatever the board holds: its open sides,
    the faces and rotations it takes with their cost, the upgrades of a placed face. Worked out
    on first asking and kept (the bots and the build listing ask the same hexes over and over)."""

    def __init__(self, m: SteamMap, tiles: TileSet) -> None:
        self.m, self.tiles = m, tiles
        self._on: dict[Hex, tuple[Placement, ...]] = {}
        self._up: dict[tuple[Hex, str, int], tuple[Placement, ...]] = {}
        self._rotated: dict[tuple[str, int], frozenset[int]] = {}
        self._upgrades_of: dict[tuple[str, int], dict[str, tuple[int, ...]]] = {}

    def exits_at(self, face: Face, k: int) -> frozenset[int]:
        key = (face.id, k)
        exits = self._rotated.get(key)
        if exits is None:
            exits = self._rotated[key] = face.exits_at(k)
        return exits

    def placements(self, h: Hex) -> tuple[Placement, ...]:
        found = self._on.get(h)
        if found is None:
            found = self._on[h] = self._placements(h)
        return found

    def _placements(self, h: Hex) -> tuple[Placement, ...]:
        space = self.m.space(h)
        if not buildable(space):
            return ()
        sides = open_sides(self.m, h)
        out = []
        for face in self.tiles.playable():
            if not fits(face, space):
                continue
            cost = build_cost(face, space)
            for k in face.rotations:
                exits = self.exits_at(face, k)
                if exits <= sides:
                    out.append(Placement(face.id, k, exits, cost))
        return tuple(out)

    def upgrades(self, h: Hex, face: str, rotation: int) -> tuple[Placement, ...]:
        key = (h, face, rotation)
        found = self._up.get(key)
        if found is None:
            found = self._up[key] = self._upgrades(h, face, rotation)
        return found

    def _upgrades(self, h: Hex, face: str, rotation: int) -> tuple[Placement, ...]:
        space = self.m.space(h)
        if not buildable(space):
            return ()
        tiles = self.tiles
        sides = open_sides(self.m, h)
        costs = components().build_costs
        extra = costs.replacing_town_tile if tiles.faces[face].town else 0
        out = []
        ups = self._upgrades_of.get((face, rotation))
        if ups is None:
            ups = self._upgrades_of[(face, rotation)] = tiles.upgrades(face, rotation)
        for new, rots in ups.items():
            f = tiles.faces[new]
            cost = costs.exit * len(f.exits) + extra
            out.extend(Placement(new, k, self.exits_at(f, k), cost) for k in rots if self.exits_at(f, k) <= sides)
        return tuple(out)


_GEOMETRY: dict[tuple[int, int], tuple[SteamMap, TileSet, _Geometry]] = {}


def _geometry(m: SteamMap, tiles: TileSet) -> _Geometry:
    # The entry holds the map and the tile set themselves, so their ids cannot be reused.
    key = (id(m), id(tiles))
    entry = _GEOMETRY.get(key)
    if entry is None:
        entry = _GEOMETRY[key] = (m, tiles, _Geometry(m, tiles))
    return entry[2]


def city_sides(m: SteamMap, h: Hex) -> frozenset[int]:
    """The open sides of `h` that face a city: where a new link may start (ST-3)."""
    return frozenset(s for s in open_sides(m, h) if m.space(h.neighbor(s)).city is not None)
