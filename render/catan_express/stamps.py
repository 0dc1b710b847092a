"""Text drawn from remembered coverage masks, for the words a Catan Express board repeats on
every move at the same places (hex labels, column heads, names, counts, the last events).

Laying text out and rasterising it is most of what a board costs to draw. Drawing text on an
RGB image is: coverage mask of the glyphs (per font, text and sub-pixel offset), then the ink
blended through it. So the mask and the box draw_text returns are kept per (text, position,
size, weight, anchor, width limit, halo) and the ink is blended through the same mask at the
same pixels: the result is the same pixels draw_text gives (the tests compare whole boards).

Text with emoji (drawn from a colour font, not through a mask) and images not in RGB go to
draw_text itself, and so does everything inside `plain()`, the reference the tests hold the
stamps to.
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Iterator

from PIL import Image

from render.kit.legibility import note_text, recording_text_sizes
from render.kit.text import draw_text, measure, segments

_PLAIN: ContextVar[bool] = ContextVar("ce_plain_text", default=False)


@contextmanager
def plain() -> Iterator[None]:
    """Draw every text afresh (and every cached patch of this package's images from scratch)."""
    token = _PLAIN.set(True)
    try:
        yield
    finally:
        _PLAIN.reset(token)


def is_plain() -> bool:
    return _PLAIN.get()


def stamp_text(img: Image.Image, xy: tuple[float, float], text: str, size: int, fill, bold: bool = False,
               anchor: str = "la", max_width: int | None = None, stroke_width: int = 0,
               stroke_fill=None) -> tuple[int, int, int, int]:
    """draw_text's drawing and its returned box, from masks kept after the first time."""
    if img.mode != "RGB" or _PLAIN.get():
        return draw_text(img, xy, text, size, fill, bold, anchor, max_width, stroke_width, stroke_fill)
    made = _masks(str(text), float(xy[0]), float(xy[1]), size, bold, anchor, max_width,
                  stroke_width if stroke_fill is not None else 0)
    if made is None:
        return draw_text(img, xy, text, size, fill, bold, anchor, max_width, stroke_width, stroke_fill)
    shown, halo, letters, at, box = made
    note_text(size, shown)
    if letters is None:  # nothing inked (an empty string)
        return box
    area = (at[0], at[1], at[0] + letters.width, at[1] + letters.height)
    if halo is not None:
        img.paste(_rgb(stroke_fill), area, halo)
        if _rgb(stroke_fill) == _rgb(fill):  # Pillow draws the letters only in another ink
            return box
    img.paste(_rgb(fill), area, letters)
    return box


def _rgb(colour) -> tuple[int, int, int]:
    return tuple(colour[:3]) if isinstance(colour, tuple) else colour


@lru_cache(maxsize=2048)
def _masks(text: str, x: float, y: float, size: int, bold: bool, anchor: str, max_width: int | None,
           stroke: int):
    """(shown text, halo mask or None, letters mask or None, where the masks go, draw_text's box),
    or None for text with emoji. The masks are drawn white on black on a scratch image whose
    origin lies an even number of pixels right of and below the target's (never left or above:
    x - ox is then exact, and text cut off at the target's edge is cut off alike), so
    sub-pixel offsets and the box's rounding (half to even) come out as on the target."""
    if any(is_emoji for is_emoji, _ in segments(text, bold)):
        return None
    reach = measure(text, size, bold)[0] + 2 * size + 2 * stroke + 4
    rise = 2 * size + stroke + 4
    ox, oy = max(0, math.floor(x) - reach) & ~1, max(0, math.floor(y) - rise) & ~1
    scratch = (math.floor(x) - ox + reach + 2, math.floor(y) - oy + rise + 2)
    at = (x - ox, y - oy)
    with recording_text_sizes() as seen:  # the text as shown (cut to max_width), noted per use
        letters = Image.new("L", scratch, 0)
        box = draw_text(letters, at, text, size, 255, bold, anchor, max_width)
        halo = None
        if stroke:
            halo = Image.new("L", scratch, 0)
            draw_text(halo, at, text, size, 255, bold, anchor, max_width, stroke, 255)
    shown = seen.drawn[0][1] if seen.drawn else text
    box = (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)
    ink = (halo if halo is not None else letters).getbbox()
    if ink is None:
        return shown, None, None, (0, 0), box
    halo = halo.crop(ink) if halo is not None else None
    return shown, halo, letters.crop(ink), (ox + ink[0], oy + ink[1]), box
