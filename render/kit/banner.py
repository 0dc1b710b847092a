"""The "whose move" banner at the top of a board's panel: a rounded bar in the mover's colour
with an arrow when someone is to move, the title on the left and a short note on the right.

Shared by the games' sidebars so the banner looks and behaves the same in every game; each
passes its own sizes and its own text function (a game that caches glyph masks passes its
stamping function, which draws the same pixels as `draw_text`)."""
from __future__ import annotations

from typing import Callable

from PIL import Image, ImageDraw

from render.kit.palette import contrast_text
from render.kit.text import draw_text, measure

RGB = tuple[int, int, int]


def draw_banner(img: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str, sub: str,
                bg: RGB, arrow: bool, *, title_size: int, text_size: int, sub_room: int,
                text: Callable[..., tuple] = draw_text) -> int:
    """Draw the banner in `box` (left, top, right, bottom) and return its bottom. The note
    takes at most `sub_room` pixels; the title is cut to what is left."""
    left, top, right, bottom = box
    fg = contrast_text(bg)
    d.rounded_rectangle(box, 12, fill=bg)
    mid = top + (bottom - top) // 2
    x = left + 14
    if arrow:
        d.polygon([(x, mid - 13), (x + 18, mid), (x, mid + 13)], fill=fg)
        x += 28
    sub_w = min(measure(sub, text_size)[0], sub_room)
    end = text(img, (x, mid), title, title_size, fg, bold=True, anchor="lm",
               max_width=right - 14 - sub_w - 20 - x)[2]
    text(img, (right - 14, mid), sub, text_size, fg, anchor="rm", max_width=int(right - 14 - end - 20))
    return bottom
