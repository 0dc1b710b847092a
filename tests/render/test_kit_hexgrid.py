"""render/kit/hexgrid: pixel geometry checked by numbers, drawing checked on real Pillow images."""
from __future__ import annotations

import math

import pytest
from PIL import Image

from games.core.hexgrid import ORIGIN, Hex, Orientation, spiral
from render.kit.hexgrid import SQRT3, HexLayout, draw_hex

BG = (255, 255, 255)
LINE = (0, 0, 0)
SS = 2
ORIENTATIONS = (Orientation.POINTY, Orientation.FLAT)
GRID = spiral(ORIGIN, 2)


def fill_of(h: Hex) -> tuple[int, int, int]:
    """A distinct light colour per hex of GRID, so a pixel tells which hex painted it."""
    k = GRID.index(h)
    return (120 + 6 * k, 200 - 3 * k, 160 + 4 * k)


def draw_grid(orientation, outline=LINE, width=2, ss=1):
    layout, size = HexLayout.fit(GRID, 30, orientation, margin=8)
    img = Image.new("RGB", (size[0] * ss, size[1] * ss), BG)
    big = layout.scaled(ss)
    for h in GRID:
        draw_hex(img, big, h, fill=fill_of(h), outline=outline, width=width * ss)
    if ss > 1:  # the renderers' supersampling: draw large, then box-filter down
        img = img.resize(size, Image.Resampling.BOX)
    return layout, img


def px(img, point):
    # Pillow puts integer coordinates on pixel centres, so the nearest pixel is the rounded one.
    return img.getpixel((round(point[0]), round(point[1])))


def dark(rgb) -> bool:
    return sum(rgb) < 200


