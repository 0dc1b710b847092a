"""Pixels for hex maps: where a hex, a corner or an edge of games/core/hexgrid is drawn.

`HexLayout` is the one place that knows the orientation, the hex size and where hex (0, 0)
is; the rules' names (Hex, Corner, Edge, side numbers) go in, image points come out. The
numbering is the core's: side d faces 60°·d (pointy-top) or 30° + 60°·d (flat-top),
clockwise from east with y pointing down, and side d runs from corner d to corner d + 1.

Corner points are always computed from the canonical Corner, whichever hex asks, so the
hexes that share a corner get the very same float and their outlines meet without a
hairline gap or a one-pixel step.

Anti-aliasing follows the other renderers: draw a static layer at SS× with
`layout.scaled(SS)` and line widths × SS, then `resize(size, Image.Resampling.BOX)`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable

from games.core.hexgrid import Corner, Edge, Hex, Orientation
from render.kit.shapes import _draw

Point = tuple[float, float]
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class HexLayout:
    """Hex geometry on an image: `size` is centre-to-corner (= side length) in pixels and
    `origin` is the pixel centre of Hex(0, 0)."""

    size: float
    origin: Point = (0.0, 0.0)
    orientation: Orientation = Orientation.POINTY

    @property
    def pointy(self) -> bool:
        return self.orientation == Orientation.POINTY

    # --- hex <-> pixel -----------------------------------------------------------------------------
    def center(self, h: Hex) -> Point:
        s, (ox, oy) = self.size, self.origin
        if self.pointy:
            return ox + s * SQRT3 * (h.q + h.r / 2), oy + s * 1.5 * h.r
        return ox + s * 1.5 * h.q, oy + s * SQRT3 * (h.r + h.q / 2)

    def hex_at(self, point: Point) -> Hex:
        """The hex whose area holds `point` (the inverse of `center`, rounded in cube
        coordinates: rounding q and r alone picks the wrong hex near the corners)."""
        x, y = (point[0] - self.origin[0]) / self.size, (point[1] - self.origin[1]) / self.size
        if self.pointy:
            fq, fr = SQRT3 / 3 * x - y / 3, 2 / 3 * y
        else:
            fq, fr = 2 / 3 * x, -x / 3 + SQRT3 / 3 * y
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        # The coordinate that moved most is the one to rebuild from the other two.
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return Hex(q, r)

    # --- corners, edges, polygons ------------------------------------------------------------------
    def corner_angle(self, index: int) -> float:
        """Degrees clockwise from east (y down) of corner `index` seen from the hex centre."""
        return 60.0 * index - (30.0 if self.pointy else 0.0)

    def side_angle(self, side: int) -> float:
        """Degrees clockwise from east (y down) of the direction side `side` faces."""
        return 60.0 * side + (0.0 if self.pointy else 30.0)

    def corner_point(self, corner: Corner) -> Point:
        cx, cy = self.center(corner.hex)
        a = math.radians(self.corner_angle(corner.index))
        return cx + self.size * math.cos(a), cy + self.size * math.sin(a)

    def polygon(self, h: Hex) -> list[Point]:
        """The six corners of `h`, corner 0 first, clockwise."""
        return [self.corner_point(c) for c in h.corners()]

    def edge_points(self, edge: Edge) -> tuple[Point, Point]:
        a, b = edge.corners()
        return self.corner_point(a), self.corner_point(b)

    def edge_midpoint(self, edge: Edge) -> Point:
        """Where track crossing this side meets the neighbour's track."""
        (ax, ay), (bx, by) = self.edge_points(edge)
        return (ax + bx) / 2, (ay + by) / 2

    # --- sizing ------------------------------------------------------------------------------------
    def bounds(self, hexes: Iterable[Hex]) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) around the polygons of `hexes` (outlines not included)."""
        xs, ys = [], []
        for h in hexes:
            for x, y in self.polygon(h):
                xs.append(x)
                ys.append(y)
        if not xs:
            raise ValueError("no hexes to bound")
        return min(xs), min(ys), max(xs), max(ys)

    def scaled(self, factor: float) -> HexLayout:
        """The same picture `factor` times larger (for drawing at the supersampling scale)."""
        return replace(self, size=self.size * factor, origin=(self.origin[0] * factor, self.origin[1] * factor))

    @classmethod
    def fit(cls, hexes: Iterable[Hex], size: float, orientation: Orientation = Orientation.POINTY,
            margin: float = 0.0) -> tuple[HexLayout, tuple[int, int]]:
        """A layout that puts `hexes` `margin` pixels from the top-left, and the image size
        (whole pixels) that holds them with the same margin on the far sides. Outlines are
        centred on the hex boundary: leave at least half their width as margin."""
        hexes = list(hexes)
        x0, y0, x1, y1 = cls(size, (0.0, 0.0), orientation).bounds(hexes)
        layout = cls(size, (margin - x0, margin - y0), orientation)
        return layout, (math.ceil(x1 - x0 + 2 * margin), math.ceil(y1 - y0 + 2 * margin))


def draw_hex(target, layout: HexLayout, h: Hex, fill=None, outline=None, width: int = 1) -> None:
    """One hex on an Image or ImageDraw: filled, then outlined.

    The outline is a closed line centred on the hex's boundary (like shapes.draw_rotated_rect),
    not Pillow's polygon(width=) which draws inside the shape: neighbours then paint the same
    line on their shared side, so inner and outer borders are equally thick.
    """
    d = _draw(target)
    points = layout.polygon(h)
    if fill is not None:
        d.polygon(points, fill=fill)
    if outline is not None:
        d.line(points + points[:1], fill=outline, width=width, joint="curve")
