"""Where pieces stand on a Catan Express board and the room they may take: an intersection's
building, its locomotives along its one vertical edge (where no rail runs), a locomotive at a hex
centre, the ferries of two owners side by side on a ferry edge, and a stop's ring.

The board draws the pieces at these places (render/catan_express/board.py). Harbour labels are
drawn once with the empty map and never move, so they keep off `piece_room`, every place any
piece of any seat may ever take near the sea, whatever the game; and the map's scale leaves room
in the image for the part of it that lies over the sea (render/catan_express/layout.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from games.catan_express.geo import Geo
from games.core.hexgrid import Corner, Hex
from render.catan_express.sizes import (BUILDING_R, LOCO_AT_CENTRE, LOCO_BESIDE_BUILDING, LOCO_H, LOCO_OFF,
                                         LOCO_PITCH, LOCO_W, POINT_R, STOP_R, ferry_pitch)
from render.kit.geometry import Box, Point, band, bounds_of, boxes_meet, polygon_meets_box
from render.kit.hexgrid import HexLayout


def points_up(lay: HexLayout, corner: Corner) -> bool:
    """Whether the intersection's one vertical edge goes up from it: where two of the three hexes
    meeting there lie above it (the edge runs between those two; the spoke to the third hex's
    centre runs down)."""
    y = lay.corner_point(corner)[1]
    return sum(1 for h in corner.hexes() if lay.center(h)[1] < y) >= 2


INLAND_RIGHT, INLAND_LEFT, BOTH_WAYS, AT_SEA = 1, -1, 0, 2


def loco_row(lay: HexLayout, corner: Corner, land: frozenset[Hex]) -> int:
    """How several locomotives at one intersection line up beside the first. Where the vertical
    edge is a coast, towards the land (INLAND_RIGHT or INLAND_LEFT), so only the first stands
    over the sea; between two land hexes (BOTH_WAYS) or two sea hexes (AT_SEA) both ways. The
    room `piece_room` keeps over the sea is one locomotive wide beside a coast, two at sea."""
    xy = lay.corner_point(corner)
    up = points_up(lay, corner)
    sides = [h for h in corner.hexes() if (lay.center(h)[1] < xy[1]) == up]  # the two along the edge
    wet = [h not in land for h in sides]
    if wet[0] == wet[1]:
        return AT_SEA if wet[0] else BOTH_WAYS
    dry = sides[wet.index(False)]
    return INLAND_RIGHT if lay.center(dry)[0] > xy[0] else INLAND_LEFT


def loco_offsets(count: int, row: int) -> list[float]:
    """Sideways offsets of `count` locomotives at one place (see loco_row). Two side by side
    overlap by a boiler's length, each cab with its seat's shape showing (the board draws them
    right to left); more squeeze into the width of two, so that a row beside a coast covers no
    more of the hex inland than two would (the token stays readable) and a row at sea keeps to
    its room."""
    pitch = LOCO_PITCH if count <= 2 else LOCO_PITCH / (count - 1)
    if row in (INLAND_RIGHT, INLAND_LEFT):
        return [row * k * pitch for k in range(count)]
    return [(k - (count - 1) / 2) * pitch for k in range(count)]


def loco_spot(xy: Point, up: bool, built: bool, s: float) -> Point:
    """A locomotive's centre along its intersection's vertical edge, where no rail runs
    (further out beside a building), but never over the number at the edge's far end: on a
    small map it rather covers the top of its own building."""
    dy = LOCO_OFF * (LOCO_BESIDE_BUILDING if built else 1.0)
    dy = min(dy, s - POINT_R - LOCO_H / 2 + 2)
    return xy[0], xy[1] + (-dy if up else dy)


def centre_loco_spot(c: Point, s: float) -> Point:
    return c[0] + s * LOCO_AT_CENTRE, c[1]


def building_box(xy: Point) -> Box:
    """Round the largest building (a city: a tower left, a house right) at an intersection."""
    x, y = xy
    u = BUILDING_R
    return x - u - 2, y - 1.2 * u - 2, x + u + 2, y + 0.75 * u + 2


@dataclass(frozen=True)
class Room:
    """Where a piece may be drawn: a box, a disc or a convex polygon, with the intersection it
    belongs to (None for a ferry edge or a hex centre)."""

    kind: str                      # "box" | "disc" | "poly"
    points: tuple[Point, ...]      # box: two corners; disc: the centre; poly: the corners
    radius: float = 0.0
    owner: Corner | None = None
    soft: bool = False             # a label should keep off it, but may lie there if nothing else fits

    @property
    def bounds(self) -> Box:
        if self.kind == "disc":
            (x, y), r = self.points[0], self.radius
            return x - r, y - r, x + r, y + r
        return bounds_of(self.points)

    def hits(self, box: Box) -> bool:
        """Whether this shape and the box share any area."""
        if not boxes_meet(self.bounds, box):
            return False
        if self.kind == "box":
            return True
        if self.kind == "disc":
            (x, y), r = self.points[0], self.radius
            dx = max(box[0] - x, 0.0, x - box[2])
            dy = max(box[1] - y, 0.0, y - box[3])
            return dx * dx + dy * dy < r * r
        return polygon_meets_box(self.points, box)

    def draw(self, d: ImageDraw.ImageDraw) -> None:
        if self.kind == "box":
            d.rectangle(self.bounds, fill=255)
        elif self.kind == "disc":
            d.ellipse(self.bounds, fill=255)
        else:
            d.polygon(self.points, fill=255)


def piece_room(lay: HexLayout, geo: Geo) -> list[Room]:
    """Every place a piece of any seat may be drawn near the sea: per intersection the largest
    building (a city), the first locomotive along its vertical edge (beside a building or not;
    two where the edge runs between two sea hexes, see loco_row) and a stop's ring (`soft`: a
    game has only a few stops, so a label in a narrow channel may lie under one; the board puts
    the stop's badge and towers over land where it can); per ferry edge the ferries of two
    owners side by side; per land hex a locomotive at its centre."""
    graph = geo.graph
    rooms: list[Room] = []
    for c in graph.intersections:
        xy = x, y = lay.corner_point(c)
        b = building_box(xy)
        rooms.append(Room("box", (b[:2], b[2:]), owner=c))
        rooms.append(Room("disc", (xy,), STOP_R + 1, owner=c, soft=True))
        up = points_up(lay, c)
        near, far = loco_spot(xy, up, False, lay.size), loco_spot(xy, up, True, lay.size)
        top, bottom = min(near[1], far[1]) - LOCO_H / 2 - 1, max(near[1], far[1]) + LOCO_H / 2 + 1
        # Where several line up over open sea on both sides, keep room for two.
        half = LOCO_W / 2 + (LOCO_PITCH / 2 if loco_row(lay, c, graph.land) == AT_SEA else 0.0)
        rooms.append(Room("box", ((x - half - 1, top), (x + half + 1, bottom)), owner=c))
    for h in graph.centres:
        x, y = centre_loco_spot(lay.center(h), lay.size)
        rooms.append(Room("box", ((x - LOCO_W / 2 - 1, y - LOCO_H / 2 - 1), (x + LOCO_W / 2 + 1, y + LOCO_H / 2 + 1))))
    cw, pitch = ferry_pitch(lay.size)
    for e in graph.ferry_edges:
        a, b = lay.edge_points(e)
        rooms.append(Room("poly", band(a, b, cw / 2 + pitch / 2 + 1)))
    return rooms
