"""The kit's box and segment tests, held against independent answers: a convex polygon clipped to
the box (its area), points sampled along a segment, the crossing point of two lines solved
directly, and a band drawn by Pillow against the pixels within its reach."""
from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw

from render.kit.geometry import (band, bounds_of, box_at, boxes_meet, grow, polygon_meets_box, segment_meets_box,
                                 segments_cross, union)


def _hull(pts):
    """The convex hull, counter-clockwise in y-down pixels (monotone chain)."""
    pts = sorted(set(pts))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _clipped_area(poly, box) -> float:
    """The area the polygon and the box share: the polygon clipped by each side of the box."""
    x0, y0, x1, y1 = box
    sides = [(lambda p: p[0] >= x0, lambda p, q: _at_x(p, q, x0)), (lambda p: p[0] <= x1, lambda p, q: _at_x(p, q, x1)),
             (lambda p: p[1] >= y0, lambda p, q: _at_y(p, q, y0)), (lambda p: p[1] <= y1, lambda p, q: _at_y(p, q, y1))]
    out = list(poly)
    for inside, cut in sides:
        pts, out = out, []
        for i, p in enumerate(pts):
            q = pts[(i + 1) % len(pts)]
            if inside(p):
                out.append(p)
                if not inside(q):
                    out.append(cut(p, q))
            elif inside(q):
                out.append(cut(p, q))
        if not out:
            return 0.0
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(out, out[1:] + out[:1]))) / 2


def _at_x(p, q, x):
    t = (x - p[0]) / (q[0] - p[0])
    return x, p[1] + (q[1] - p[1]) * t


def _at_y(p, q, y):
    t = (y - p[1]) / (q[1] - p[1])
    return p[0] + (q[0] - p[0]) * t, y


def test_a_diamond_beside_a_corner_does_not_meet_the_box():
    """Their bounds overlap, the shapes do not: what a bounds test alone would get wrong."""
    box = (0.0, 0.0, 10.0, 10.0)
    # centred at (13, 13), 5 to each tip: the box's corner (10, 10) lies 6 off it, outside
    diamond = ((13.0, 8.0), (18.0, 13.0), (13.0, 18.0), (8.0, 13.0))
    assert boxes_meet(bounds_of(diamond), box)
    assert not polygon_meets_box(diamond, box)
    pushed = tuple((x - 1.0, y - 1.0) for x, y in diamond)  # now 4 off: the corner is inside
    assert polygon_meets_box(pushed, box)


def test_polygon_meets_box_agrees_with_the_clipped_area():
    rng = random.Random(5)
    meets = misses_with_bounds_overlapping = 0
    for _ in range(3000):
        poly = _hull([(rng.uniform(0, 60), rng.uniform(0, 60)) for _ in range(rng.randint(3, 7))])
        if len(poly) < 3:
            continue
        x, y = rng.uniform(-10, 60), rng.uniform(-10, 60)
        box = (x, y, x + rng.uniform(1, 25), y + rng.uniform(1, 25))
        area = _clipped_area(poly, box)
        if 0 < area < 1e-6:
            continue  # grazing: no answer is clearly right
        assert polygon_meets_box(poly, box) == (area > 0), (poly, box, area)
        meets += area > 0
        misses_with_bounds_overlapping += area == 0 and boxes_meet(bounds_of(poly), box)
    assert meets > 300 and misses_with_bounds_overlapping > 100


