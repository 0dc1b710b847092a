"""The public Galactic Railway board: the tiles on the night-sky table and a sidebar with the
players (scores and their public hands), the pile's top tile, the latest turn and a legend
(render.ginga.sidebar).

Drawn from a view only (all of it public in this game). The table shows the tiles' area plus
two cells around it — every legal placement touches a tile, so that is where moves can go —
cut to the cells tiles may still reach inside the 8×8 frame. Cell names (columns A–O, rows
1–15, fixed for the whole game) run along all four edges. A frame side that is fixed (the
tiles already span 8 cells that way) is drawn in gold; a limit that is visible but not fixed
yet is dashed. Every tile of the latest turn gets the kit's last-move halo (render.kit.highlight)
and a badge with its points in the player's colour; the loop that scored is drawn through its
cells and the stations that scored get a ring in that colour.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.ginga.board import CENTRE, COLUMNS, second_cell
from games.ginga.models import GingaView, LastPlacement
from render.ginga import style
from render.ginga.sidebar import draw_sidebar
from render.ginga.tiles import tile_by_id, tile_patch
from render.kit.encode import LayerCache, board_palette, drawn_on
from render.kit.highlight import halo_lines
from render.kit.palette import contrast_text
from render.kit.text import draw_text, measure

# The 256 colours this game's boards map onto from the first on (render.kit.make_board_palettes)
BOARD_PALETTE = board_palette(__file__)

BOARD, SIDEBAR_W, WIDTH, HEIGHT = style.BOARD, style.SIDEBAR_W, style.WIDTH, style.HEIGHT
MARGIN = 46  # room for the cell names
MAX_CELL = 112


def area(view: GingaView) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) inclusive: the cells the image shows."""
    f = view.frame
    if f.min_x is None:
        cx, cy = CENTRE
        return cx - 2, cy - 2, cx + 2, cy + 2
    rx0, ry0, rx1, ry1 = f.reach
    return (max(rx0, f.min_x - 2), max(ry0, f.min_y - 2), min(rx1, f.max_x + 2), min(ry1, f.max_y + 2))


class Grid:
    """Pixel geometry of the shown cells."""

    def __init__(self, x0: int, y0: int, x1: int, y1: int, size: int = BOARD, margin: int = MARGIN) -> None:
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1
        self.cols, self.rows = self.x1 - self.x0 + 1, self.y1 - self.y0 + 1
        self.cell = min(MAX_CELL, (size - 2 * margin) // max(self.cols, self.rows))
        self.left = (size - self.cols * self.cell) // 2
        self.top = (size - self.rows * self.cell) // 2

    @classmethod
    def of(cls, view: GingaView, size: int = BOARD, margin: int = MARGIN) -> "Grid":
        return cls(*area(view), size=size, margin=margin)

    def origin(self, x: int, y: int) -> tuple[int, int]:
        return self.left + (x - self.x0) * self.cell, self.top + (y - self.y0) * self.cell

    def centre(self, x: int, y: int) -> tuple[float, float]:
        px, py = self.origin(x, y)
        return px + self.cell / 2, py + self.cell / 2


def render_board(view: GingaView, names: Sequence[str], lang: str = "en") -> Image.Image:
    grid = Grid.of(view)
    img = _table_layer(_layer_key(view, grid)).copy()
    paste_tiles(img, grid, view.tiles)
    _draw_latest(img, view, grid)
    draw_sidebar(img, view, names, lang)
    return drawn_on(img, _background(), BOARD_PALETTE)  # one palette for every table the sky holds


@lru_cache(maxsize=2)
def _background() -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), style.PANEL_BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, BOARD - 1, HEIGHT - 1), fill=style.SKY)
    rng = random.Random(7)  # the same sky every time
    for _ in range(260):
        x, y = rng.randrange(BOARD), rng.randrange(HEIGHT)
        r = rng.choice((0.6, 0.8, 1.0, 1.4))
        shade = style.mix(style.SKY, style.STAR, rng.uniform(0.35, 1.0))
        d.ellipse((x - r, y - r, x + r, y + r), fill=shade)
    d.rectangle((BOARD, 0, BOARD + 3, HEIGHT), fill=(40, 44, 60))
    return img


# --- the table ------------------------------------------------------------------------------------
def _layer_key(view: GingaView, grid: Grid) -> tuple:
    f = view.frame
    return (grid.x0, grid.y0, grid.x1, grid.y1, tuple(f.reach), f.fixed_x, f.fixed_y, f.min_x is None)


_LAYERS = LayerCache(maxsize=8)  # ~2.7 MB each


def _table_layer(key: tuple) -> Image.Image:
    """The sky, the empty cells shown, the frame and the cell names: the same for every move
    that shows the same area (cached)."""
    return _LAYERS.get(key, lambda: _build_table(key))


def _build_table(key: tuple) -> Image.Image:
    x0, y0, x1, y1, reach, fixed_x, fixed_y, empty = key
    img = _background().copy()
    _draw_table(img, Grid(x0, y0, x1, y1), reach, fixed_x, fixed_y, empty)
    return img


