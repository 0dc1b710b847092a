"""Polyline geometry for boards whose tracks run between cities: bent paths, parallel
offsets, positions by arc length, and a path cut into evenly spaced segments."""
from __future__ import annotations

import math

Point = tuple[float, float]


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
