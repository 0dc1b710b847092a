"""Where things go on the Ticket to Ride board image: pure geometry, computed once.

The map file gives city positions normalised to 0..1. Here they become pixels in the map
area, every route becomes a path (straight, or gently bent when the straight line would
run over a third city), double routes become two parallel paths, and every path is cut
into its train-car spaces: one rotated rectangle per car, as on the printed board.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from games.ticket_to_ride.map import TTRMap, usa
from render.kit.shapes import rotated_rect_points

# --- the canvas ------------------------------------------------------------------------
BOARD_W, BOARD_H = 1800, 1000
MAP_W = 1400  # the map on the left, the sidebar on the right
SIDEBAR_X = MAP_W

# Where the extreme cities land. The city spread is wider than the board's 1.55 aspect
# leaves room for, so y is stretched a little: the crowded north-east gets more room.
_CITY_X = (80.0, 1296.0)
_CITY_Y = (66.0, 930.0)

CITY_R = 10  # city dot radius
CAR_GAP = 4  # space between two cars of a route
CAR_W = 11  # unclaimed car thickness
CLAIMED_W = 18  # claimed cars are thicker and outlined, so they read as "taken"
CLAIMED_OUTLINE = 3
DOUBLE_OFFSET = 9  # each half of a double route sits this far from the centre line
END_TRIM = CITY_R + 5  # cars stop short of the city dot
MAX_CAR = 58  # long gaps between close cities get normal-sized cars, centred
CLEARANCE = 30  # a route passing closer than this to another city is bent away from it

Point = tuple[float, float]


@dataclass(frozen=True)
class Car:
    center: Point
    angle: float  # radians, direction of travel
    length: float

    def corners(self, width: float, extra_length: float = 0.0) -> list[Point]:
        """The four corners of this car drawn `width` thick (and a little longer if asked)."""
        return rotated_rect_points(self.center, self.length + extra_length, width, self.angle)


@dataclass(frozen=True)
class RouteShape:
    route_id: int
    path: tuple[Point, ...]  # polyline the cars follow (offset already applied for doubles)
    cars: tuple[Car, ...]
    unclaimed: tuple[tuple[Point, ...], ...]  # car polygons, unclaimed size
    claimed: tuple[tuple[Point, ...], ...]  # car polygons, claimed size (outer edge)
    claimed_inner: tuple[tuple[Point, ...], ...]  # the coloured inside of a claimed car


@dataclass(frozen=True)
class BoardLayout:
    cities: dict[str, Point]
    routes: tuple[RouteShape, ...]


def city_xy(x: float, y: float, board: TTRMap) -> Point:
    xs = [c.x for c in board.cities]
    ys = [c.y for c in board.cities]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    return (
        _CITY_X[0] + (x - x0) / (x1 - x0) * (_CITY_X[1] - _CITY_X[0]),
        _CITY_Y[0] + (y - y0) / (y1 - y0) * (_CITY_Y[1] - _CITY_Y[0]),
    )


# --- paths -------------------------------------------------------------------------------
def _bend_for(a: Point, b: Point, others: list[Point], clearance: float) -> float:
    """How far (signed, along the left normal) the midpoint control point of a quadratic
    curve from a to b must move so the curve clears every other city by `clearance`."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    bend = 0.0
    for cx, cy in others:
        t = ((cx - ax) * dx + (cy - ay) * dy) / (length * length)
        if not 0.08 < t < 0.92:
            continue
        side = (cx - ax) * nx + (cy - ay) * ny  # signed distance of the city from the line
        if abs(side) >= clearance:
            continue
        # A quadratic curve with control offset k passes 2t(1-t)k from the chord at t.
        need = (clearance + abs(side)) / (2 * t * (1 - t))
        candidate = -need if side > 0 else need
        if abs(candidate) > abs(bend):
            bend = candidate
    return bend


