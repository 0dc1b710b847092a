"""Names next to map points (city dots, markers), placed where they cover the least.

The renderer paints an `Occupancy` image (mode "L", one pixel per map pixel) with what a
name should not cover, each thing at its level: TRACK (a name over track is tolerable),
MARK (dots, markers, pips: much worse) and NAME (names already placed, legends: worst).
`place_names` then takes the names one by one, most crowded point first (so the cramped
cities pick before their roomy neighbours take the good spots), tries the spots around the
point in order of preference, and keeps the cheapest: a fixed price per step down the
preference list plus a price per covered pixel of each level. Each chosen box is painted
onto the occupancy image as NAME, so later names avoid it.

What differs between boards — how far from the point a name sits, which side is tried
first, the prices, what "crowded" means — are parameters, never a game's name.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Hashable, Literal, Mapping, Sequence

from PIL import Image, ImageDraw

from render.kit.text import measure

# Levels painted on the occupancy image (distinct histogram bins; only their costs matter).
TRACK = 1
MARK = 4
NAME = 8
OFF_MAP = float("inf")  # the price of a spot that runs off the map: taken only when nothing else is left

Point = tuple[float, float]
Box = tuple[int, int, int, int]
Diagonal = Literal["ne", "se", "nw", "sw"]


@dataclass(frozen=True)
class Spots:
    """Where a w × h name may stand around its point, and in which order to try them:

    1. level with the point, right then left, `side` pixels away;
    2. centred on the point, on the `first` vertical side, then the other;
    3. slid along those two rows (the point a quarter, three quarters, then at either end
       of the name);
    4. right then left again, raised and lowered by `shift` × the name's height;
    5. the four diagonals, `diagonal` × `side` out on both axes, in `corners` order.
    """

    side: float  # point to the near end of a name on its right or left
    above: float  # point up to the bottom of a name above it
    below: float  # point down to the top of a name below it
    first: Literal["above", "below"] = "above"
    shift: float = 0.5
    diagonal: float = 0.7
    corners: tuple[Diagonal, ...] = ("ne", "se", "nw", "sw")

    def candidates(self, x: float, y: float, w: float, h: float) -> list[Point]:
        """Top-left corners for a w × h name next to the point (x, y), most natural first."""
        right, left = x + self.side, x - self.side - w
        above, below = y - self.above - h, y + self.below
        mid = y - h / 2
        near, far = (above, below) if self.first == "above" else (below, above)
        spots = [(right, mid), (left, mid), (x - w / 2, near), (x - w / 2, far)]
        for f in (0.25, 0.75, 0.0, 1.0):
            spots += [(x - w * f, near), (x - w * f, far)]
        for dy in (-self.shift, self.shift):
            spots += [(right, mid + dy * h), (left, mid + dy * h)]
        d = self.side * self.diagonal
        for corner in self.corners:
            spots.append((x + d if corner[1] == "e" else x - d - w, y - d - h if corner[0] == "n" else y + d))
        return spots


@dataclass(frozen=True)
class Label:
    """One name to place: its key in the result, the point it names, its box size, and where it
    may stand: one Spots, or several tried in turn (nearer rings first)."""

    key: Hashable
    point: Point
    width: float
    height: float
    spots: Spots | tuple[Spots, ...]

    def candidates(self) -> list[Point]:
        rings = self.spots if isinstance(self.spots, tuple) else (self.spots,)
        x, y = self.point
        return [spot for ring in rings for spot in ring.candidates(x, y, self.width, self.height)]


@dataclass(frozen=True)
class RoundLabel(Label):
    """A name's spots: the usual ones (`spots`), then all round its point farther out, for a point
    crowded on every side: rings at `distances` × `unit` pixels between the box and the point
    (ring_offsets)."""

    unit: int = 0
    distances: tuple[float, ...] = ()

    def candidates(self) -> list[Point]:
        x, y = self.point
        w, h = self.width, self.height
        return [*super().candidates(), *((x + dx - w / 2, y + dy - h / 2)
                                         for dx, dy in ring_offsets(round(w), round(h), self.unit, self.distances))]


# Rays every 15°, right, left, below and above first, then the diagonals between.
RAY_ANGLES = (0, 180, 90, 270, 30, 150, 330, 210, 60, 120, 300, 240, 15, 165, 345, 195, 45, 135, 315, 225, 75, 105,
              285, 255)


@lru_cache(maxsize=512)
def ring_offsets(w: int, h: int, unit: int, distances: tuple[float, ...]) -> tuple[Point, ...]:
    """Where a w × h name's centre may go round its point, nearest first: on each ray of
    RAY_ANGLES, at each distance (× `unit`) between the box's nearest edge and the point."""
    out = []
    for reach in distances:
        d = reach * unit
        for a in RAY_ANGLES:
            ux, uy = math.cos(math.radians(a)), math.sin(math.radians(a))
            lo, hi = 0.0, d + w + h
            for _ in range(18):  # the box's distance from the point grows with k: halve to d
                k = (lo + hi) / 2
                gap_x, gap_y = max(abs(k * ux) - w / 2, 0), max(abs(k * uy) - h / 2, 0)
                lo, hi = (k, hi) if gap_x * gap_x + gap_y * gap_y < d * d else (lo, k)
            out.append((hi * ux, hi * uy))
    return tuple(out)


