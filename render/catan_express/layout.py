"""Where things are on a Catan Express board image: the pointy-top hex grid of a map in pixels,
every named point (intersection numbers, hex centres) and every piece (spokes, ferry edges).

The image is BOARD_W wide whatever the map; the land (with room round it for the harbours)
fills that width, so the smallest type (MIN_TEXT, 7 px tall when the board is shown 400 px
wide) is as large a share of a hex as it can be. The sea frame beyond the harbours is cut off:
it carries nothing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from games.catan_express.geo import Geo, board_for, geo_of
from games.catan_express.maps import Board
from games.core.hexgrid import Hex, Orientation
from render.kit.hexgrid import HexLayout
from render.kit.legibility import min_font_px

Point = tuple[float, float]

BOARD_W = 1200
MIN_TEXT = min_font_px(BOARD_W)   # 21 px: 7 px at 400 px wide
MARGIN = 8
SEA_ROOM = 0.95                   # hex sizes of sea kept round the land (the harbours sit there)


@dataclass(frozen=True)
class MapLayout:
    map_id: str
    hexes: HexLayout
    size: tuple[int, int]          # the map area

    @property
    def s(self) -> float:
        return self.hexes.size

    def center(self, h: Hex) -> Point:
        return self.hexes.center(h)


@lru_cache(maxsize=8)
def map_layout(map_id: str) -> MapLayout:
    board = board_for(map_id, "beginner", 0)  # the shape is the same for every layout
    land = [x.hex for x in board.land]
    x0, y0, x1, y1 = HexLayout(1.0, (0.0, 0.0), Orientation.POINTY).bounds(land)
    s = (BOARD_W - 2 * MARGIN) / (x1 - x0 + 2 * SEA_ROOM)
    origin = (MARGIN + (SEA_ROOM - x0) * s, MARGIN + (SEA_ROOM - y0) * s)
    height = math.ceil((y1 - y0 + 2 * SEA_ROOM) * s + 2 * MARGIN)
    return MapLayout(map_id, HexLayout(s, origin, Orientation.POINTY), (BOARD_W, height))


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


@lru_cache(maxsize=16)
def places(map_id: str, layout: str, seed: int) -> Places:
    return Places(board_for(map_id, layout, seed), map_layout(map_id))
