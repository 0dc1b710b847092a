"""Small pictures the Santa Fe images share: a star, a hand of cards, a double turn card, a
spur card, an engineer's cap, a track tile and a city-value badge.

Inline icons take the ImageDraw, the left-middle point and a height, draw, and return the
x where they end, so a caller can put a number right after them.
"""
from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.kit.text import draw_text
from render.santa_fe import style


def star(d: ImageDraw.ImageDraw, center: tuple[float, float], size: float, fill) -> None:
    """A five-pointed star `size` across, outlined dark (a railroad's special city)."""
    cx, cy = center
    outer, inner = size / 2, size / 2 * 0.45
    pts = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rad = outer if k % 2 == 0 else inner
        pts.append((cx + math.cos(a) * rad, cy + math.sin(a) * rad + size * 0.04))
    d.polygon(pts, fill=fill, outline=style.TILE_EDGE)


def cards(d: ImageDraw.ImageDraw, left_mid: tuple[float, float], size: int, colour=None) -> float:
    """Two overlapping city cards (a hand)."""
    x, y = left_mid
    w, h = size * 0.62, size * 0.9
    width = max(1, size // 12)
    d.rounded_rectangle((x, y - h / 2 + 2, x + w, y + h / 2 + 2), max(2, size // 9), fill=style.CARD_BG,
                        outline=style.TILE_EDGE, width=width)
    x2 = x + size * 0.3
    d.rounded_rectangle((x2, y - h / 2 - 2, x2 + w, y + h / 2 - 2), max(2, size // 9), fill=(255, 252, 244),
                        outline=style.TILE_EDGE, width=width)
    return x2 + w


def tile(d: ImageDraw.ImageDraw, left_mid: tuple[float, float], size: int, colour) -> float:
    """A track tile in a railroad's colour, lying flat."""
    x, y = left_mid
    w, h = size * 1.2, size * 0.6
    d.rounded_rectangle((x, y - h / 2, x + w, y + h / 2), max(2, size // 8), fill=colour, outline=style.TILE_EDGE,
                        width=max(2, size // 12))
    for f in (0.33, 0.67):
        d.line((x + w * f, y - h / 2 + 3, x + w * f, y + h / 2 - 3), fill=style.mix(colour, style.TILE_EDGE, 0.4),
               width=max(1, size // 14))
    return x + w


def value_badge(img: Image.Image, center: tuple[float, float], value: int, radius: float,
                faded: bool = False) -> None:
    """A city's value in a disc, as on the map (gold for the 7s); faded: worth nothing yet."""
    patch = _badge(value, radius, faded)
    x, y = round(center[0] - patch.width / 2), round(center[1] - patch.height / 2)
    img.paste(patch, (x, y), patch)
    # the number is drawn on the image itself (not cached in the patch) so the kit's
    # legibility check sees every value drawn
    ink = style.VALUE_TEXT if not faded else style.MUTED_TEXT
    draw_text(img, (center[0], center[1] + 1), str(value), badge_text_px(radius), ink, bold=True, anchor="mm")


def badge_text_px(radius: float) -> int:
    """The size of a value badge's number: as large as the disc holds."""
    return int(radius * 1.25)


@lru_cache(maxsize=256)
def _badge(value: int, radius: float, faded: bool) -> Image.Image:
    """Badge discs repeat on every image (a dozen per player): drawn once, pasted after."""
    size = int(2 * radius + 4)
    out = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(out)
    c = size / 2
    edge = style.CITY_EDGE if not faded else style.mix(style.CITY_EDGE, style.PANEL, 0.55)
    d.ellipse((c - radius, c - radius, c + radius, c + radius), fill=edge)
    r2 = radius - max(2, radius / 6)
    d.ellipse((c - r2, c - r2, c + r2, c + r2), fill=style.value_fill(value))
    return out


def double_card(img: Image.Image, box: tuple[int, int, int, int], size: int = 0) -> None:
    """The double turn card: a dark card with a big 2×."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, max(3, (y1 - y0) // 8), fill=style.DOUBLE_BG, outline=style.TILE_EDGE, width=2)
    draw_text(img, ((x0 + x1) / 2, (y0 + y1) / 2), "2×", size or int((y1 - y0) * 0.5), (255, 255, 255), bold=True,
              anchor="mm")


def spur_card(img: Image.Image, box: tuple[int, int, int, int], colour, label: str = "") -> None:
    """A spur card: the railroad's colour with a branching track drawn on it."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, max(3, (y1 - y0) // 8), fill=colour, outline=style.TILE_EDGE, width=2)
    ink = style.TILE_EDGE
    w, h = x1 - x0, y1 - y0
    lw = max(2, h // 12)
    bx, by = x0 + w * 0.3, y0 + h * (0.62 if label else 0.5)
    d.line((x0 + w * 0.12, by, x1 - w * 0.12, by), fill=ink, width=lw)
    d.line((bx, by, x1 - w * 0.2, by - h * 0.28), fill=ink, width=lw)
    if label:
        draw_text(img, ((x0 + x1) / 2, y0 + h * 0.26), label, max(10, int(h * 0.26)),
                  style.TEXT if sum(colour) > 400 else (255, 255, 255), bold=True, anchor="mm")


def engineer(d: ImageDraw.ImageDraw, left_mid: tuple[float, float], size: int, colour=None) -> float:
    """An engineer's cap (striped, with a peak)."""
    x, y = left_mid
    w = size * 1.05
    top, bottom = y - size * 0.38, y + size * 0.18
    d.chord((x, top, x + w * 0.8, bottom + (bottom - top)), 180, 360, fill=(70, 96, 150), outline=style.TILE_EDGE,
            width=max(1, size // 12))
    for f in (0.25, 0.5):
        xx = x + w * 0.8 * f + w * 0.08
        d.line((xx, top + 3, xx, bottom - 1), fill=(220, 228, 240), width=max(1, size // 14))
    d.rounded_rectangle((x + w * 0.45, bottom - size * 0.08, x + w, bottom + size * 0.12), max(1, size // 10),
                        fill=style.TILE_EDGE)
    return x + w
