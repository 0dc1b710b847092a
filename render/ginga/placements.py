"""One held tile's legal placements, numbered on the table exactly as the menu's pick picture
numbers them (render.ginga.places.menu_numbers), so "3" in the hand is "3 · …" in the menu.

The table is cut to the cells placements can use (at least five cells each way), with cell
names along the top and the left only: two of these stand side by side in the hand image,
and every pixel of width goes to the cells.

A number sits where the pick picture puts it (render.ginga.places.quarter): in the cell half L
would cover (the station, or the grey dot), in the quarter of that cell that touches the edge
towards half R. Here, two tables side by side in one image, the kit's round badges would not
fit: the badge fills its quarter, leans against that edge and points through it. A placement that scores now has a filled gold badge, one
that does not an outlined dark one: the two differ in shape and lightness, not only hue.
Numbers are as large as a quarter allows; in the most crowded tables (ten columns) two digits
at the legibility floor are narrowed rather than let badges run into each other. A tile whose
placements the menu splits into regions (each numbered from 1) gets empty badges: its
numbers are in the menu's pictures only.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.ginga.board import COLUMNS
from games.ginga.models import GingaView, Option
from render.ginga import style
from render.ginga.board import MAX_CELL, Grid, area, draw_frame_table, paste_tiles
from render.ginga.places import quarter
from render.kit.text import draw_text, measure

DIR_VEC = ((1, 0), (0, 1), (-1, 0), (0, -1))  # orient 0 right, 1 down, 2 left, 3 up
LABEL = 32  # room for the cell names above and left of the cells
EDGE = 6  # sky right of and below the cells (the frame line is drawn just outside them)
NAME_SIZE = 22
MIN_SPAN = 5  # cells shown each way at least
AROUND = 0  # cells shown around the placements: a ring of empty cells costs the numbers a fifth
OUTLINE: style.RGB = style.COORD
RIM = 2  # the outlined badge's line


def bounds(view: GingaView, options: Sequence[Option]) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) inclusive: the placements' cells and AROUND cells around, at least
    MIN_SPAN cells each way (a few placements in a corner still show their neighbourhood),
    inside the area the board shows."""
    ax0, ay0, ax1, ay1 = area(view)
    cells = [c for o in options for c in o.cells]
    if not cells:
        return ax0, ay0, ax1, ay1
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    x0, x1 = _span(min(xs) - AROUND, max(xs) + AROUND, ax0, ax1)
    y0, y1 = _span(min(ys) - AROUND, max(ys) + AROUND, ay0, ay1)
    return x0, y0, x1, y1


def _span(lo: int, hi: int, limit_lo: int, limit_hi: int) -> tuple[int, int]:
    """lo..hi widened evenly to MIN_SPAN cells, then moved or cut to fit the limits."""
    short = MIN_SPAN - (hi - lo + 1)
    if short > 0:
        lo, hi = lo - short // 2, hi + short - short // 2
    if lo < limit_lo:
        lo, hi = limit_lo, hi + (limit_lo - lo)
    if hi > limit_hi:
        lo, hi = lo - (hi - limit_hi), limit_hi
    return max(lo, limit_lo), hi


