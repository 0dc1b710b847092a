"""render/kit/board_names: names placed per board keep their spot while nothing covers it, move to
the first clear spot when a piece lands there, never onto a name that stays, and go back to their
own spots where two would still meet."""
from __future__ import annotations

from PIL import Image

from render.kit.board_names import NameSpots, Pieces, Placer, cells, fixed_cells

SIZE = (400, 300)
SCALE = 4


def spots(*boxes) -> NameSpots:
    return NameSpots.of(boxes, 2, SCALE)


def place(names, pieces=None, fixed=None):
    pieces = pieces or Pieces(SIZE, SCALE)
    fixed = fixed_cells(fixed or Image.new("L", SIZE, 0), SCALE)
    return Placer(SCALE).place(names, fixed, pieces, 2)


A = (100, 100, 180, 120)
A_BELOW = (100, 140, 180, 160)
A_FAR = (100, 200, 180, 220)


def test_a_name_keeps_its_spot_while_nothing_covers_it():
    assert place([("a", spots(A, A_BELOW))]) == {"a": A}


def test_a_piece_on_its_spot_moves_the_name_to_the_first_clear_one():
    pieces = Pieces(SIZE, SCALE)
    pieces.line("track", [(90, 110), (200, 110)], 8)
    assert place([("a", spots(A, A_BELOW, A_FAR))], pieces) == {"a": A_BELOW}
    pieces.polygon("hard", [(90, 135), (200, 135), (200, 165), (90, 165)])
    assert place([("a", spots(A, A_BELOW, A_FAR))], pieces) == {"a": A_FAR}


def test_a_moving_name_never_lands_on_one_that_stays():
    pieces = Pieces(SIZE, SCALE)
    pieces.line("track", [(90, 110), (200, 110)], 8)
    b = (100, 140, 180, 160)  # b stays: nothing covers it, and it is a's next spot
    out = place([("a", spots(A, A_BELOW, A_FAR)), ("b", spots(b))], pieces)
    assert out == {"a": A_FAR, "b": b}


def test_with_no_clear_spot_track_is_covered_before_a_piece_and_never_a_name():
    pieces = Pieces(SIZE, SCALE)
    pieces.line("track", [(90, 110), (200, 110)], 8)       # over A: only track
    pieces.polygon("hard", [(90, 135), (200, 135), (200, 165), (90, 165)])  # over A_BELOW: a piece
    out = place([("a", spots(A, A_BELOW))], pieces)
    assert out == {"a": A}


def test_cells_cover_a_box_with_a_cell_to_spare():
    assert cells((8, 8, 16, 16), 4) == (1, 1, 5, 5)
