"""Where things are on a Catan Express board image: the pointy-top hex grid of a map in pixels at
its scale, every named point (intersection numbers, hex centres) and every piece (spokes, ferry
edges), and each harbour's label for a board and language.

Scale
    The image is BOARD_W wide whatever the map, and the smallest type (MIN_TEXT) and the pieces
    are fixed in pixels (render/catan_express/sizes.py), so the larger the hexes, the less the
    names, tokens and pieces crowd one another. The scale is the largest at which everything the
    map can ever show fits that width with MARGIN to spare: the land, the room a piece on the
    coast may take in the sea (a city, a stop's ring, a locomotive beside its intersection,
    ferries of two owners side by side: render/catan_express/room.py) and the harbour labels
    (render/catan_express/harbours.py), each place's at its kept spot. Sea that can carry nothing
    is cut off.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from games.catan_express.geo import Geo, board_for, geo_of
from games.catan_express.map import Board, LayoutKey, board_from_key
from games.core.hexgrid import Hex, Orientation
from render.catan_express.harbours import Field, HarbourLabel, Pick, board_labels, kept_spots
from render.catan_express.room import loco_row, points_up
from render.catan_express.sizes import BOARD_W
from render.kit.geometry import Point, union
from render.kit.hexgrid import HexLayout

MARGIN = 8


@dataclass(frozen=True)
class MapLayout:
    """A map at its scale: its hex grid in pixels, the size of the map area and each harbour
    place's kept spot."""

    map_id: str
    hexes: HexLayout
    size: tuple[int, int]          # the map area
    harbours: tuple[Pick, ...] = ()   # per harbour place (the map file's order): a spot that fits any label

    @property
    def s(self) -> float:
        return self.hexes.size

    def center(self, h: Hex) -> Point:
        return self.hexes.center(h)


@lru_cache(maxsize=8)
def map_layout(map_id: str) -> MapLayout:
    """The largest scale at which the land, the pieces' room and the kept spots fit BOARD_W."""
    board = board_for(map_id, "beginner", 0)  # the shape and harbour places are the same for every layout
    geo = geo_of(board)
    land = [x.hex for x in board.land]
    x0, _, x1, _ = HexLayout(1.0, (0.0, 0.0), Orientation.POINTY).bounds(land)
    room = BOARD_W - 2 * MARGIN
    s = room / (x1 - x0)
    for _ in range(40):
        # A field big enough for labels anywhere near the land: the image is cut from it after.
        pad = 3 * s + 150
        core = Field(HexLayout(s, (0.0, 0.0), Orientation.POINTY), board, geo, (1, 1)).core
        lay = HexLayout(s, (pad - core[0], pad - core[1]), Orientation.POINTY)
        field = Field(lay, board, geo, (math.ceil(core[2] - core[0] + 2 * pad), math.ceil(core[3] - core[1] + 2 * pad)))
        picks = kept_spots(field, board.harbours)
        if picks is None:
            raise ValueError(f"Catan Express map {map_id}: a harbour label finds no clear spot at scale {s:.1f}")
        bx0, by0, bx1, by1 = union([field.core, *(p.box for p in picks)])
        width = bx1 - bx0
        if width <= room:
            break
        # The land grows with the scale, the labels and pieces do not: aim at the scale at
        # which this much overhang fits (a little under, so that it settles).
        overhang = width - (x1 - x0) * s
        s = min(s * 0.998, (room - overhang) / (x1 - x0))
    else:
        raise ValueError(f"Catan Express map {map_id}: no scale fits the board's width")
    dx, dy = (BOARD_W - width) / 2 - bx0, MARGIN - by0
    origin = (lay.origin[0] + dx, lay.origin[1] + dy)
    height = math.ceil(by1 - by0 + 2 * MARGIN)
    return MapLayout(map_id, HexLayout(s, origin, Orientation.POINTY), (BOARD_W, height),
                     tuple(p.moved(dx, dy) for p in picks))


@lru_cache(maxsize=8)
def map_field(map_id: str) -> Field:
    """The map's field at its final scale, the size of the map area."""
    ml = map_layout(map_id)
    board = board_for(map_id, "beginner", 0)
    return Field(ml.hexes, board, geo_of(board), ml.size)


class Places:
    """Pixel positions of a board's named points and pieces (names as the state writes them)."""

    def __init__(self, board: Board, ml: MapLayout) -> None:
        self.board = board
        self.ml = ml
        self.geo: Geo = geo_of(board)
        graph = self.geo.graph
        self.points: dict[str, Point] = {}
        for n in self.geo.intersections:
            self.points[str(n)] = ml.hexes.corner_point(graph.intersection(n))
        for h in graph.centres:
            self.points[graph.name(h)] = ml.center(h)
        self._labels: dict[str, list[HarbourLabel]] = {}

    def xy(self, point: int | str) -> Point | None:
        return self.points.get(str(point))

    def is_point(self, name: str) -> bool:
        return str(name) in self.points

    def piece_ends(self, piece: str) -> tuple[Point, Point] | None:
        ends = self.geo.ends.get(piece)
        if ends is None:
            return None
        return self.points[ends[0]], self.points[ends[1]]

    def kind(self, piece: str) -> str | None:
        return self.geo.kind.get(piece)

    def loco_up(self, n: int) -> bool:
        return points_up(self.ml.hexes, self.geo.graph.intersection(n))

    def loco_row(self, n: int) -> int:
        return loco_row(self.ml.hexes, self.geo.graph.intersection(n), self.board.land_hexes)

    def harbour_labels(self, lang: str) -> list[HarbourLabel]:
        """Each harbour's label with this board's kinds in this language, where it is drawn."""
        if lang not in self._labels:
            self._labels[lang] = board_labels(map_field(self.ml.map_id), self.board, self.ml.harbours, lang)
        return self._labels[lang]


BoardKey = tuple[str, LayoutKey]  # a map and a board laid out on it


@lru_cache(maxsize=16)
def places(map_id: str, layout: LayoutKey) -> Places:
    """The places of a board laid out on a map, by the layout's key (maps.BoardLayout.key)."""
    return Places(board_from_key(map_id, layout), map_layout(map_id))