def cell_for(box: tuple[int, int, int, int], width: int, height: int) -> int:
    """The largest cell (px) that fits the box's columns in `width` and rows in `height`."""
    x0, y0, x1, y1 = box
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    return max(8, min(MAX_CELL, (width - LABEL - EDGE) // cols, (height - LABEL - EDGE) // rows))


def grid_for(box: tuple[int, int, int, int], cell: int) -> Grid:
    grid = Grid(*box)
    grid.cell, grid.left, grid.top = cell, LABEL, LABEL
    return grid


def table_size(box: tuple[int, int, int, int], cell: int) -> tuple[int, int]:
    x0, y0, x1, y1 = box
    return LABEL + (x1 - x0 + 1) * cell + EDGE, LABEL + (y1 - y0 + 1) * cell + EDGE


def number_spot(grid: Grid, option: Option) -> tuple[float, float]:
    """The centre of the quarter of half L's cell that touches the edge towards half R."""
    half_l, half_r = option.cells
    return quarter(grid, tuple(half_l), tuple(half_r))


def badge_box(grid: Grid, option: Option, number: int | None, size: int,
              squeeze: float = 1.0) -> tuple[float, float, float, float]:
    """The badge's box: its quarter less a gap on the three sides away from half R; a number
    wider than that (only at the legibility floor in a crowded table) widens it, away from
    the edge it leans on."""
    x, y = number_spot(grid, option)
    q = grid.cell / 4
    g = gap(grid.cell)
    x0, y0, x1, y1 = x - q + g, y - q + g, x + q - g, y + q - g
    dx, dy = DIR_VEC[option.orient]
    if dx > 0:
        x1 = x + q
    elif dx < 0:
        x0 = x - q
    elif dy > 0:
        y1 = y + q
    else:
        y0 = y - q
    need = number_width(number, size, squeeze) + 2 * RIM + 2 if number is not None else 0
    if need > x1 - x0:
        if dx > 0:
            x0 = x1 - need
        elif dx < 0:
            x1 = x0 + need
        else:
            x0, x1 = x - need / 2, x + need / 2
    return x0, y0, x1, y1


def gap(cell: int) -> float:
    return max(1.5, cell * 0.03)


def number_style(cell: int, numbers: Sequence[int | None], floor: int) -> tuple[int, float]:
    """(font size, squeeze): the largest font whose widest number fits inside a badge, never
    under `floor`; at the floor, a number still too wide is narrowed (to 70% at most)."""
    widest = max((n for n in numbers if n is not None), default=1)
    side = cell / 2 - 2 * gap(cell)  # the badge's side, less the gaps
    room = side - 2 * RIM - 2
    size = floor
    for candidate in range(floor + 1, round(cell * 0.5) + 1):
        if number_width(widest, candidate) > room or candidate > side * 0.8:  # digits stand ~0.72 em
            break
        size = candidate
    w = number_width(widest, size)
    return size, 1.0 if w <= room else max(0.7, room / w)


def numbered_table(view: GingaView, options: Sequence[Option], numbers: Sequence[int | None],
                   box: tuple[int, int, int, int], cell: int, floor: int) -> tuple[Image.Image, Grid]:
    """The table cut to `box` with `options` numbered `numbers` on it (None: an empty badge)."""
    grid = grid_for(box, cell)
    img = Image.new("RGB", table_size(box, cell), style.SKY)
    draw_frame_table(img, grid, view, coordinates=False)
    paste_tiles(img, grid, view.tiles)  # tiles partly outside the box are cut by the image's edges
    _cover_outside(img, grid)
    _names(img, grid)
    draw_numbers(img, grid, options, numbers, floor)
    return img, grid


def _cover_outside(img: Image.Image, grid: Grid) -> None:
    """Sky over tile ends that stick out into the cell names' strip."""
    d = ImageDraw.Draw(img)
    frame = max(3, grid.cell // 14) // 2 + 2  # keep the frame line drawn just outside the cells
    d.rectangle((0, 0, img.width, grid.top - frame - 1), fill=style.SKY)
    d.rectangle((0, 0, grid.left - frame - 1, img.height), fill=style.SKY)


def _names(img: Image.Image, grid: Grid) -> None:
    for x in range(grid.x0, grid.x1 + 1):
        cx, _ = grid.centre(x, grid.y0)
        draw_text(img, (cx, grid.top - 8), COLUMNS[x], NAME_SIZE, style.COORD, bold=True, anchor="md")
    for y in range(grid.y0, grid.y1 + 1):
        _, cy = grid.centre(grid.x0, y)
        draw_text(img, (grid.left - 8, cy), str(y + 1), NAME_SIZE, style.COORD, bold=True, anchor="rm")


def draw_numbers(img: Image.Image, grid: Grid, options: Sequence[Option], numbers: Sequence[int | None],
                 floor: int) -> None:
    size, squeeze = number_style(grid.cell, numbers, floor)
    for o, n in zip(options, numbers):
        draw_badge(img, badge_box(grid, o, n, size, squeeze), n, bool(o.points), size, DIR_VEC[o.orient], squeeze)


def draw_badge(img: Image.Image, box: tuple[float, float, float, float], number: int | None, scores: bool, size: int,
               towards: tuple[int, int] | None = None, squeeze: float = 1.0) -> None:
    """A number badge: filled gold if it scores now, outlined if not; with `towards`, its side
    that way is squared off against the cell edge, so it reads as pointing there."""
    x0, y0, x1, y1 = box
    radius = max(3, round(min(x1 - x0, y1 - y0) * 0.3))
    corners = (True, True, True, True)
    if towards is not None:
        dx, dy = towards
        # (top left, top right, bottom right, bottom left): the two on the side it points to are square
        corners = tuple(not c for c in (dx < 0 or dy < 0, dx > 0 or dy < 0, dx > 0 or dy > 0, dx < 0 or dy > 0))
    box_i = (round(x0), round(y0), round(x1) - 1, round(y1) - 1)
    d = ImageDraw.Draw(img)
    if scores:
        d.rounded_rectangle(box_i, radius, fill=style.FRAME, corners=corners)
        colour = style.TEXT
    else:
        d.rounded_rectangle(box_i, radius, fill=style.SKY, outline=OUTLINE, width=RIM, corners=corners)
        colour = style.STATION
    if number is not None:
        _draw_number(img, ((x0 + x1) / 2, (y0 + y1) / 2), number, size, colour, squeeze)


def number_width(number: int, size: int, squeeze: float = 1.0) -> float:
    return measure(str(number), size, bold=True)[0] * squeeze


def _draw_number(img: Image.Image, centre: tuple[float, float], number: int, size: int, colour,
                 squeeze: float) -> None:
    """The number in bold, narrowed by `squeeze` when two digits would not fit a quarter at the
    legibility floor (the font's digits are as wide as its kanji): drawn on a mask, narrowed,
    and pasted in the colour."""
    text = str(number)
    w, h = measure(text, size, bold=True)
    mask = Image.new("L", (w + 8, h + 8), 0)
    draw_text(mask, (mask.width / 2, mask.height / 2), text, size, 255, bold=True, anchor="mm")
    if squeeze < 1:
        mask = mask.resize((max(1, round(mask.width * squeeze)), mask.height), Image.Resampling.LANCZOS)
    img.paste(colour, (round(centre[0] - mask.width / 2), round(centre[1] - mask.height / 2)), mask)


__all__ = ["bounds", "cell_for", "numbered_table", "number_spot", "badge_box", "draw_badge", "number_style"]
