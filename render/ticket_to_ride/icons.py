"""Small pictures the Ticket to Ride images share: train, card and ticket icons, card faces.

Inline icons take the ImageDraw, the left-middle point and a height, draw, and return the
x where they end, so a caller can put a number right after them.
"""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ticket_to_ride.map import LOCOMOTIVE
from render.kit.chart import draw_marker
from render.kit.palette import contrast_text
from render.kit.symbols import Symbols
from render.kit.text import draw_text
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


# Each seat has a shape, in seat order as on the score chart (render/kit/chart.py): drawn white
# with a dark edge on a claimed route's middle car and on the seat's tile beside its name, it
# names a route's owner without colour (a red player on a red route, or any colour-blind reader).
OWNER_MARK: tuple[int, int, int] = (255, 255, 255)


def seat_marker(seat: int) -> str:
    return SYMBOLS.seat(seat)


def owner_mark(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, seat: int, width: int) -> None:
    """The seat's shape, about 2r across, white with a `width` px dark edge."""
    draw_marker(d, seat_marker(seat), centre, r, OWNER_MARK, outline=style.CLAIM_OUTLINE, width=width)


def seat_tile(d: ImageDraw.ImageDraw, box: Box, seat: int) -> None:
    """A seat-coloured tile with the seat's shape on it: a claimed car seen from above, the key
    that links a name in a strip or a row to that player's trains on the map."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, max(3, (x1 - x0) // 5), fill=style.player_rgb(seat), outline=style.CLAIM_OUTLINE,
                        width=2)
    r = min(x1 - x0, y1 - y0) * 0.33
    owner_mark(d, ((x0 + x1) / 2, (y0 + y1) / 2), r, seat, max(2, round(r / 4)))


# Each card colour also has a shape, drawn on its cards and in its route spaces, so a route or
# a card is told apart by more than its hue (red and green look alike to many players).
SHAPES = {"red": "circle", "orange": "triangle", "yellow": "square", "green": "diamond", "blue": "plus",
          "pink": "ring", "white": "bar", "black": "cross", LOCOMOTIVE: "star"}
# The card colours take nine shapes, the turn's pointer an arrow: the seats' shapes (white on a
# claimed route's middle car, on the strips and the score chart) are five others.
SYMBOLS = Symbols(seats=("triangle_down", "hexagon", "hourglass", "heart", "crescent"),
                  marks={"card colour": SHAPES, "marker": {"turn": "arrow"}})


def colour_mark(d: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, colour: str, fill,
                angle: float = 0.0) -> None:
    """The colour's shape, `size` across, centred and turned by `angle` (radians)."""
    kind = SHAPES.get(colour)
    if kind is None:
        return
    cx, cy = centre
    r = size / 2
    ca, sa = math.cos(angle), math.sin(angle)

    def pts(points):
        return [(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in points]

    w = max(1, round(size / 4))
    if kind == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif kind == "ring":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fill, width=w)
    elif kind == "triangle":
        d.polygon(pts([(-r, r * 0.85), (r, r * 0.85), (0, -r)]), fill=fill)
    elif kind == "square":
        q = r * 0.8
        d.polygon(pts([(-q, -q), (q, -q), (q, q), (-q, q)]), fill=fill)
    elif kind == "diamond":
        d.polygon(pts([(0, -r), (r, 0), (0, r), (-r, 0)]), fill=fill)
    elif kind == "plus":
        d.line(pts([(-r, 0), (r, 0)]), fill=fill, width=w + 1)
        d.line(pts([(0, -r), (0, r)]), fill=fill, width=w + 1)
    elif kind == "cross":
        q = r * 0.8
        d.line(pts([(-q, -q), (q, q)]), fill=fill, width=w + 1)
        d.line(pts([(-q, q), (q, -q)]), fill=fill, width=w + 1)
    elif kind == "bar":
        d.polygon(pts([(-r, -r * 0.35), (r, -r * 0.35), (r, r * 0.35), (-r, r * 0.35)]), fill=fill)
    elif kind == "star":
        star = []
        for k in range(10):
            rr = r if k % 2 == 0 else r * 0.45
            a = -math.pi / 2 + k * math.pi / 5
            star.append((rr * math.cos(a), rr * math.sin(a)))
        d.polygon(pts(star), fill=fill)


def mark_ink(colour: str):
    """Ink for a colour's shape and letter drawn on that colour."""
    return contrast_text(style.card_rgb(colour))


def lettered_card(img: Image.Image, box: Box, colour: str | None, lang: str, size: int) -> None:
    """A card face with its colour's letter (size px) and shape, so it reads without colour."""
    d = ImageDraw.Draw(img)
    card_face(d, box, colour)
    if colour is None:
        return
    x0, y0, x1, y1 = box
    letter = translate(lang, f"ticket_to_ride.card_letter.{colour}")
    cx = (x0 + x1) / 2
    if colour == LOCOMOTIVE:  # letter on a white plate: it stays readable over the stripes
        w = min(x1 - x0 - 8, size * 1.6)
        d.rounded_rectangle((cx - w / 2, y0 + (y1 - y0) * 0.18, cx + w / 2, y0 + (y1 - y0) * 0.82), 6,
                            fill=(255, 255, 255), outline=style.CLAIM_OUTLINE, width=2)
        ink = style.CLAIM_OUTLINE
    else:
        ink = mark_ink(colour)
    mark = max(8, min(size * 0.55, (y1 - y0) * 0.22))
    if y1 - y0 >= size * 2.2:  # room for the shape above the letter
        colour_mark(d, (cx, y0 + (y1 - y0) * 0.28), mark, colour, ink)
        draw_text(img, (cx, y0 + (y1 - y0) * 0.64), letter, size, ink, bold=True, anchor="mm")
    else:
        draw_text(img, (cx, (y0 + y1) / 2), letter, size, ink, bold=True, anchor="mm")


def card_back(img: Image.Image, box: Box) -> None:
    """A face-down card (drawn from the deck: which colour stays secret)."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, max(4, (y1 - y0) // 7), fill=style.CARD_BACK, outline=style.CLAIM_OUTLINE, width=2)
    d.rounded_rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), max(3, (y1 - y0) // 9), outline=(150, 166, 200), width=2)


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
    d.rounded_rectangle(box, radius, fill=style.CARD_COLORS.get(colour, (200, 200, 200)), outline=style.CLAIM_OUTLINE,
                        width=2)


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
