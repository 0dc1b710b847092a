"""The public Galactic Railway board: the tiles on the night-sky table and a sidebar with the
players (scores and their public hands), the pile's top tile and the latest turn.

Drawn from a view only (all of it public in this game). The table shows the tiles' area plus
two cells around it — every legal placement touches a tile, so that is where moves can go —
cut to the cells tiles may still reach inside the 8×8 frame. Cell names (columns A–O, rows
1–15, fixed for the whole game) run along all four edges. A frame side that is fixed (the
tiles already span 8 cells that way) is drawn in gold; a limit that is visible but not fixed
yet is dashed. The latest turn's tiles are outlined in the player's colour with the points
they scored, the loop that scored is drawn through its cells, and the stations that scored
get a ring.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ginga.board import CENTRE, COLUMNS, second_cell
from games.ginga.models import GTView, LastPlacement
from render.ginga import style
from render.ginga.tiles import paste_tile, tile_by_id, tile_patch
from render.kit.encode import LayerCache
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.palette import contrast_text
from render.kit.text import draw_text, fit_size, measure

BOARD = 800  # the table is a square on the left
SIDEBAR_W = 340
WIDTH, HEIGHT = BOARD + SIDEBAR_W, BOARD
MARGIN = 46  # room for the cell names
MAX_CELL = 112


def area(view: GTView) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) inclusive: the cells the image shows."""
    f = view.frame
    if f.min_x is None:
        cx, cy = CENTRE
        return cx - 2, cy - 2, cx + 2, cy + 2
    rx0, ry0, rx1, ry1 = f.reach
    return (max(rx0, f.min_x - 2), max(ry0, f.min_y - 2), min(rx1, f.max_x + 2), min(ry1, f.max_y + 2))


