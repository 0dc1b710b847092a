"""Shapes the renderers share: rounded boxes, pills, rotated rectangles (train-car spaces)
and playing cards with a count badge."""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from render.kit import palette
from render.kit.text import draw_text, measure


def _draw(target) -> ImageDraw.ImageDraw:
    """Accept an Image or an ImageDraw, so callers can pass whichever they hold."""
    return ImageDraw.Draw(target) if isinstance(target, Image.Image) else target


def rounded_rect(draw, box, radius: int, fill=None, outline=None, width: int = 1) -> None:
    _draw(draw).rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)


def rotated_rect_points(center, length: float, width: float, angle: float) -> list[tuple[float, float]]:
    """Corners of a length x width rectangle centred on `center`, turned by `angle` radians."""
    cx, cy = center
    dx, dy = math.cos(angle), math.sin(angle)
    hl, hw = length / 2, width / 2
    return [
        (cx + dx * hl - dy * hw, cy + dy * hl + dx * hw),
        (cx + dx * hl + dy * hw, cy + dy * hl - dx * hw),
        (cx - dx * hl + dy * hw, cy - dy * hl - dx * hw),
        (cx - dx * hl - dy * hw, cy - dy * hl + dx * hw),
    ]


def draw_rotated_rect(draw, center, length: float, width: float, angle: float,
                      fill, outline=None, outline_width: int = 1) -> None:
    """One train-car space along a route (angle in radians, 0 = pointing right)."""
    points = rotated_rect_points(center, length, width, angle)
    d = _draw(draw)
    d.polygon(points, fill=fill)
    if outline is not None:
        # polygon(width=) draws the edge inside the shape; a closed line keeps it centred.
        d.line(points + points[:1], fill=outline, width=outline_width, joint="curve")


def pill(img: Image.Image, xy: tuple[float, float], label: str, size: int, fill,
         text_fill=None, anchor: str = "la", pad: int | None = None, bold: bool = True,
         outline=None) -> tuple[int, int, int, int]:
    """A capsule holding `label` (names, tags, "+10"); returns its box.

    `anchor` places the whole pill like draw_text places text (l/m/r, a/m).
    """
    pad = round(size * 0.5) if pad is None else pad
    text_w, text_h = measure(label, size, bold)
    w, h = text_w + 2 * pad, text_h + round(size * 0.1)
    x, y = xy
    x -= {"m": w / 2, "r": w}.get(anchor[:1], 0)
    y -= {"m": h / 2, "d": h, "s": h}.get(anchor[1:2], 0)
    box = (round(x), round(y), round(x + w), round(y + h))
    _draw(img).rounded_rectangle(box, h // 2, fill=fill, outline=outline, width=1 if outline else 0)
    colour = text_fill if text_fill is not None else palette.contrast_text(fill)
    draw_text(img, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, size, colour, bold=bold, anchor="mm")
    return box


def card_glyph(img: Image.Image, xy: tuple[float, float], w: int, h: int, rgb, label: str | None = None,
               count: int | None = None, outline=(40, 40, 44)) -> tuple[int, int, int, int]:
    """A playing card w x h at top-left xy, optional centred label and a count badge
    straddling its top-right corner (how many of that card a player holds)."""
    x, y = round(xy[0]), round(xy[1])
    d = _draw(img)
    radius = max(3, min(w, h) // 7)
    d.rounded_rectangle((x, y, x + w, y + h), radius, fill=tuple(rgb[:3]), outline=outline,
                        width=max(1, min(w, h) // 30))
    if label:
        size = max(8, min(h // 5, round(w * 0.3)))
        draw_text(img, (x + w / 2, y + h / 2), label, size, palette.contrast_text(rgb), bold=True,
                  anchor="mm", max_width=w - 4)
    if count is not None:
        size = max(9, round(min(w, h) * 0.28))
        r = round(size * 0.75)
        text_w, _ = measure(str(count), size, True)
        half = max(r, text_w / 2 + size * 0.3)
        cx, cy = x + w, y
        d.rounded_rectangle((cx - half, cy - r, cx + half, cy + r), r, fill=palette.INK,
                            outline=(255, 255, 255), width=max(1, size // 10))
        draw_text(img, (cx, cy), str(count), size, (255, 255, 255), bold=True, anchor="mm")
    return (x, y, x + w, y + h)
