"""The kit's pick pictures (render/kit/picking.py) on a synthetic board: regions never hold
more than 25 options and cover each option once; a picture numbers every option with a badge
that covers no other, inside the picture, with digits legible at 400 px; a sheet numbers
each option's own board."""
from __future__ import annotations

import math
import random

import pytest
from PIL import Image, ImageDraw

from games.core.choices import Place
from render.kit import picking
from render.kit.encode import BOARD_PALETTE
from render.kit.legibility import min_font_px, recording_text_sizes
from render.kit.picking import Mark

BOARD = (1800, 1200)
MARGIN, FLOOR = 60.0, 360.0


def board() -> Image.Image:
    img = Image.new("RGB", BOARD, (214, 226, 200))
    d = ImageDraw.Draw(img)
    for x in range(0, BOARD[0], 60):
        d.line([(x, 0), (x, BOARD[1])], fill=(150, 160, 140), width=2)
    for y in range(0, BOARD[1], 60):
        d.line([(0, y), (BOARD[0], y)], fill=(150, 160, 140), width=2)
    return img


def cloud(n: int, rng: random.Random, spread: float = 1.0) -> list[Mark]:
    """n spots on a 60 px lattice (as hexes and intersections are), some with lines."""
    cells = rng.sample([(x, y) for x in range(1, 29) for y in range(1, 19)], n)
    out = []
    for x, y in cells:
        spot = (x * 60 * spread % BOARD[0], y * 60.0)
        line = (spot, (spot[0] + 30, spot[1])) if rng.random() < 0.3 else ()
        out.append(Mark(spot=spot, line=line))
    return out


@pytest.mark.parametrize("n", [2, 5, 24, 25, 26, 60, 140, 300])
def test_regions_hold_at_most_25_and_cover_every_option_once(n: int) -> None:
    rng = random.Random(n)
    marks = cloud(n, rng)
    found = picking.regions(marks, floor=FLOOR, margin=MARGIN)
    assert sorted(i for r in found for i in r) == list(range(n))
    assert all(0 < len(r) <= picking.OPTIONS_AT_MOST for r in found)
    if n <= 25:
        # a lattice 60 px apart fits one legible crop up to 60 * 400 / 17 px wide: all of it
        # when the spots are few enough to fit one select
        spread = max(m.spot[0] for m in marks) - min(m.spot[0] for m in marks)
        if spread + 2 * MARGIN <= picking.widest_crop([m.spot for m in marks], FLOOR):
            assert len(found) == 1
    for r in found:
        if len(r) > 1:
            xs = [marks[i].spot[0] for i in r]
            assert max(xs) - min(xs) + 2 * MARGIN <= picking.widest_crop([marks[i].spot for i in r], FLOOR)


def test_close_spots_make_a_narrower_crop_than_far_ones() -> None:
    far = [Mark(spot=(100.0 * k, 300.0)) for k in range(1, 9)]
    near = [Mark(spot=(20.0 * k, 300.0)) for k in range(1, 9)]
    assert picking.widest_crop([m.spot for m in near], 0) < picking.widest_crop([m.spot for m in far], 0)
    # spots 100 px apart, eight of them: one picture; 20 px apart over a 1400 px spread: split
    wide = [Mark(spot=(20.0 * k, 300.0)) for k in range(1, 9)] + [Mark(spot=(1500.0, 300.0))]
    assert len(picking.regions(far, floor=FLOOR, margin=MARGIN)) == 1
    assert len(picking.regions(wide, floor=FLOOR, margin=MARGIN)) > 1


@pytest.mark.parametrize("n,seed", [(3, 1), (12, 2), (25, 3)])
def test_a_pick_picture_numbers_every_option_legibly_without_covering_another(n: int, seed: int) -> None:
    rng = random.Random(seed)
    marks = picking.regions(cloud(n, rng), floor=FLOOR, margin=MARGIN)
    all_marks = cloud(n, random.Random(seed))
    region = [all_marks[i] for i in marks[0]]
    numbers = list(range(1, len(region) + 1))
    with recording_text_sizes() as sizes:
        made = picking.pick_picture(board(), region, numbers, margin=MARGIN)
    img = made.image
    assert img.width <= picking.PICTURE_WIDTH and img.width >= 200
    assert picking.ASPECT[0] - 0.02 <= img.height / img.width <= picking.ASPECT[1] + 0.02
    assert sorted(b.number for b in made.badges) == numbers
    drawn = [int(text) for _, text in sizes.drawn]
    assert sorted(drawn) == numbers  # every number drawn once, nothing else written
    assert min(size for size, _ in sizes.drawn) >= min_font_px(img.width)
    diameter, _ = picking.badge_size(img.width)
    for a in made.badges:
        r = diameter / 2
        assert r - 1 <= a.centre[0] <= img.width - r + 1 and r - 1 <= a.centre[1] <= img.height - r + 1
        for b in made.badges:
            if a is not b:
                assert math.dist(a.centre, b.centre) >= diameter * 0.9, (a, b)
    # the crop holds every option's spot
    x0, y0, x1, y1 = made.box
    assert all(x0 <= m.spot[0] <= x1 and y0 <= m.spot[1] <= y1 for m in region)


