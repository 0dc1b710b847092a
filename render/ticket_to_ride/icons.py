"""Small pictures the Ticket to Ride images share: train, card and ticket icons, card faces.

Inline icons take the ImageDraw, the left-middle point and a height, draw, and return the
x where they end, so a caller can put a number right after them.
"""
from __future__ import annotations

from PIL import ImageDraw

from games.ticket_to_ride.map import LOCOMOTIVE
from render.kit.shapes import card
from render.ticket_to_ride import style

Box = tuple[int, int, int, int]

# The locomotive is every colour: its card face shows them as stripes.
_LOCO_STRIPES = ("red", "orange", "yellow", "green", "blue", "pink")


def turn_arrow(d: ImageDraw.ImageDraw, left_mid: tuple[float, float], size: int, fill) -> float:
    x, y = left_mid
    d.polygon([(x, y - size / 2), (x + size * 0.8, y), (x, y + size / 2)], fill=fill)
    return x + size * 0.8


def train(d: ImageDraw.ImageDraw, left_mid: tuple[float, float], size: int, colour) -> float:
    """A little wagon in the player's colour, with two wheels."""
    x, y = left_mid
    w, h = size * 1.25, size * 0.56
    top = y - size / 2 + 1
    d.rounded_rectangle((x, top, x + w, top + h), max(2, size // 8), fill=colour,
                        outline=style.CLAIM_OUTLINE, width=max(1, size // 12))
    r = size * 0.16
    for cx in (x + w * 0.27, x + w * 0.73):
        d.ellipse((cx - r, top + h - r * 0.4, cx + r, top + h + r * 1.6), fill=style.CLAIM_OUTLINE)
    return x + w


def cards(d: ImageDraw.ImageDraw, left_mid: tuple[float, float], size: int, colour=None) -> float:
    """Two overlapping cards (a hand)."""
    x, y = left_mid
    w, h = size * 0.62, size * 0.9
    edge = style.CLAIM_OUTLINE
    width = max(1, size // 12)
    d.rounded_rectangle((x, y - h / 2 + 2, x + w, y + h / 2 + 2), max(2, size // 9), fill=(236, 232, 224),
                        outline=edge, width=width)
    x2 = x + size * 0.3
    d.rounded_rectangle((x2, y - h / 2 - 2, x2 + w, y + h / 2 - 2), max(2, size // 9), fill=(255, 255, 255),
                        outline=edge, width=width)
    return x2 + w


def ticket(d: ImageDraw.ImageDraw, left_mid: tuple[float, float], size: int, colour=None) -> float:
    """A destination ticket: a cream slip with a dotted route on it."""
    x, y = left_mid
    w, h = size * 1.1, size * 0.72
    d.rounded_rectangle((x, y - h / 2, x + w, y + h / 2), max(2, size // 9), fill=style.TICKET_BG,
                        outline=style.CLAIM_OUTLINE, width=max(1, size // 12))
    r = max(1.5, size * 0.09)
    for fx, fy in ((0.25, 0.62), (0.75, 0.38)):
        cx, cy = x + w * fx, y - h / 2 + h * fy
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.TICKET_INK)
    d.line((x + w * 0.25, y - h / 2 + h * 0.62, x + w * 0.75, y - h / 2 + h * 0.38), fill=style.TICKET_INK,
           width=max(1, size // 14))
    return x + w


def card_face(d: ImageDraw.ImageDraw, box: Box, colour: str | None) -> None:
    """A train card seen face up (None: an empty slot)."""
    x0, y0, x1, y1 = box
    radius = max(4, (y1 - y0) // 7)
    if colour is None:
        d.rounded_rectangle(box, radius, fill=None, outline=style.PANEL_EDGE, width=3)
        return
    if colour == LOCOMOTIVE:
        d.rounded_rectangle(box, radius, fill=(255, 255, 255))
        n = len(_LOCO_STRIPES)
        inner = (x0 + 3, y0 + 3, x1 - 3, y1 - 3)
        h = (inner[3] - inner[1]) / n
        for i, c in enumerate(_LOCO_STRIPES):
            d.rectangle((inner[0], inner[1] + i * h, inner[2], inner[1] + (i + 1) * h), fill=style.card_rgb(c))
        d.rounded_rectangle(box, radius, outline=style.CLAIM_OUTLINE, width=2)
        return
    card(d, box, colour, radius=radius, outline=style.CLAIM_OUTLINE)
    # a darker band across the card: makes white/black/yellow cards read as cards at a glance
    band = (x0 + 4, y0 + (y1 - y0) * 0.4, x1 - 4, y0 + (y1 - y0) * 0.6)
    d.rectangle(band, fill=style.darker(style.card_rgb(colour), 0.82))


def deck(d: ImageDraw.ImageDraw, box: Box) -> None:
    """The draw pile: a small stack of card backs."""
    x0, y0, x1, y1 = box
    for k in (4, 2, 0):
        d.rounded_rectangle((x0 + k, y0 + 4 - k, x1 - 4 + k, y1 - k), 4, fill=style.CARD_BACK,
                            outline=style.CLAIM_OUTLINE, width=2)


def discard(d: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), 4, fill=None, outline=style.MUTED_TEXT, width=2)
    d.line((x0 + 8, y1 - 10, x1 - 8, y0 + 10), fill=style.MUTED_TEXT, width=3)


def ticket_pile(d: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    mid = (y0 + y1) / 2
    for k in (6, 0):
        ticket(d, (x0 + k / 2, mid - k), x1 - x0 - 6)
