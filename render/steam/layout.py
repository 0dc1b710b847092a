"""Where things are on a Steam board image: the hex grid of a map in pixels, track geometry
inside a hex, and the panel below the map.

The board is BOARD_W wide whatever the map; the map fills that width (its hexes as large as
the width allows) and the panel sits below it, so the smallest type (MIN_TEXT, 7 px tall
when the board is shown 400 px wide) is as large a share of a hex as it can be. Column
letters run along the top and row numbers down the left, since moves name hexes by label
("build C7 22 r3").

Sides and corners follow games/core/hexgrid.py (flat-top: side d faces 30° + 60°·d clockwise
from east), through render/kit/hexgrid.HexLayout.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from games.core.hexgrid import Hex, Orientation, from_offset
from games.steam.derived import map_of
from games.steam.map import SteamMap
from games.steam.tiles import TOWN_SIDE
from render.kit.hexgrid import HexLayout
from render.kit.legibility import min_font_px

Point = tuple[float, float]

BOARD_W = 1360
MIN_TEXT = min_font_px(BOARD_W)   # 24 px: 7 px at 400 px wide
RULER_TOP = MIN_TEXT + 12         # column letters
RULER_LEFT = MIN_TEXT + 16        # row numbers
MARGIN = 10
SAMPLES = 10                      # points per curved track


@dataclass(frozen=True)
class MapLayout:
    """One map's grid in pixels: the HexLayout, the map area's size, and every grid hex
    (off-map ones included, for the rulers)."""

    map_id: str
    hexes: HexLayout
    size: tuple[int, int]          # the map area (rulers included)
    columns: int
    rows: int

    @property
    def s(self) -> float:
        return self.hexes.size

    def center(self, h: Hex) -> Point:
        return self.hexes.center(h)

    def side_mid(self, h: Hex, side: int) -> Point:
        return self.hexes.edge_midpoint(h.edge(side))

    def track_path(self, h: Hex, sides: tuple[int, ...]) -> list[Point]:
        """The points of one track on `h`: side midpoint to side midpoint (a town tile's track
        from its side to the town in the middle). A curve bends through the hex centre's
        pull (a quadratic curve with the centre as control point), so it leaves each side
        square to it, as printed track does."""
        return _track_path(self, h, tuple(sorted(sides)))

    def grid(self) -> list[Hex]:
        return [from_offset(c, r, map_of(self.map_id).offset) for r in range(self.rows) for c in range(self.columns)]


@lru_cache(maxsize=4)
def map_layout(map_id: str) -> MapLayout:
    m: SteamMap = map_of(map_id)
    cols, rows = m.size
    # Flat-top: columns 1.5 s apart, the grid 1.5 s (cols - 1) + 2 s wide.
    s = (BOARD_W - RULER_LEFT - 2 * MARGIN) / (1.5 * (cols - 1) + 2)
    grid = [from_offset(c, r, m.offset) for r in range(rows) for c in range(cols)]
    probe = HexLayout(s, (0.0, 0.0), Orientation.FLAT)
    x0, y0, x1, y1 = probe.bounds(grid)
    origin = (RULER_LEFT + MARGIN - x0, RULER_TOP + MARGIN - y0)
    layout = HexLayout(s, origin, Orientation.FLAT)
    height = math.ceil(y1 - y0 + RULER_TOP + 2 * MARGIN)
    return MapLayout(map_id, layout, (BOARD_W, height), cols, rows)


@lru_cache(maxsize=4096)
def _track_path(ml: MapLayout, h: Hex, sides: tuple[int, ...]) -> list[Point]:
    c = ml.center(h)
    ends = [s for s in sides if s != TOWN_SIDE]
    if len(ends) == 1:  # a town tile's track: from the side to the town
        return [ml.side_mid(h, ends[0]), c]
    a, b = ends
    pa, pb = ml.side_mid(h, a), ml.side_mid(h, b)
    if (a - b) % 6 == 3:
        return [pa, pb]
    out = []
    for i in range(SAMPLES + 1):
        t = i / SAMPLES
        u = 1 - t
        out.append((u * u * pa[0] + 2 * u * t * c[0] + t * t * pb[0], u * u * pa[1] + 2 * u * t * c[1] + t * t * pb[1]))
    return out
