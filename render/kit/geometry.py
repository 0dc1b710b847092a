"""Plane geometry for boards in pixels.

Polylines, for boards whose tracks run between cities: bent paths, parallel offsets, positions by
arc length, and a path cut into evenly spaced segments.

Boxes and segments, for labels that must keep clear of what a board draws: the bounds of points
and of boxes, whether two boxes, a box and a convex polygon, a box and a segment or two segments
meet, and the band a thick straight line covers. Boxes are axis-aligned (x0, y0, x1, y1); two
shapes that only touch along an edge do not meet, so a label may sit flush against a piece.
"""
from __future__ import annotations

import math
from typing import Iterable

Point = tuple[float, float]
Box = tuple[float, float, float, float]   # x0, y0, x1, y1
Segment = tuple[Point, Point]


def bend_for(a: Point, b: Point, others: list[Point], clearance: float) -> float:
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


def curve(a: Point, b: Point, bend: float, samples: int) -> list[Point]:
    """The quadratic curve from a to b whose control point is `bend` left of the midpoint,
    as `samples` + 1 points (just [a, b] when there is no bend)."""
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


def offset(path: list[Point], distance: float) -> list[Point]:
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


class Walker:
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


def segments(path: list[Point], count: int, trim: float, gap: float, max_len: float,
             min_len: float | None = None) -> list[tuple[Point, float, float]]:
    """`count` equal segments along the path, `gap` apart, centred between points `trim` from
    either end, each at most `max_len` (and at least `min_len`, if given) long.

    Returns (centre, angle in radians along the path, length) per segment, from the start.
    """
    walk = Walker(path)
    usable = walk.total - 2 * trim
    length = min(max_len, (usable - (count - 1) * gap) / count)
    if min_len is not None:
        length = max(min_len, length)
    lead = trim + (usable - count * length - (count - 1) * gap) / 2
    out = []
    for i in range(count):
        start = lead + i * (length + gap)
        p, q = walk.at(start), walk.at(start + length)
        out.append((((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), math.atan2(q[1] - p[1], q[0] - p[0]), length))
    return out


# --- boxes and segments ---------------------------------------------------------------------------
def bounds_of(pts: Iterable[Point]) -> Box:
    """The smallest box holding every point."""
    pts = list(pts)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def union(boxes: Iterable[Box]) -> Box:
    """The smallest box holding every box."""
    boxes = list(boxes)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def boxes_meet(a: Box, b: Box) -> bool:
    """Whether two boxes share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def box_at(centre: Point, size: tuple[float, float]) -> Box:
    """The box of this size (width, height) centred there."""
    (x, y), (w, h) = centre, size
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def polygon_meets_box(pts, box: Box) -> bool:
    """Whether a convex polygon and a box share any area. Separating axes: they do unless one of
    the box's axes or the polygon's edge normals keeps them apart (overlapping bounds are not
    enough: a diamond beside a box's corner has bounds that overlap it)."""
    x0, y0, x1, y1 = bounds_of(pts)
    if x1 <= box[0] or x0 >= box[2] or y1 <= box[1] or y0 >= box[3]:
        return False
    corners = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    for i, (ax, ay) in enumerate(pts):
        bx, by = pts[(i + 1) % len(pts)]
        nx, ny = ay - by, bx - ax
        poly = [nx * x + ny * y for x, y in pts]
        rect = [nx * x + ny * y for x, y in corners]
        if max(rect) <= min(poly) + 1e-9 or min(rect) >= max(poly) - 1e-9:
            return False
    return True


def segment_meets_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment a-b passes through the box (clipped against its four sides)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - box[0]), (dx, box[2] - a[0]), (-dy, a[1] - box[1]), (dy, box[3] - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether two segments cross (sharing an end is not crossing)."""
    if a in (c, d) or b in (c, d):
        return False

    def side(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def band(a: Point, b: Point, half: float) -> tuple[Point, ...]:
    """The four corners of a straight band `half` wide either side of a-b, past both ends too:
    what a line that thick with square caps covers."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * half, dx / length * half
    ux, uy = dx / length * half, dy / length * half
    return ((a[0] + nx - ux, a[1] + ny - uy), (b[0] + nx + ux, b[1] + ny + uy),
            (b[0] - nx + ux, b[1] - ny + uy), (a[0] - nx - ux, a[1] - ny - uy))