def _curve(a: Point, b: Point, bend: float, samples: int = 48) -> list[Point]:
    if bend == 0.0:
        return [a, b]
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    cx, cy = (a[0] + b[0]) / 2 + nx * bend, (a[1] + b[1]) / 2 + ny * bend
    out = []
    for i in range(samples + 1):
        t = i / samples
        u = 1 - t
        out.append((u * u * a[0] + 2 * u * t * cx + t * t * b[0], u * u * a[1] + 2 * u * t * cy + t * t * b[1]))
    return out


def _offset(path: list[Point], distance: float) -> list[Point]:
    """The polyline moved sideways by `distance` (positive = left of the direction)."""
    if distance == 0:
        return list(path)
    out = []
    n = len(path)
    for i in range(n):
        p, q = path[max(0, i - 1)], path[min(n - 1, i + 1)]
        dx, dy = q[0] - p[0], q[1] - p[1]
        length = math.hypot(dx, dy) or 1.0
        out.append((path[i][0] - dy / length * distance, path[i][1] + dx / length * distance))
    return out


class _Walker:
    """Positions along a polyline by arc length."""

    def __init__(self, path: list[Point]) -> None:
        self.path = path
        self.cum = [0.0]
        for p, q in zip(path, path[1:]):
            self.cum.append(self.cum[-1] + math.hypot(q[0] - p[0], q[1] - p[1]))

    @property
    def total(self) -> float:
        return self.cum[-1]

    def at(self, s: float) -> Point:
        s = min(max(s, 0.0), self.total)
        lo, hi = 0, len(self.cum) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.cum[mid] <= s:
                lo = mid
            else:
                hi = mid
        seg = self.cum[hi] - self.cum[lo] or 1.0
        f = (s - self.cum[lo]) / seg
        p, q = self.path[lo], self.path[hi]
        return (p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f)


def _cars(path: list[Point], count: int) -> list[Car]:
    walk = _Walker(path)
    usable = walk.total - 2 * END_TRIM
    length = min(MAX_CAR, (usable - (count - 1) * CAR_GAP) / count)
    lead = END_TRIM + (usable - count * length - (count - 1) * CAR_GAP) / 2
    cars = []
    for i in range(count):
        start = lead + i * (length + CAR_GAP)
        p, q = walk.at(start), walk.at(start + length)
        cars.append(Car(center=((p[0] + q[0]) / 2, (p[1] + q[1]) / 2),
                        angle=math.atan2(q[1] - p[1], q[0] - p[0]), length=length))
    return cars


def _shape(route_id: int, path: list[Point], count: int) -> RouteShape:
    cars = _cars(path, count)
    return RouteShape(
        route_id=route_id,
        path=tuple(path),
        cars=tuple(cars),
        unclaimed=tuple(tuple(c.corners(CAR_W)) for c in cars),
        claimed=tuple(tuple(c.corners(CLAIMED_W, 2)) for c in cars),
        claimed_inner=tuple(tuple(c.corners(CLAIMED_W - 2 * CLAIMED_OUTLINE, 2 - 2 * CLAIMED_OUTLINE)) for c in cars),
    )


@lru_cache(maxsize=1)
def board_layout() -> BoardLayout:
    """The USA board's geometry (pydantic maps are not hashable, so the map is fixed)."""
    board = usa()
    cities = {c.name: city_xy(c.x, c.y, board) for c in board.cities}
    shapes: list[RouteShape | None] = [None] * len(board.routes)
    done: set[int] = set()
    for route in board.routes:
        if route.id in done:
            continue
        a, b = cities[route.a], cities[route.b]
        twin = board.twin.get(route.id)
        others = [p for name, p in cities.items() if name not in (route.a, route.b)]
        clearance = CLEARANCE + (DOUBLE_OFFSET if twin is not None else 0)
        centre = _curve(a, b, _bend_for(a, b, others, clearance))
        if twin is None:
            shapes[route.id] = _shape(route.id, centre, route.length)
            done.add(route.id)
            continue
        first, second = sorted((route.id, twin))
        shapes[first] = _shape(first, _offset(centre, -DOUBLE_OFFSET), route.length)
        shapes[second] = _shape(second, _offset(centre, DOUBLE_OFFSET), board.routes[second].length)
        done.update((first, second))
    return BoardLayout(cities=cities, routes=tuple(s for s in shapes if s is not None))
