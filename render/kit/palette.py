"""Colours every Railyard image shares: seats, Ticket to Ride cards, readable text."""
from __future__ import annotations

# Seat colours, in seat order: distinct in hue and in lightness (so they still differ for
# the common kinds of colour blindness), each dark or light enough to carry a name.
PLAYER_COLORS: list[tuple[int, int, int]] = [
    (214, 48, 49),  # red
    (9, 110, 210),  # blue
    (0, 148, 80),  # green
    (240, 180, 0),  # yellow
    (60, 60, 68),  # black
    (142, 68, 173),  # purple
]

CARD_COLORS: dict[str, tuple[int, int, int]] = {
    "red": (214, 40, 40),
    "orange": (240, 130, 20),
    "yellow": (245, 205, 30),
    "green": (40, 160, 70),
    "blue": (30, 100, 210),
    "pink": (232, 120, 190),
    "white": (246, 246, 240),
    "black": (40, 40, 44),
    "locomotive": (150, 150, 150),  # drawn with a rainbow band by the card painter
    "gray": (170, 170, 170),
}


def player_color(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def luminance(rgb) -> float:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def contrast_text(rgb) -> tuple[int, int, int]:
    """Black or white, whichever reads better on `rgb`."""
    return (20, 20, 24) if luminance(rgb) > 150 else (255, 255, 255)
