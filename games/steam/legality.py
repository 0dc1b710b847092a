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
from weakref import WeakKeyDictionary

from games.core.hexgrid import Hex, opposite
from games.steam.components import BuildCosts, components
from games.steam.maps import Space, SteamMap, Terrain
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
    space = m.space(h)
    if not buildable(space):
        return []
    sides = open_sides(m, h)
    out = []
    for face in tiles.playable():
        if not fits(face, space) or (stock is not None and stock.available(face.id) == 0):
            continue
        cost = build_cost(face, space)
        for k in face.rotations:
            exits = face.exits_at(k)
            if exits <= sides:
                out.append(Placement(face.id, k, exits, cost))
    return out


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
    space = m.space(h)
    if not buildable(space):
        return []
    sides = open_sides(m, h)
    costs = components().build_costs
    extra = costs.replacing_town_tile if tiles.faces[face].town else 0
    out = []
    for new, rots in _upgrades(tiles, face, rotation).items():
        if stock is not None and stock.available(new) == 0:
            continue
        f = tiles.faces[new]
        cost = costs.exit * len(f.exits) + extra
        out.extend(Placement(new, k, f.exits_at(k), cost) for k in rots if f.exits_at(k) <= sides)
    return out


_UPGRADES: WeakKeyDictionary[TileSet, dict[tuple[str, int], dict[str, tuple[int, ...]]]] = WeakKeyDictionary()


def _upgrades(tiles: TileSet, face: str, rotation: int) -> dict[str, tuple[int, ...]]:
    """`tiles.upgrades`, remembered per tile set: the legal build listing asks it of every
    tile on the board each time, and the answer depends on the box alone."""
    known = _UPGRADES.setdefault(tiles, {})
    if (face, rotation) not in known:
        known[(face, rotation)] = tiles.upgrades(face, rotation)
    return known[(face, rotation)]


def city_sides(m: SteamMap, h: Hex) -> frozenset[int]:
    """The open sides of `h` that face a city: where a new link may start (ST-3)."""
    return frozenset(s for s in open_sides(m, h) if m.space(h.neighbor(s)).city is not None)