def ink_near(img, point) -> bool:
    """An outline pixel at the point or one pixel around it: Pillow snaps line and polygon
    edges to whole pixels, so a thin line may pass a pixel beside the exact geometry."""
    x, y = round(point[0]), round(point[1])
    return any(dark(img.getpixel((x + dx, y + dy))) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


# --- numbers -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_centres_round_trip_and_neighbours_are_one_hex_width_apart(orientation):
    layout = HexLayout(17.5, (40.0, -12.0), orientation)
    for h in spiral(Hex(3, -2), 4):
        c = layout.center(h)
        assert layout.hex_at(c) == h
        for n in h.neighbors():
            assert math.dist(c, layout.center(n)) == pytest.approx(17.5 * SQRT3)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_points_near_a_corner_fall_in_the_hex_they_lean_into(orientation):
    # Near corners, rounding q and r separately picks the wrong hex; cube rounding does not.
    layout = HexLayout(20, (0, 0), orientation)
    for h in spiral(ORIGIN, 2):
        centre = layout.center(h)
        for corner in layout.polygon(h):
            inside = (corner[0] + (centre[0] - corner[0]) * 0.08, corner[1] + (centre[1] - corner[1]) * 0.08)
            assert layout.hex_at(inside) == h


@pytest.mark.parametrize("orientation,angles", [
    (Orientation.POINTY, [0, 60, 120, 180, 240, 300]),
    (Orientation.FLAT, [30, 90, 150, 210, 270, 330]),
])
def test_side_d_faces_the_documented_direction_clockwise(orientation, angles):
    layout = HexLayout(10, (0, 0), orientation)
    for side, want in enumerate(angles):
        mx, my = layout.edge_midpoint(ORIGIN.edge(side))
        got = math.degrees(math.atan2(my, mx)) % 360  # y down: atan2 runs clockwise on screen
        assert got == pytest.approx(want)
        assert layout.side_angle(side) == pytest.approx(want)
        # The neighbour across side d is in that direction too, at twice the apothem.
        nx, ny = layout.center(ORIGIN.neighbor(side))
        assert (nx, ny) == pytest.approx((2 * mx, 2 * my))


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_corners_are_the_same_float_whichever_hex_names_them(orientation):
    layout = HexLayout(23.7, (101.3, 77.9), orientation)
    for h in spiral(ORIGIN, 2):
        poly = layout.polygon(h)
        assert len(poly) == 6
        for i, corner in enumerate(h.corners()):
            for other in corner.hexes():
                assert layout.polygon(other)[corner.index_in(other)] == poly[i]  # exact, not approx
            assert math.dist(poly[i], layout.center(h)) == pytest.approx(23.7)


def test_pointy_has_a_vertex_on_top_and_flat_a_side():
    pointy, flat = HexLayout(10, (0, 0), Orientation.POINTY), HexLayout(10, (0, 0), Orientation.FLAT)
    assert min(y for _, y in pointy.polygon(ORIGIN)) == pytest.approx(-10)
    assert min(y for _, y in flat.polygon(ORIGIN)) == pytest.approx(-5 * SQRT3)
    assert [round(y, 6) for _, y in flat.polygon(ORIGIN)].count(round(-5 * SQRT3, 6)) == 2


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_fit_puts_the_hexes_inside_the_image_with_the_margin(orientation):
    hexes = [Hex(q, r) for q in range(-3, 4) for r in range(-1, 3)]
    layout, (w, h) = HexLayout.fit(hexes, 12, orientation, margin=5)
    x0, y0, x1, y1 = layout.bounds(hexes)
    assert (x0, y0) == pytest.approx((5, 5))
    assert w - 1 <= x1 + 5 <= w and h - 1 <= y1 + 5 <= h
    with pytest.raises(ValueError):
        layout.bounds([])


def test_scaled_is_the_same_picture_larger():
    layout = HexLayout(10, (3, 4), Orientation.FLAT)
    big = layout.scaled(3)
    for h in spiral(ORIGIN, 2):
        assert big.center(h) == pytest.approx(tuple(3 * v for v in layout.center(h)))


# --- pixels --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ss", [1, SS])
@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_every_hex_is_filled_and_shared_edges_are_one_unbroken_outline(orientation, ss):
    layout, img = draw_grid(orientation, ss=ss)
    for h in GRID:
        assert px(img, layout.center(h)) == fill_of(h)
        centre = layout.center(h)
        for corner in layout.polygon(h):  # well inside, near each corner: still this hex's fill
            inner = (centre[0] + (corner[0] - centre[0]) * 0.75, centre[1] + (corner[1] - centre[1]) * 0.75)
            assert px(img, inner) == fill_of(h)
    shared = {e for h in GRID for e in h.edges() if all(x in GRID for x in e.hexes())}
    assert len(shared) == 42  # 19 hexes of radius 2: (19 * 6 - 30 outer sides) / 2
    for e in shared:
        (ax, ay), (bx, by) = layout.edge_points(e)
        for t in (0.2, 0.35, 0.5, 0.65, 0.8):  # along the side: outline all the way, no gap
            assert ink_near(img, (ax + (bx - ax) * t, ay + (by - ay) * t)), (e, t)
        assert ink_near(img, layout.edge_midpoint(e))


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_without_outline_neighbours_meet_with_no_background_between(orientation):
    layout, img = draw_grid(orientation, outline=None)
    for h in GRID:
        for d in range(6):
            n = h.neighbor(d)
            if n not in GRID:
                continue
            # Walk the segment between the centres across the shared side: only the two fills.
            (x0, y0), (x1, y1) = layout.center(h), layout.center(n)
            seen = {px(img, (x0 + (x1 - x0) * k / 40, y0 + (y1 - y0) * k / 40)) for k in range(41)}
            assert seen == {fill_of(h), fill_of(n)}


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_outside_the_grid_is_background_and_outer_sides_are_outlined(orientation):
    layout, img = draw_grid(orientation)
    assert img.getpixel((0, 0)) == BG
    for h in GRID:
        for d in range(6):
            n = h.neighbor(d)
            if n in GRID:
                continue
            assert ink_near(img, layout.edge_midpoint(h.edge(d)))
            # A few pixels beyond the outer side: nothing is drawn there.
            (mx, my), (cx, cy) = layout.edge_midpoint(h.edge(d)), layout.center(h)
            k = 5 / math.dist((mx, my), (cx, cy))
            assert px(img, (mx + (mx - cx) * k, my + (my - cy) * k)) == BG


def test_outline_is_as_thick_inside_as_outside():
    # Centred outlines: a shared side (drawn by both hexes) is no thicker than an outer one.
    layout, img = draw_grid(Orientation.POINTY, width=3)

    def thickness(h, d):
        (mx, my), (cx, cy) = layout.edge_midpoint(h.edge(d)), layout.center(h)
        ux, uy = (mx - cx) / math.dist((mx, my), (cx, cy)), (my - cy) / math.dist((mx, my), (cx, cy))
        return sum(dark(px(img, (mx + ux * (t / 4), my + uy * (t / 4)))) for t in range(-24, 25)) / 4

    inner = thickness(ORIGIN, 0)
    outer = thickness(Hex(2, 0), 0)
    assert 2 <= inner <= 4 and 2 <= outer <= 4
    assert abs(inner - outer) <= 1
