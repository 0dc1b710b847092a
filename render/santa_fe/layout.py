"""Where things go on the Santa Fe board image: pure geometry, computed once.

The map file gives every city and every terrain line as (lon, lat); `SantaFeMap.project` turns
them into 0..1 of the board and `SantaFeMap.aspect` says how wide the board is for its height.
Here they become pixels in the map area. Real geography puts a few cities a few pixels apart
(San Francisco and Oakland, Seattle and Tacoma, Ogden and Salt Lake City), so cities are
pushed apart until every section has room for its track spaces; cities on the coast are
never pushed into the sea, and the coast, rivers and ranges are warped along with the cities
near them, so a city stays on the right bank. Every section then becomes a path (straight, or
bent round a third city), double lines two parallel paths, and every path is cut into its
track spaces: one rotated rectangle per space, as on the printed board.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from games.santa_fe.map import SantaFeMap, west
from render.kit.geometry import bend_for, curve, offset, segments
from render.kit.labels import MARK, NAME, TRACK, Occupancy
from render.kit.shapes import rotated_rect_points

# --- the canvas ------------------------------------------------------------------------
MAP_H = 1000
MAP_W = 1270  # MAP_H × the map's aspect (1.27)
# Players mostly see the board 400 px wide: the image is only as wide as the map, so every
# text can be big enough there; the players, the railroads and the last turn sit in a panel
# under the map.
PANEL_H = 350
BOARD_W, BOARD_H = MAP_W, MAP_H + PANEL_H
PANEL_Y = MAP_H
MIN_TEXT = -(-7 * BOARD_W // 400)  # the smallest type that is 7 px tall when shown 400 px wide

# A city's marker: a disc with its value in it. The value decides where players build, so it
# is drawn in the board's smallest type (MIN_TEXT) and the disc is sized to hold it.
CITY_R = 15
START_R = 14  # a start city's marker: a square in its railroads' colours
PIP_R = 5.0  # "railroad reaches this city": a small disc on a ring round the marker
PIP_RING = CITY_R + 6
END_TRIM = PIP_RING + PIP_R + 2  # track spaces stop short of the marker and its pips
# Pips sit on an arc above the marker, each railroad always at the same angle (map order).
PIP_ANGLES = (-150.0, -120.0, -90.0, -60.0, -30.0)
LEGEND_BOX = (8, 676, 236, 994)  # what the map's marks mean, in the empty Pacific south-west corner
SPACE_GAP = 4  # between two spaces of a section
SPACE_W = 9  # an empty space's thickness
TILE_W = 14  # a placed tile is thicker and outlined, so it reads as built
MAX_SPACE = 40  # long sections get normal-sized spaces, centred
DOUBLE_OFFSET = 8  # each half of a double line sits this far from the centre line
CLEARANCE = 24  # a section passing closer than this to another city is bent away from it

MIN_SPACE = 22  # cities joined by a section are pushed apart until each space is this long...
MIN_OTHER = 60  # ...other cities until they are this far apart
RELAX_STEPS = 400
WARP_SIGMA = 38.0  # how far round a moved city the terrain moves with it

Point = tuple[float, float]


@dataclass(frozen=True)
class Space:
    center: Point
    angle: float  # radians, direction from the section's `a` city to its `b` city
    length: float

    def corners(self, width: float, extra_length: float = 0.0) -> list[Point]:
        return rotated_rect_points(self.center, self.length + extra_length, width, self.angle)


@dataclass(frozen=True)
class SectionShape:
    section: int
    path: tuple[Point, ...]  # from the section's `a` city to its `b` city (offset for a double half)
    spaces: tuple[Space, ...]  # in order from `a`


@dataclass(frozen=True)
class BoardLayout:
    cities: tuple[Point, ...]  # per city index
    sections: tuple[SectionShape, ...]  # per section id
    rivers: tuple[tuple[Point, ...], ...]  # warped, smoothed polylines in pixels
    ranges: tuple[tuple[Point, ...], ...]
    water: dict[str, tuple[Point, ...]]  # name -> polyline (coasts open; a bay or lake closed: last = first)
    borders: tuple[tuple[Point, ...], ...]  # national borders (dashed)
    foreign: tuple[tuple[Point, ...], ...]  # Canada and Mexico: polygons shaded off the board's land

    def space_index(self, section: int, built_order: int, end: int) -> int:
        """The geometric index (from `a`) of the built_order-th tile of a section built from `end`."""
        n = len(self.sections[section].spaces)
        return built_order if end == 0 else n - 1 - built_order


def pip_center(city: int, r: int) -> Point:
    """Where the pip of railroad r reaching the city goes."""
    x, y = board_layout().cities[city]
    a = math.radians(PIP_ANGLES[r])
    ring = PIP_RING + (2 if west().values[city] == 0 else 0)
    return x + math.cos(a) * ring, y + math.sin(a) * ring


# --- projection ---------------------------------------------------------------------------------------
def map_occupancy(layout: "BoardLayout", marker_r: Callable[[int], float], pip_r: float) -> Occupancy:
    """What a city name or a played card's mark had better not cover: the track, each city's
    marker (`marker_r(city)` round its centre), the pips above it (`pip_r` round each) and the
    legend. Names and marks keep different clearances, hence the radii as parameters."""
    occupied = Occupancy((MAP_W, MAP_H))
    for shape in layout.sections:
        for space in shape.spaces:
            occupied.polygon(space.corners(TILE_W + 2, 2), TRACK)
    for city, point in enumerate(layout.cities):
        occupied.disc(point, marker_r(city), MARK)
        for rr in range(len(PIP_ANGLES)):
            occupied.disc(pip_center(city, rr), pip_r, MARK)
    occupied.box(LEGEND_BOX, NAME)
    return occupied


def lonlat_xy(board: SantaFeMap, lon: float, lat: float) -> Point:
    x, y = board.project(lon, lat)
    return x * MAP_W, y * MAP_H


# Borders are not game data (nothing in the rules depends on them); they only help the map read
# as the United States. Simplified from the real lines (lon, lat).
_CANADA = [(-123.3, 49.0), (-95.15, 49.0)]
_MEXICO = [(-117.12, 32.53), (-114.72, 32.72), (-111.07, 31.33), (-108.21, 31.33), (-108.21, 31.78),
           (-106.53, 31.78)]
BAJA_TIP = (-112.1, 25.0)  # where the Pacific coast of Baja California leaves the board


# --- the sea ----------------------------------------------------------------------------------------
def sea_polygons(layout: BoardLayout) -> list[list[Point]]:
    """Closed sea and lake polygons from the (open) coast lines."""
    board = west()
    out: list[list[Point]] = []
    for name, pts in layout.water.items():
        pts = list(pts)
        if name == "pacific_coast":
            tip = lonlat_xy(board, *BAJA_TIP)
            out.append(pts + [tip, (-40, MAP_H + 40), (-40, -40), (pts[0][0], -40)])
        elif name == "gulf_coast":
            out.append(pts + [(MAP_W + 40, pts[-1][1]), (MAP_W + 40, MAP_H + 40), (pts[0][0] - 6, MAP_H + 40)])
        elif pts[0] == pts[-1]:
            out.append(pts)
    return out


def inlets(layout: BoardLayout) -> list[list[Point]]:
    """Open water lines that are neither a coast nor closed: a sound, drawn as a wide line."""
    return [list(pts) for name, pts in layout.water.items()
            if name not in ("pacific_coast", "gulf_coast") and pts[0] != pts[-1]]


# --- the cities ---------------------------------------------------------------------------------------
def _in_polygon(p: Point, poly: list[Point]) -> bool:
    x, y = p
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y):
            if x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
    return inside


def _water_polygons(board: SantaFeMap) -> list[list[Point]]:
    """The sea and lakes as closed polygons in (unwarped) pixels, to keep cities on land."""
    polys = []
    for line in board.water:
        pts = [lonlat_xy(board, lon, lat) for lon, lat in line.points]
        if line.name == "pacific_coast":
            # the ocean: west of the coast, closed through the board's west edge
            last = lonlat_xy(board, *BAJA_TIP)
            pts = pts + [last, (-50, MAP_H + 50), (-50, -50), (pts[0][0], -50)]
        elif line.name == "gulf_coast":
            pts = pts + [(MAP_W + 50, pts[-1][1]), (MAP_W + 50, MAP_H + 50), (pts[0][0], MAP_H + 50)]
        elif pts[0] != pts[-1]:
            continue  # an open inlet (a sound) is drawn as a line, not a barrier
        polys.append(pts)
    return polys


def _relax(board: SantaFeMap, start: list[Point]) -> list[Point]:
    """Push cities apart until each pair has room; a city never moves into water.

    Nearly coincident cities separate along their real bearing (San Francisco stays west of
    Oakland); a city whose move would put it in the sea stays and the other one moves."""
    water = _water_polygons(board)
    need: dict[tuple[int, int], float] = {}
    for (a, b), sec in zip(board.ends, board.sections):
        key = (min(a, b), max(a, b))
        room = 2 * END_TRIM + sec.spaces * MIN_SPACE + (sec.spaces - 1) * SPACE_GAP
        need[key] = max(need.get(key, 0.0), room)
    pos = [list(p) for p in start]
    n = len(pos)

    def wet(p) -> bool:
        return any(_in_polygon(p, poly) for poly in water)

    for step in range(RELAX_STEPS):
        moved = False
        for i in range(n):
            for j in range(i + 1, n):
                want = need.get((i, j), MIN_OTHER)
                dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                d = math.hypot(dx, dy)
                if d >= want - 0.5:
                    continue
                if d < want * 0.4:  # too close to trust the current bearing: use the real one
                    dx, dy = start[j][0] - start[i][0], start[j][1] - start[i][1]
                    norm = math.hypot(dx, dy) or 1.0
                    ux, uy = dx / norm, dy / norm
                else:
                    ux, uy = dx / d, dy / d
                push = (want - d) * 0.3
                pi = (pos[i][0] - ux * push, pos[i][1] - uy * push)
                pj = (pos[j][0] + ux * push, pos[j][1] + uy * push)
                mi, mj = not wet(pi), not wet(pj)
                if mi and not mj:
                    pi = (pos[i][0] - ux * push * 2, pos[i][1] - uy * push * 2)
                elif mj and not mi:
                    pj = (pos[j][0] + ux * push * 2, pos[j][1] + uy * push * 2)
                if mi:
                    pos[i] = list(pi)
                if mj:
                    pos[j] = list(pj)
                moved = moved or mi or mj
        if not moved:
            break
    return [(x, y) for x, y in pos]


class _Warp:
    """Moves any point by a smooth blend of the moves of the cities near it. Cities that did not
    move hold the land round them still, so the land between a moved city and an unmoved one
    stretches (the bay between San Francisco and Oakland widens)."""

    def __init__(self, before: list[Point], after: list[Point]) -> None:
        self.items = [(b, (a[0] - b[0], a[1] - b[1])) for b, a in zip(before, after)]

    def __call__(self, p: Point) -> Point:
        total_w, sx, sy = 0.0, 0.0, 0.0
        for (bx, by), (mx, my) in self.items:
            d2 = (p[0] - bx) ** 2 + (p[1] - by) ** 2
            w = math.exp(-d2 / (2 * WARP_SIGMA * WARP_SIGMA))
            if w < 1e-4:
                continue
            total_w += w
            sx += w * mx
            sy += w * my
        if total_w == 0:
            return p
        scale = 1 / (total_w + 0.02)  # far from every city the shift fades to nothing
        return p[0] + sx * scale, p[1] + sy * scale


COAST_MARGIN = 17.0  # a city stays at least this far inland from a coast as drawn
MIN_WATER = 56.0  # a bay smaller than this across is drawn this big, or it would be a speck


def _at_least(ring: list[Point], size: float) -> list[Point]:
    """The ring scaled up about its centre until it is `size` across (never scaled down)."""
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    across = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
    if across >= size or across == 0:
        return ring
    f = size / across
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    return [(cx + (x - cx) * f, cy + (y - cy) * f) for x, y in ring]


def _keep_inland(name: str, pts: list[Point], cities: list[Point]) -> list[Point]:
    """Dent a coast (or ring a bay or lake) away from any city that ended up too close to it or
    beyond it: the Pacific is west of its coast, the Gulf south of its coast."""
    out = []
    m = COAST_MARGIN
    for x, y in pts:
        for cx, cy in cities:
            if name == "pacific_coast":
                dy = y - cy
                if abs(dy) < m and x > cx - math.sqrt(m * m - dy * dy):
                    x = cx - math.sqrt(m * m - dy * dy)
            elif name == "gulf_coast":
                dx = x - cx
                if abs(dx) < m and y < cy + math.sqrt(m * m - dx * dx):
                    y = cy + math.sqrt(m * m - dx * dx)
            else:
                d = math.hypot(x - cx, y - cy)
                if d < m:
                    f = m / (d or 1.0)
                    x, y = cx + (x - cx) * f, cy + (y - cy) * f
        out.append((x, y))
    return out


def _densify(points: list[Point], step: float = 6.0) -> list[Point]:
    out = [points[0]]
    for p, q in zip(points, points[1:]):
        k = max(1, int(math.dist(p, q) / step))
        for i in range(1, k + 1):
            out.append((p[0] + (q[0] - p[0]) * i / k, p[1] + (q[1] - p[1]) * i / k))
    return out


def smooth(points: list[Point], rounds: int = 3, closed: bool = False) -> list[Point]:
    """Chaikin corner cutting: a hand-drawn curve through a coarse polyline (ends kept)."""
    pts = list(points)
    for _ in range(rounds):
        if len(pts) < 3:
            return pts
        out = [] if closed else [pts[0]]
        ring = pts + [pts[0]] if closed else pts
        for p, q in zip(ring, ring[1:]):
            out.append((0.75 * p[0] + 0.25 * q[0], 0.75 * p[1] + 0.25 * q[1]))
            out.append((0.25 * p[0] + 0.75 * q[0], 0.25 * p[1] + 0.75 * q[1]))
        if not closed:
            out.append(pts[-1])
        pts = out
    return pts


# --- paths ---------------------------------------------------------------------------------------------
def _spaces(path: list[Point], count: int) -> list[Space]:
    return [Space(center=c, angle=angle, length=length)
            for c, angle, length in segments(path, count, END_TRIM, SPACE_GAP, MAX_SPACE, min_len=6.0)]


@lru_cache(maxsize=1)
def board_layout() -> BoardLayout:
    """The West's geometry (pydantic maps are not hashable, so the map is the bundled one)."""
    board = west()
    home = [lonlat_xy(board, c.lon, c.lat) for c in board.cities]
    cities = _relax(board, home)
    warp = _Warp(home, cities)

    def line(points, step=6.0) -> list[Point]:
        return [warp(p) for p in _densify([lonlat_xy(board, lon, lat) for lon, lat in points], step)]

    rivers = tuple(tuple(smooth(line(r.points, 14.0), 3)) for r in board.rivers)
    ranges = tuple(tuple(smooth(line(r.points, 14.0), 2)) for r in board.ranges)
    water: dict[str, tuple[Point, ...]] = {}
    for w in board.water:
        closed = tuple(w.points[0]) == tuple(w.points[-1])
        if closed:  # a ring (a bay, a lake): smoothed all round, first point repeated at the end
            pts = _at_least(smooth(line(w.points, 8.0)[:-1], 2, closed=True), MIN_WATER)
            pts = _keep_inland(w.name, pts, cities)
            pts = pts + pts[:1]
        else:
            pts = _keep_inland(w.name, smooth(line(w.points, 8.0), 2), cities)
        water[w.name] = tuple(pts)
    borders = (tuple(line(_CANADA, 20.0)), tuple(line(_MEXICO, 10.0)))
    foreign = _foreign(board, line, rivers)

    shapes: list[SectionShape | None] = [None] * len(board.sections)
    done: set[int] = set()
    for sid, sec in enumerate(board.sections):
        if sid in done:
            continue
        ia, ib = board.ends[sid]
        a, b = cities[ia], cities[ib]
        twin = board.twin[sid]
        others = [p for k, p in enumerate(cities) if k not in (ia, ib)]
        clearance = CLEARANCE + (DOUBLE_OFFSET if twin >= 0 else 0)
        centre = curve(a, b, bend_for(a, b, others, clearance), 40)
        if twin < 0:
            shapes[sid] = SectionShape(sid, tuple(centre), tuple(_spaces(centre, sec.spaces)))
            done.add(sid)
            continue
        first, second = sorted((sid, twin))
        for k, off in ((first, -DOUBLE_OFFSET), (second, DOUBLE_OFFSET)):
            path = offset(centre, off)
            shapes[k] = SectionShape(k, tuple(path), tuple(_spaces(path, board.sections[k].spaces)))
        done.update((first, second))
    return BoardLayout(cities=tuple(cities), sections=tuple(s for s in shapes if s is not None), rivers=rivers,
                       ranges=ranges, water=water, borders=borders, foreign=foreign)


def _foreign(board: SantaFeMap, line, rivers: tuple[tuple[Point, ...], ...]) -> tuple[tuple[Point, ...], ...]:
    """Canada (north of 49°) and Mexico (south of the border and the Rio Grande) as polygons."""
    canada_south = line([(-140.0, 49.0), (-60.0, 49.0)], 40.0)
    canada = tuple(canada_south + [(MAP_W + 60, -60), (-60, -60)])
    border = line([(-118.0, 32.6)] + _MEXICO, 10.0)
    # from El Paso down to the Gulf the Rio Grande is the border: follow the river as drawn
    names = [r.name for r in board.rivers]
    tail: list[Point] = []
    if "Rio Grande" in names:
        rio = rivers[names.index("Rio Grande")]
        k = min(range(len(rio)), key=lambda i: math.dist(rio[i], border[-1]))
        tail = list(rio[k:])
    last = tail[-1] if tail else border[-1]
    mexico = tuple(border + tail + [(last[0], MAP_H + 60), (-60, MAP_H + 60), (-60, border[0][1])])
    return (canada, mexico)