def test_a_badge_that_would_cover_another_moves_aside_with_a_leader_line() -> None:
    marks = [Mark(spot=(600.0, 600.0)), Mark(spot=(604.0, 600.0)), Mark(spot=(600.0, 603.0))]
    made = picking.pick_picture(board(), marks, [1, 2, 3], margin=MARGIN)
    moved = [b for b in made.badges if b.centre != b.spot]
    assert len(moved) >= 2
    # a leader line is drawn in ink from the spot towards the badge, seen past the badges
    diameter, _ = picking.badge_size(made.image.width)
    for b in moved:
        length = math.dist(b.spot, b.centre)
        seen = [t for t in (k / 20 for k in range(21))
                if all(math.dist(_along(b, t), o.centre) > diameter / 2 + 2 for o in made.badges)]
        assert seen and length > diameter
        assert all(made.image.getpixel(tuple(round(v) for v in _along(b, t))) == picking.INK for t in seen)


def _along(b: picking.Badge, t: float) -> tuple[float, float]:
    return b.spot[0] + (b.centre[0] - b.spot[0]) * t, b.spot[1] + (b.centre[1] - b.spot[1]) * t


def test_a_sheet_numbers_each_options_own_board() -> None:
    boards = []
    for k in range(5):
        img = board()
        ImageDraw.Draw(img).rectangle((580, 580, 620, 620), fill=(40 * k, 0, 0))
        boards.append(img)
    made = picking.sheet_picture(boards, [Mark(spot=(600.0, 600.0))] * 5, [1, 2, 3, 4, 5], margin=MARGIN)
    assert [b.number for b in made.badges] == [1, 2, 3, 4, 5]
    assert made.image.width == picking.PICTURE_WIDTH
    # five options: three columns, two rows
    xs = sorted({round(b.centre[0]) for b in made.badges})
    assert len(xs) == 3


def test_compass_names_the_ninth_of_the_board() -> None:
    assert picking.compass([(10.0, 10.0)], BOARD) == "nw"
    assert picking.compass([(900.0, 600.0)], BOARD) == "c"
    assert picking.compass([(1790.0, 1190.0)], BOARD) == "se"


def test_a_place_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        Place(kind="galaxy", at=("A1",))
    with pytest.raises(ValueError):
        Place(kind="hex", at=())


def test_an_overview_frames_and_names_each_region() -> None:
    marks = cloud(80, random.Random(5))
    found = picking.regions(marks, floor=FLOOR, margin=MARGIN)
    labels = [f"Part {k} · {len(r)}" for k, r in enumerate(found)]
    with recording_text_sizes() as sizes:
        made = picking.overview_picture(board(), [[marks[i] for i in r] for r in found], labels)
    assert made.image.width == picking.PICTURE_WIDTH
    assert [text for _, text in sizes.drawn] == labels
    assert min(size for size, _ in sizes.drawn) >= min_font_px(made.image.width)


def test_numbers_run_in_reading_order_and_regions_too() -> None:
    spots = [(300.0, 100.0), (100.0, 104.0), (200.0, 300.0), (50.0, 296.0)]
    assert picking.reading_order(spots) == [1, 0, 3, 2]
    boxes = [(600.0, 600.0, 900.0, 900.0), (0.0, 0.0, 300.0, 300.0), (0.0, 620.0, 300.0, 880.0),
             (620.0, 40.0, 900.0, 260.0)]
    assert picking.reading_rows(["BR", "TL", "BL", "TR"], boxes) == ["TL", "TR", "BL", "BR"]


def test_a_step_is_cut_into_as_few_regions_as_its_count_needs() -> None:
    # 52 options close together (legible in one crop): three regions, not four of 13
    marks = [Mark(spot=(40.0 + 30 * (k % 13), 40.0 + 30 * (k // 13))) for k in range(52)]
    found = picking.regions(marks, floor=FLOOR, margin=MARGIN)
    assert sorted(len(r) for r in found) == [17, 17, 18]
    # options beside the places (Done, Pass) leave less room for places
    assert all(len(r) <= 21 for r in picking.regions(marks, floor=FLOOR, margin=MARGIN, at_most=21))


def test_a_picture_does_not_carry_its_boards_palette() -> None:
    marked = board()
    marked.info[BOARD_PALETTE] = object()
    marks = [Mark(spot=(300.0, 300.0)), Mark(spot=(420.0, 300.0))]
    assert picking.pick_picture(marked, marks, [1, 2], margin=MARGIN).image.info == {}
    assert picking.overview_picture(marked, [marks], ["West · 2"]).image.info == {}
