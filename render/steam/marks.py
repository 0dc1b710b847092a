"""Small marks drawn on the Steam board and panels: goods cubes (colour + shape), a city's
emblem, growth markers, seat markers on links, open-end caps.

Marks are pictures, not text: the shapes carry the meaning where letters would be too small
to read at preview size (render/kit/legibility.py applies to text only).
"""
from __future__ import annotations

import math

from PIL import ImageDraw

from render.kit.chart import draw_marker, marker_points
from render.steam import style

Point = tuple[float, float]


def draw_shape(d: ImageDraw.ImageDraw, shape: str, centre: Point, r: float, fill, outline=None,
               width: int = 1) -> None:
    """A shape about 2r across, its corners the kit's markers' (a cube's square is the score
    chart's square)."""
    pts = marker_points(shape, centre, r)
    if pts is None:
        x, y = centre
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    else:
        d.polygon(pts, fill=fill, outline=outline, width=width)


def cube(d: ImageDraw.ImageDraw, colour: str, centre: Point, r: float, width: int = 2) -> None:
    """One goods cube: its shape filled with its colour, dark-edged so it shows on any city."""
    draw_shape(d, style.GOODS_SHAPES[colour], centre, r, style.goods_rgb(colour), style.CASING, width)


def emblem(d: ImageDraw.ImageDraw, colour: str, centre: Point, r: float, width: int = 2) -> None:
    """A city's colour as a shape: hollow, in the ink that reads on the city's own colour, so it
    is never taken for a cube."""
    draw_shape(d, style.GOODS_SHAPES[colour], centre, r, None, style.goods_ink(colour), width)


def growth_marker(d: ImageDraw.ImageDraw, centre: Point, r: float) -> None:
    """A city that has grown: a dark disc with a white plus."""
    x, y = centre
    d.ellipse((x - r, y - r, x + r, y + r), fill=style.GROWTH, outline=style.NAME_HALO, width=2)
    a, t = r * 0.6, max(2, round(r * 0.3))
    d.line((x - a, y, x + a, y), fill=style.GROWTH_TEXT, width=t)
    d.line((x, y - a, x, y + a), fill=style.GROWTH_TEXT, width=t)


def seat_marker(d: ImageDraw.ImageDraw, seat: int, centre: Point, r: float, width: int = 2) -> None:
    draw_marker(d, style.player_marker(seat), centre, r, style.player_rgb(seat), outline=style.CASING, width=width)


def open_end(d: ImageDraw.ImageDraw, point: Point, angle: float, half: float, width: int) -> None:
    """A buffer stop across an open track end: a bar square to the track at `point`
    (`angle` is the track's direction there, radians)."""
    x, y = point
    nx, ny = -math.sin(angle), math.cos(angle)
    d.line((x - nx * half, y - ny * half, x + nx * half, y + ny * half), fill=style.OPEN_END, width=width)
