"""A legend: what each symbol on a board means, as symbol + label items flowing in rows.

An item is (draw_symbol, label): draw_symbol(draw, box) draws the symbol inside the square
box (left, top, right, bottom), the same way the board draws it, so the legend can never
drift from the map. Items flow left to right and wrap to a new row at max_width.
"""
from __future__ import annotations

from typing import Callable, Sequence

from PIL import Image, ImageDraw

from render.kit.palette import INK
from render.kit.text import draw_text, measure

Box = tuple[float, float, float, float]
DrawSymbol = Callable[[ImageDraw.ImageDraw, Box], None]
Item = tuple[DrawSymbol, str]


def _layout(items: Sequence[Item], size: int, max_width: int | None, bold: bool) -> list[tuple[float, float, int]]:
    """(x offset, y offset, label width limit) of each item, relative to the legend's corner."""
    symbol = round(size * 1.2)
    gap, item_gap, row_h = round(size * 0.4), round(size * 1.1), round(size * 1.7)
    x = y = 0
    out = []
    for _, label in items:
        label_w = measure(label, size, bold)[0]
        item_w = symbol + gap + label_w
        if max_width is not None and x > 0 and x + item_w > max_width:
            x, y = 0, y + row_h
        limit = label_w if max_width is None else max(size, min(label_w, max_width - x - symbol - gap))
        out.append((x, y, limit))
        x += symbol + gap + limit + item_gap
    return out


def legend_height(items: Sequence[Item], size: int, max_width: int | None = None, bold: bool = False) -> int:
    """The height draw_legend would use, without drawing."""
    if not items:
        return 0
    return round(_layout(items, size, max_width, bold)[-1][1] + size * 1.7)


def draw_legend(img: Image.Image, xy: tuple[float, float], items: Sequence[Item], size: int,
                max_width: int | None = None, fill=INK, bold: bool = False) -> int:
    """Draw the items from the top-left corner xy with labels `size` px tall; returns the
    height used. A label too long for a row of its own is shortened with "…"."""
    if not items:
        return 0
    draw = ImageDraw.Draw(img)
    symbol = round(size * 1.2)
    gap, row_h = round(size * 0.4), round(size * 1.7)
    left, top = xy
    for (draw_symbol, label), (dx, dy, limit) in zip(items, _layout(items, size, max_width, bold)):
        cy = top + dy + row_h / 2
        box = (left + dx, cy - symbol / 2, left + dx + symbol, cy + symbol / 2)
        draw_symbol(draw, box)
        draw_text(img, (box[2] + gap, cy), label, size, fill, bold=bold, anchor="lm", max_width=round(limit))
    return legend_height(items, size, max_width, bold)