class Grid:
    """Pixel geometry of the shown cells."""

    def __init__(self, x0: int, y0: int, x1: int, y1: int) -> None:
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1
        self.cols, self.rows = self.x1 - self.x0 + 1, self.y1 - self.y0 + 1
        self.cell = min(MAX_CELL, (BOARD - 2 * MARGIN) // max(self.cols, self.rows))
        self.left = (BOARD - self.cols * self.cell) // 2
        self.top = (BOARD - self.rows * self.cell) // 2

    @classmethod
    def of(cls, view: GTView) -> "Grid":
        return cls(*area(view))

    def origin(self, x: int, y: int) -> tuple[int, int]:
        return self.left + (x - self.x0) * self.cell, self.top + (y - self.y0) * self.cell

    def centre(self, x: int, y: int) -> tuple[float, float]:
        px, py = self.origin(x, y)
        return px + self.cell / 2, py + self.cell / 2


def render_board(view: GTView, names: Sequence[str], lang: str = "en") -> Image.Image:
    grid = Grid.of(view)
    img = _table_layer(_layer_key(view, grid)).copy()
    for t in view.tiles:
        img.paste(_opaque_tile(tile_by_id(t.tile).index, t.orient, grid.cell), _patch_xy(grid, t.x, t.y, t.orient))
    _draw_latest(img, view, grid)
    draw_sidebar(img, view, names, lang)
    return img


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
def _layer_key(view: GTView, grid: Grid) -> tuple:
    f = view.frame
    return (grid.x0, grid.y0, grid.x1, grid.y1, tuple(f.reach), f.fixed_x, f.fixed_y, f.min_x is None)


_LAYERS = LayerCache(maxsize=8)  # ~2.7 MB each


def _table_layer(key: tuple) -> Image.Image:
    """The sky, the empty cells shown, the frame and the cell names: the same for every move
    that shows the same area (cached)."""
    return _LAYERS.get(key, lambda: _build_table(key))


def _build_table(key: tuple) -> Image.Image:
    x0, y0, x1, y1, reach, fixed_x, fixed_y, empty = key
    grid = Grid(x0, y0, x1, y1)
    img = _background().copy()
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
    _draw_coordinates(img, grid)
    return img


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


def _draw_latest(img: Image.Image, view: GTView, grid: Grid) -> None:
    """The latest turn: outlines in the player's colour, the scoring loop and stations, points."""
    if not view.latest:
        return
    c = grid.cell
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
            od.line(pts, fill=(*colour, style.LOOP_ALPHA), width=max(6, round(c * 0.2)), joint="curve")
            r = max(3, round(c * 0.1))
            for x, y in pts:
                od.ellipse((x - r, y - r, x + r, y + r), fill=(*colour, style.LOOP_ALPHA))
        img.paste(overlay, (bx, by), overlay)
    d = ImageDraw.Draw(img)
    for p in view.latest:
        colour = style.player_rgb(p.seat)
        (lx, ly), (rx, ry) = p.cells
        x0, y0 = grid.origin(min(lx, rx), min(ly, ry))
        x1, y1 = grid.origin(max(lx, rx) + 1, max(ly, ry) + 1)
        w = max(4, c // 12)
        d.rounded_rectangle((x0 - w // 2, y0 - w // 2, x1 + w // 2 - 1, y1 + w // 2 - 1), radius=max(4, c // 8),
                            outline=colour, width=w)
        for sx, sy in p.stations:  # the stations that scored, ringed in the player's colour
            cx, cy = grid.centre(sx, sy)
            r = c * 0.3
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(3, c // 16))
    for p in view.latest:
        _badge(img, p, grid)


def _badge(img: Image.Image, p: LastPlacement, grid: Grid) -> None:
    points = p.station_points + p.loop_points
    if not points:
        return
    colour = style.player_rgb(p.seat)
    text = f"+{points}"
    size = max(22, min(34, round(grid.cell * 0.42)))
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
    size = max(18, min(28, round(grid.cell * 0.36)))
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


# --- the sidebar ----------------------------------------------------------------------------------
PAD = 16
SX = BOARD + 4 + PAD
SW = WIDTH - SX - PAD


def draw_sidebar(img: Image.Image, view: GTView, names: Sequence[str], lang: str) -> None:
    d = ImageDraw.Draw(img)
    y = _banner(img, d, view, names, lang, PAD)
    y = _players(img, d, view, names, lang, y + 12)
    y = _pile(img, d, view, lang, y + 12)
    _latest_text(img, d, view, names, lang, y + 10)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _banner(img: Image.Image, d: ImageDraw.ImageDraw, view: GTView, names: Sequence[str], lang: str,
            top: int) -> int:
    height = 92
    if is_abandoned(view):
        bg = style.OVER_BG
        title = translate(lang, ABANDONED_KEY)
        sub = translate(lang, ABANDONED_SUB_KEY)
    elif view.phase == "over":
        bg = style.OVER_BG
        winners = [p.seat for p in view.result.players if p.rank == 1] if view.result else []
        if len(winners) == 1:
            title = translate(lang, "gt.render.winner", {"seat": winners[0]}, names)
        elif winners:
            title = translate(lang, "gt.render.winners", {"seats": winners}, names)
        else:
            title = translate(lang, "gt.render.game_over")
        sub = translate(lang, "gt.render.game_over")
    else:
        bg = style.player_rgb(view.current)
        title = translate(lang, "gt.render.turn_of", {"seat": view.current}, names)
        sub = translate(lang, "gt.render.second" if view.step == "second" else "gt.render.place")
    fg = contrast_text(bg)
    d.rounded_rectangle((SX, top, SX + SW, top + height), 12, fill=bg)
    draw_text(img, (SX + 14, top + 32), title, 30, fg, bold=True, anchor="lm", max_width=SW - 28)
    draw_text(img, (SX + 14, top + 70), sub, fit_size(sub, SW - 28, 22, 16), fg, anchor="lm", max_width=SW - 28)
    return top + height


def _players(img: Image.Image, d: ImageDraw.ImageDraw, view: GTView, names: Sequence[str], lang: str,
             top: int) -> int:
    n = len(view.players)
    row_h = 122 if n <= 3 else 112
    mini = 34 if n <= 3 else 30  # hand tiles: 2 cells of this size each
    name_y, stats_y, hand_y = (28, 62, 78) if n <= 3 else (26, 56, 68)
    for p in view.players:
        y = top
        active = p.seat in view.active and not is_abandoned(view)
        colour = style.player_rgb(p.seat)
        d.rounded_rectangle((SX, y, SX + SW, y + row_h - 8), 10, fill=style.PANEL,
                            outline=colour if active else style.PANEL_EDGE, width=4 if active else 2)
        d.rounded_rectangle((SX + 10, y + name_y - 16, SX + 24, y + name_y + 16), 4, fill=colour)
        total = str(p.total)
        tw, _ = measure(total, 36, True)
        draw_text(img, (SX + SW - 14, y + name_y), total, 36, style.TEXT, bold=True, anchor="rm")
        draw_text(img, (SX + 34, y + name_y), _name(names, p.seat), 27, style.TEXT, bold=True, anchor="lm",
                  max_width=SW - 34 - tw - 28)
        breakdown = translate(lang, "gt.render.breakdown", {"stations": p.stations, "loops": p.loops})
        draw_text(img, (SX + 14, y + stats_y), breakdown, 20, style.MUTED, anchor="lm", max_width=SW - 28)
        x = SX + 14
        for tile_id in p.hand:
            box = paste_tile(img, tile_by_id(tile_id).index, 0, (x, y + hand_y), mini)
            draw_text(img, (box[2] + 6, y + hand_y + mini / 2), tile_id, 20, style.TEXT, bold=True, anchor="lm")
            x = box[2] + 6 + measure(tile_id, 20, True)[0] + 14
        top += row_h
    if view.passes_in_row and view.phase != "over":
        draw_text(img, (SX + 4, top + 6), translate(lang, "gt.render.passes",
                                                    {"count": view.passes_in_row, "n": view.n}),
                  20, style.MUTED, anchor="lm", max_width=SW - 8)
        top += 26
    return top


def _pile(img: Image.Image, d: ImageDraw.ImageDraw, view: GTView, lang: str, top: int) -> int:
    height = 84
    d.rounded_rectangle((SX, top, SX + SW, top + height), 10, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
    draw_text(img, (SX + 14, top + 26), translate(lang, "gt.render.pile"), 24, style.TEXT, bold=True, anchor="lm")
    left = translate(lang, "gt.render.pile_left", {"count": view.pile_size}) if view.pile_size else \
        translate(lang, "gt.render.pile_empty")
    draw_text(img, (SX + 14, top + 60), left, 20, style.MUTED, anchor="lm", max_width=150)
    if view.pile_top:
        cell = 40
        x = SX + SW - 14 - 2 * cell
        paste_tile(img, tile_by_id(view.pile_top).index, 0, (x, top + 10), cell)
        draw_text(img, (x - 10, top + 30), view.pile_top, 22, style.TEXT, bold=True, anchor="rm")
        draw_text(img, (x + cell, top + 10 + cell + 16), translate(lang, "gt.render.top"), 16, style.MUTED,
                  anchor="mm")
    return top + height


def _latest_text(img: Image.Image, d: ImageDraw.ImageDraw, view: GTView, names: Sequence[str], lang: str,
                 top: int) -> None:
    if top > HEIGHT - 60:
        return
    draw_text(img, (SX + 2, top + 12), translate(lang, "gt.render.last"), 20, style.MUTED, bold=True, anchor="lm")
    y = top + 42
    if not view.latest:
        draw_text(img, (SX + 2, y), translate(lang, "gt.render.no_moves_yet"), 20, style.MUTED, anchor="lm")
        return
    for p in view.latest:
        if y > HEIGHT - 20:
            break
        points = p.station_points + p.loop_points
        colour = style.player_rgb(p.seat)
        d.rounded_rectangle((SX + 2, y - 11, SX + 14, y + 11), 3, fill=colour)
        parts = [p.tile]
        if p.loop_points:
            parts.append(f"🔁 {p.loop_points}")
        if p.station_points:
            parts.append(f"🚉 {p.station_points}")
        text = " · ".join(parts)
        if points:
            text += f"  = +{points}"
        else:
            text += "  " + translate(lang, "gt.render.scored_nothing")
        draw_text(img, (SX + 22, y), text, 22, style.TEXT, bold=bool(points), anchor="lm", max_width=SW - 24)
        y += 32


__all__ = ["render_board", "area", "Grid"]
