"""Where Galactic Railway's places are on its board image, for pick pictures
(render.kit.picking), and the numbers those pictures give a tile's placements.

A placement is a pair of cells (games/ginga/decisions.where: half L's cell, then half R's).
Its number goes in the quarter of half L's cell that touches the edge towards half R: right →
upper right, down → lower right, left → lower left, up → upper left. So each (cell,
direction) has a quarter of its own and no two placements share a spot, on the board's
picture and in the hand image's tables alike (render.ginga.placements draws the tables).

The hand image numbers a tile's placements with `menu_numbers`: the numbers the pick picture
of that tile's placement step gives them, worked out by the kit from the same marks, so a
"7" in the hand is the "7 · …" of the menu.
"""
from __future__ import annotations

from typing import Any, Sequence

from games.core.choices import Place
from games.ginga.board import parse_cell
from games.ginga.decisions import placement_order, where
from games.ginga.models import GingaView
from render.ginga import style
from render.ginga.board import Grid
from render.kit.images import Places
from render.kit.picking import Mark, Point, numbered

# A crop keeps about a third of a cell round the placements (cells are 64–112 px on the
# board), and shows at least four cells across: a few placements in a corner still show
# their neighbourhood, and the quarters stay far enough apart for the kit's badges.
MARGIN = 36.0
FLOOR = 420.0
POINTER = 1.45 # the line from a number runs this many quarter cells towards half R: past the edge


def quarter(grid: Grid, half_l: tuple[int, int], half_r: tuple[int, int]) -> Point:
    """The centre of the quarter of half L's cell that touches the edge towards half R."""
    (lx, ly), (rx, ry) = half_l, half_r
    cx, cy = grid.centre(lx, ly)
    dx, dy = rx - lx, ry - ly
    q = grid.cell / 4
    return cx + q * (dx + dy), cy + q * (dy - dx)


def _cells(place: Place) -> tuple[tuple[int, int], tuple[int, int]] | None:
    if place.kind != "cell" or len(place.at) != 2:
        return None
    a, b = parse_cell(place.at[0]), parse_cell(place.at[1])
    if a is None or b is None or abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        return None
    return a, b


def locate(view: GingaView, place: Place) -> Mark | None:
    """The quarter of half L's cell towards half R, on the board image's table; a short line
    from it across the edge into half R's cell says which way the tile lies."""
    cells = _cells(place)
    if cells is None:
        return None
    grid = Grid.of(view)
    if not all(grid.x0 <= x <= grid.x1 and grid.y0 <= y <= grid.y1 for x, y in cells):
        return None
    (lx, ly), (rx, ry) = cells
    spot = quarter(grid, *cells)
    reach = grid.cell / 4 * POINTER
    return Mark(spot=spot, line=(spot, (spot[0] + (rx - lx) * reach, spot[1] + (ry - ly) * reach)))


def size(view: GingaView) -> tuple[int, int]:
    return style.WIDTH, style.HEIGHT


def menu_numbers(view: GingaView, options: Sequence[Any]) -> list[int | None]:
    """The numbers of one tile's placements (view Options) in the pick picture of its
    placement step, in the order given; None for all when the step is split into regions
    (each numbered from 1, so one table could not show them without repeating numbers).

    The kit numbers the options of the step as the menu lists them (best first:
    games/ginga/decisions.placement_order), so they are put in that order first."""
    order = sorted(range(len(options)), key=lambda i: placement_order(options[i].points, options[i].notation))
    marks = [locate(view, where(options[i].cells)) for i in order]
    if not marks or any(m is None for m in marks):
        return [None] * len(options)
    regions = numbered([m for m in marks if m is not None], floor=FLOOR, margin=MARGIN)
    if len(regions) != 1:
        return [None] * len(options)
    out: list[int | None] = [None] * len(options)
    for k, i in enumerate(regions[0]):
        out[order[i]] = k + 1
    return out


PLACES = Places(locate=locate, size=size, margin=MARGIN, floor=FLOOR)