def table_image(view: GingaView, size: int, margin: int = MARGIN,
                coordinates: bool = True) -> tuple[Image.Image, Grid]:
    """The table alone (cells, frame, cell names, tiles) `size` pixels wide, for images other
    than the board (the final details)."""
    x0, y0, x1, y1 = area(view)
    grid = Grid(x0, y0, x1, y1, size, margin)
    img = Image.new("RGB", (size, size), style.SKY)
    draw_frame_table(img, grid, view, coordinates)
    paste_tiles(img, grid, view.tiles)
    top = max(0, grid.top - margin)
    bottom = min(size, grid.top + grid.rows * grid.cell + margin)
    if top or bottom < size:  # cut the empty sky above and below; the grid moves up with it
        img = img.crop((0, top, size, bottom))
        grid.top -= top
    return img, grid


def draw_frame_table(img: Image.Image, grid: Grid, view: GingaView, coordinates: bool = True) -> None:
    """The empty table of `view` (cells, the frame, cell names) on `grid`."""
    f = view.frame
    _draw_table(img, grid, tuple(f.reach), f.fixed_x, f.fixed_y, f.min_x is None, coordinates)


def paste_tiles(img: Image.Image, grid: Grid, tiles) -> None:
    """Placed tiles drawn over their cells (a tile partly off the image is cut by its edges)."""
    for t in tiles:
        img.paste(_opaque_tile(tile_by_id(t.tile).index, t.orient, grid.cell), _patch_xy(grid, t.x, t.y, t.orient))


