"""Where things go on the Ticket to Ride board image: pure geometry, computed once.

The map file gives city positions normalised to 0..1. Here they become pixels in the map
area, every route becomes a path (straight, or gently bent when the straight line would
run over a third city), double routes become two parallel paths, and every path is cut
into its train-car spaces: one rotated rectangle per car, as on the printed board.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.ticket_to_ride.map import TicketToRideMap, usa
from render.kit.geometry import bend_for, curve, offset, segments
from render.kit.shapes import rotated_rect_points

# --- the canvas ------------------------------------------------------------------------
# Players mostly see the board 400 px wide, so every pixel of width counts against the type
# size: the map takes the whole width, with a score strip above it and the face-up row and
# the last turn in a strip below (the status embed beside the image carries the rest).
MAP_W, MAP_H = 1400, 1000
TOP_H = 100  # the players' strip
BOTTOM_H = 136  # face-up row and last turn
BOARD_W = MAP_W
BOARD_H = TOP_H + MAP_H + BOTTOM_H
MAP_Y = TOP_H  # where the map sits on the board

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


def city_xy(x: float, y: float, board: TicketToRideMap) -> Point:
    xs = [c.x for c in board.cities]
    ys = [c.y for c in board.cities]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    return (
        _CITY_X[0] + (x - x0) / (x1 - x0) * (_CITY_X[1] - _CITY_X[0]),
        _CITY_Y[0] + (y - y0) / (y1 - y0) * (_CITY_Y[1] - _CITY_Y[0]),
    )


# --- paths -------------------------------------------------------------------------------
def _cars(path: list[Point], count: int) -> list[Car]:
    return [Car(center=c, angle=angle, length=length)
            for c, angle, length in segments(path, count, END_TRIM, CAR_GAP, MAX_CAR)]


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
        centre = curve(a, b, bend_for(a, b, others, clearance), 48)
        if twin is None:
            shapes[route.id] = _shape(route.id, centre, route.length)
            done.add(route.id)
            continue
        first, second = sorted((route.id, twin))
        shapes[first] = _shape(first, offset(centre, -DOUBLE_OFFSET), route.length)
        shapes[second] = _shape(second, offset(centre, DOUBLE_OFFSET), board.routes[second].length)
        done.update((first, second))
    return BoardLayout(cities=cities, routes=tuple(s for s in shapes if s is not None))
