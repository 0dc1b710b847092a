"""Shapes the renderers share: rounded boxes and rotated rectangles (train-car spaces)."""
from __future__ import annotations

import math

from PIL import ImageDraw


def rounded_rect(draw: ImageDraw.ImageDraw, box, radius: int, fill=None, outline=None, width: int = 1) -> None:
    draw.rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)


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


def draw_rotated_rect(draw: ImageDraw.ImageDraw, center, length: float, width: float, angle: float,
                      fill, outline=None) -> None:
    draw.polygon(rotated_rect_points(center, length, width, angle), fill=fill, outline=outline)


def card(draw: ImageDraw.ImageDraw, box, color: str, radius: int = 6, outline=(40, 40, 40)) -> None:
    from render.kit.palette import CARD_COLORS

    draw.rounded_rectangle(box, radius, fill=CARD_COLORS.get(color, (200, 200, 200)), outline=outline, width=2)