def _draw_table(img: Image.Image, grid: Grid, reach, fixed_x: bool, fixed_y: bool, empty: bool,
                coordinates: bool = True) -> None:
    d = ImageDraw.Draw(img)
    c = grid.cell
    cell_img = _empty_cell(c)
    for y in range(grid.y0, grid.y1 + 1):
        for x in range(grid.x0, grid.x1 + 1):
            img.paste(cell_img, grid.origin(x, y), cell_img)
    if empty:  # the first tile's cell
        pad = max(1, c // 28)
        px, py = grid.origin(*CENTRE)
        d.rounded_rectangle((px + pad, py + pad, px + c - pad - 1, py + c - pad - 1), radius=max(2, c // 10),
                            outline=style.FRAME, width=max(2, c // 18))
    else:
        _draw_frame(d, grid, reach, fixed_x, fixed_y)
    if coordinates:
        _draw_coordinates(img, grid)


@lru_cache(maxsize=16)
def _empty_cell(c: int) -> Image.Image:
    img = Image.new("RGBA", (c, c), (0, 0, 0, 0))
    pad = max(1, c // 28)
    ImageDraw.Draw(img).rounded_rectangle((pad, pad, c - pad - 1, c - pad - 1), radius=max(2, c // 10),
                                          fill=style.SKY_CELL, outline=style.SKY_GRID)
    return img


@lru_cache(maxsize=300)
def _opaque_tile(tile_index: int, orient: int, c: int) -> Image.Image:
    """The tile patch over two empty cells, flattened: pasting it needs no mask."""
    patch = tile_patch(tile_index, orient, c)
    under = Image.new("RGB", patch.size, style.SKY)
    cell_img = _empty_cell(c)
    for ox in range(0, patch.width, c):
        for oy in range(0, patch.height, c):
            under.paste(cell_img, (ox, oy), cell_img)
    under.paste(patch, (0, 0), patch)
    return under


def _patch_xy(grid: Grid, x: int, y: int, orient: int) -> tuple[int, int]:
    rx, ry = second_cell(x, y, orient)
    return grid.origin(min(x, rx), min(y, ry))


def _draw_frame(d: ImageDraw.ImageDraw, grid: Grid, reach, fixed_x: bool, fixed_y: bool) -> None:
    rx0, ry0, rx1, ry1 = reach
    left, top = grid.origin(grid.x0, grid.y0)
    right, bottom = grid.origin(grid.x1 + 1, grid.y1 + 1)
    width = max(3, grid.cell // 14)
    o = width // 2 + 1  # just outside the cells, so tiles on the edge never cover it
    left, top, right, bottom = left - o, top - o, right + o, bottom + o
    sides = [
        (grid.x0 == rx0, fixed_x, ((left, top), (left, bottom))),
        (grid.x1 == rx1, fixed_x, ((right, top), (right, bottom))),
        (grid.y0 == ry0, fixed_y, ((left, top), (right, top))),
        (grid.y1 == ry1, fixed_y, ((left, bottom), (right, bottom))),
    ]
    for at_limit, fixed, (a, b) in sides:
        if not at_limit:
            continue
        if fixed:
            d.line((a, b), fill=style.FRAME, width=width)
        else:
            _dashed(d, a, b, style.FRAME_SOFT, max(2, width - 1), grid.cell / 5)


def _dashed(d: ImageDraw.ImageDraw, a, b, fill, width: int, dash: float) -> None:
    (x0, y0), (x1, y1) = a, b
    length = max(abs(x1 - x0), abs(y1 - y0))
    steps = max(1, int(length // (2 * dash)))
    for i in range(steps + 1):
        t0, t1 = (2 * i * dash) / length, min(1.0, (2 * i + 1) * dash / length)
        if t0 >= 1:
            break
        d.line((x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1),
               fill=fill, width=width)


def _draw_latest(img: Image.Image, view: GingaView, grid: Grid) -> None:
    """The latest turn, every tile of it: the kit's last-move halo round each tile (drawn under
    the tile, so the tile is pasted again on top), the scoring loop in the player's colour,
    rings on the stations that scored, and the points on a badge."""
    if not view.latest:
        return
    c = grid.cell
    outlines = []
    for p in view.latest:
        (lx, ly), (rx, ry) = p.cells
        x0, y0 = grid.origin(min(lx, rx), min(ly, ry))
        x1, y1 = grid.origin(max(lx, rx) + 1, max(ly, ry) + 1)
        outlines.append([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
    halo_lines(img, outlines, 2)
    for p in view.latest:
        placed = next((t for t in reversed(view.tiles) if (t.x, t.y) == tuple(p.cells[0])), None)
        if placed is not None:
            paste_tiles(img, grid, [placed])
    loops = [p for p in view.latest if len(p.loop) >= 4]
    if loops:  # drawn on a transparent layer the size of the loops' box, then laid over
        xs = [x for p in loops for x, _ in p.loop]
        ys = [y for p in loops for _, y in p.loop]
        bx, by = grid.origin(min(xs), min(ys))
        bx1, by1 = grid.origin(max(xs) + 1, max(ys) + 1)
        overlay = Image.new("RGBA", (bx1 - bx, by1 - by), (0, 0, 0, 0))
        od = ImageDraw.Draw(overlay)
        for p in loops:
            colour = style.player_rgb(p.seat)
            pts = [(cx - bx, cy - by) for cx, cy in (grid.centre(x, y) for x, y in p.loop)]
            pts.append(pts[0])
            w = max(6, round(c * 0.2))
            # a dark casing keeps a light seat colour (yellow, sky blue) clear on the ivory tiles
            od.line(pts, fill=(*style.LOOP_CASING, style.LOOP_ALPHA), width=w + 6, joint="curve")
            od.line(pts, fill=(*colour, 255), width=w, joint="curve")
        img.paste(overlay, (bx, by), overlay)
    d = ImageDraw.Draw(img)
    for p in view.latest:
        colour = style.player_rgb(p.seat)
        for sx, sy in p.stations:  # the stations that scored, ringed in the player's colour
            cx, cy = grid.centre(sx, sy)
            r = c * 0.32
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(4, c // 12))
    for p in view.latest:
        _badge(img, p, grid)


def _badge(img: Image.Image, p: LastPlacement, grid: Grid) -> None:
    points = p.station_points + p.loop_points
    if not points:
        return
    colour = style.player_rgb(p.seat)
    text = f"+{points}"
    size = max(24, min(36, round(grid.cell * 0.45)))
    tw, th = measure(text, size, bold=True)
    (lx, ly), (rx, ry) = p.cells
    x1, y0 = grid.origin(max(lx, rx) + 1, min(ly, ry))
    bw, bh = tw + 18, th + 4
    bx = min(BOARD - bw - 4, max(4, x1 - bw // 2))
    by = min(HEIGHT - bh - 4, max(4, y0 - bh // 2))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((bx, by, bx + bw, by + bh), radius=bh // 2, fill=colour, outline=(255, 255, 255), width=3)
    draw_text(img, (bx + bw / 2, by + bh / 2), text, size, contrast_text(colour), bold=True, anchor="mm")


def _draw_coordinates(img: Image.Image, grid: Grid) -> None:
    size = max(22, min(30, round(grid.cell * 0.4)))
    left, top = grid.origin(grid.x0, grid.y0)
    right, bottom = grid.origin(grid.x1 + 1, grid.y1 + 1)
    gap = 6
    for x in range(grid.x0, grid.x1 + 1):
        cx, _ = grid.centre(x, grid.y0)
        draw_text(img, (cx, top - gap - 2), COLUMNS[x], size, style.COORD, bold=True, anchor="md")
        draw_text(img, (cx, bottom + gap), COLUMNS[x], size, style.COORD, bold=True, anchor="ma")
    for y in range(grid.y0, grid.y1 + 1):
        _, cy = grid.centre(grid.x0, y)
        draw_text(img, (left - gap - 2, cy), str(y + 1), size, style.COORD, bold=True, anchor="rm")
        draw_text(img, (right + gap + 2, cy), str(y + 1), size, style.COORD, bold=True, anchor="lm")


__all__ = ["render_board", "table_image", "area", "Grid"]