@dataclass(frozen=True)
class Prices:
    """What a spot costs: `rank` per step down the preference list, `covered[level]` per
    pixel of that level under the name. `crowd` is the half-size (dx, dy) of the window in
    which other points make a point crowded (the crowded place their names first)."""

    rank: float
    covered: Mapping[int, float]
    crowd: tuple[float, float]


class Occupancy:
    """The occupancy image of a map (mode "L", one pixel per map pixel) and the shapes a
    renderer paints on it, each at a level (TRACK, MARK, NAME; later paint wins)."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("L", size, 0)
        self._draw = ImageDraw.Draw(self.image)

    def polygon(self, points: Sequence[Point], level: int) -> None:
        self._draw.polygon(points, fill=level)

    def disc(self, center: Point, radius: float, level: int) -> None:
        x, y = center
        self._draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=level)

    def box(self, box: Sequence[float], level: int) -> None:
        self._draw.rectangle(box, fill=level)


def box_distance(box: Box, point: Point) -> float:
    """How far a point is from a box (0 inside it)."""
    dx = max(box[0] - point[0], 0, point[0] - box[2])
    dy = max(box[1] - point[1], 0, point[1] - box[3])
    return (dx * dx + dy * dy) ** 0.5


def nearest_to(box: Box, point: Point, points: Sequence[Point]) -> bool:
    """Whether the box is nearer `point` than any other of `points`, so it reads as that
    point's name."""
    own = box_distance(box, point)
    return all(box_distance(box, p) > own for p in points if p != point)


def label_size(text: str, size: int, halo: int, bold: bool = True) -> tuple[float, float]:
    """The box of a name drawn with a `halo`-pixel outline: text width plus the halo on both
    ends; the height also keeps 2 px so descenders stay inside."""
    return measure(text, size, bold=bold)[0] + 2 * halo, size + 2 * halo + 2


def place_names(occupied: Occupancy, labels: Sequence[Label], prices: Prices, pad: float,
                margin: tuple[int, int, int, int] = (4, 4, 6, 4),
                own_nearest: bool = False) -> dict[Hashable, tuple[Point, Box]]:
    """A spot for every label; per key, the text's left-middle anchor (`pad` in from the box's
    left, for the halo) and the box it covers.

    A box closer than `margin` (left, top, right, bottom) to the occupancy image's edges is
    off the map, taken only when every spot is. Paints every chosen box onto `occupied` as NAME.
    With
    `own_nearest`, a box nearer another label's point than its own is never taken unless every
    spot is (it would name the wrong place). Ties go to the earlier spot, and equally crowded
    labels keep their given order, so the result is reproducible.
    """
    width, height = occupied.image.size
    cx, cy = prices.crowd
    points = [label.point for label in labels]

    def crowding(label: Label) -> int:
        x, y = label.point
        return sum(1 for (ox, oy) in points if abs(ox - x) < cx and abs(oy - y) < cy)

    out: dict[Hashable, tuple[Point, Box]] = {}
    for label in sorted(labels, key=lambda item: -crowding(item)):  # crowded points choose first
        x, y = label.point
        w, h = label.width, label.height
        best = None
        for rank, (left, top) in enumerate(label.candidates()):
            box = (int(left), int(top), int(left + w) + 1, int(top + h) + 1)
            if box[0] < margin[0] or box[1] < margin[1] or box[2] > width - margin[2] or box[3] > height - margin[3]:
                cost = (OFF_MAP, rank)  # off the map: only if every spot is
            elif own_nearest and not nearest_to(box, label.point, points):
                cost = (OFF_MAP / 2, rank)
            else:
                hist = occupied.image.crop(box).histogram()
                cost = (0, rank * prices.rank + sum(hist[level] * price for level, price in prices.covered.items()))
            if best is None or cost < best[0]:
                best = (cost, box)
        _, box = best
        occupied.box(box, NAME)
        out[label.key] = ((box[0] + pad, (box[1] + box[3]) / 2), box)
    return out