def test_segment_meets_box_agrees_with_points_along_it():
    rng = random.Random(8)
    seen = {True: 0, False: 0}
    for _ in range(1200):
        a, b = (rng.uniform(0, 50), rng.uniform(0, 50)), (rng.uniform(0, 50), rng.uniform(0, 50))
        x, y = rng.uniform(0, 45), rng.uniform(0, 45)
        box = (x, y, x + rng.uniform(1, 15), y + rng.uniform(1, 15))
        # at most 0.12 apart: a segment through the box with no sample inside passes within 0.06 of it
        samples = [(a[0] + (b[0] - a[0]) * k / 600, a[1] + (b[1] - a[1]) * k / 600) for k in range(601)]
        inside = any(box[0] < px < box[2] and box[1] < py < box[3] for px, py in samples)
        gap = min(math.hypot(max(box[0] - px, 0, px - box[2]), max(box[1] - py, 0, py - box[3])) for px, py in samples)
        if not inside and gap < 0.2:
            continue  # passes within a hair of the box: sampling cannot tell
        assert segment_meets_box(a, b, box) == inside, (a, b, box)
        seen[inside] += 1
    assert seen[True] > 150 and seen[False] > 150
    # along an edge of the box's own lines, but beyond it
    assert not segment_meets_box((12.0, 0.0), (20.0, 0.0), (0.0, 0.0, 10.0, 10.0))
    # vertical, through the middle
    assert segment_meets_box((5.0, -5.0), (5.0, 15.0), (0.0, 0.0, 10.0, 10.0))


def test_segments_cross_only_through_each_other():
    assert segments_cross((0, 0), (10, 10), (0, 10), (10, 0))
    assert not segments_cross((0, 0), (10, 10), (10, 10), (20, 0))  # a shared end
    assert not segments_cross((0, 0), (10, 0), (0, 1), (10, 1))     # parallel
    assert not segments_cross((0, 0), (4, 4), (0, 10), (10, 0))     # the lines cross past an end
    rng = random.Random(3)
    for _ in range(2000):
        a, b, c, d = [(rng.uniform(0, 20), rng.uniform(0, 20)) for _ in range(4)]
        rx, ry, sx, sy = b[0] - a[0], b[1] - a[1], d[0] - c[0], d[1] - c[1]
        den = rx * sy - ry * sx
        if abs(den) < 1e-6:
            continue
        t = ((c[0] - a[0]) * sy - (c[1] - a[1]) * sx) / den
        u = ((c[0] - a[0]) * ry - (c[1] - a[1]) * rx) / den
        if min(abs(t), abs(1 - t), abs(u), abs(1 - u)) < 1e-6:
            continue
        assert segments_cross(a, b, c, d) == (0 < t < 1 and 0 < u < 1)


def test_band_covers_what_a_square_capped_line_reaches():
    """Drawn with Pillow, the band holds every pixel within `half` of the line across it and
    within `half` past either end, and no pixel further off (a pixel's width of slack)."""
    a, b, half = (40.0, 70.0), (150.0, 20.0), 12.0
    img = Image.new("L", (200, 120), 0)
    ImageDraw.Draw(img).polygon(band(a, b, half), fill=255)
    px = img.load()
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    wrong = 0
    for y in range(img.height):
        for x in range(img.width):
            cx, cy = x + 0.5, y + 0.5
            along = ((cx - a[0]) * dx + (cy - a[1]) * dy) / length
            across = abs((cx - a[0]) * dy - (cy - a[1]) * dx) / length
            reach = max(across - half, -half - along, along - length - half)
            if reach < -1.0 and not px[x, y]:
                wrong += 1
            if reach > 1.0 and px[x, y]:
                wrong += 1
    assert wrong == 0
    assert img.histogram()[255] > 0.9 * (length + 2 * half) * 2 * half


def test_boxes_their_bounds_and_sizes():
    boxes = [(3.0, 4.0, 8.0, 9.0), (-2.0, 6.0, 1.0, 7.0), (0.0, -5.0, 2.0, 0.0)]
    whole = union(boxes)
    assert whole == (-2.0, -5.0, 8.0, 9.0)
    assert whole == bounds_of([c for b in boxes for c in ((b[0], b[1]), (b[2], b[3]))])
    assert box_at((10.0, 20.0), (6.0, 4.0)) == (7.0, 18.0, 13.0, 22.0)
    assert grow((0.0, 0.0, 4.0, 4.0), 1.5) == (-1.5, -1.5, 5.5, 5.5)
    # boxes that only share an edge do not meet: a label may sit flush against a piece
    assert not boxes_meet((0.0, 0.0, 4.0, 4.0), (4.0, 0.0, 8.0, 4.0))
    assert boxes_meet((0.0, 0.0, 4.0, 4.0), (3.9, 3.9, 8.0, 8.0))
