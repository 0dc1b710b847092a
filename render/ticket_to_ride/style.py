"""Ticket to Ride colours: the board's own tints, on top of the shared palette."""
from __future__ import annotations

from render.kit.palette import darker, mix, player_rgb  # noqa: F401 (re-exported)
from render.kit.text import signed  # noqa: F401 (re-exported)

RGB = tuple[int, int, int]

MAP_BG: RGB = (236, 228, 204)  # parchment
SIDEBAR_BG: RGB = (247, 245, 240)
DIVIDER: RGB = (70, 64, 56)
CITY_FILL: RGB = (250, 246, 236)
CITY_EDGE: RGB = (88, 52, 40)
CITY_TEXT: RGB = (34, 30, 28)
TEXT: RGB = (28, 28, 32)
MUTED_TEXT: RGB = (96, 92, 88)
PANEL: RGB = (255, 255, 255)
PANEL_EDGE: RGB = (214, 208, 198)
CLAIM_OUTLINE: RGB = (22, 22, 26)
GRAY_ROUTE: RGB = (168, 164, 158)
FINAL_BG: RGB = (196, 40, 40)
OVER_BG: RGB = (40, 44, 52)


# The card (and route) colours. Red, orange, green and the brass all turn olive or
# mustard for a red-green reader, so they are spread over lightness: a deep red, a light orange,
# a dark blue-green, a mid brass. Measured with render/kit/vision.py, every two of the ten are at
# least 13.1 ΔE00 apart in normal vision, deuteranopia and protanopia (the check asks 10; the
# earlier green was 3.4 from the brass and 4.9 from the orange for a protanope). Each colour
# also has its own shape (icons.SHAPES).
CARD_COLORS: dict[str, RGB] = {
    "red": (170, 25, 30),
    "orange": (239, 134, 12),
    "yellow": (251, 217, 29),
    "green": (18, 119, 81),
    "blue": (30, 100, 210),
    "pink": (229, 123, 203),
    "white": (246, 246, 240),
    "black": (40, 40, 44),
    # The locomotive is a wild card: brass, unlike any train colour, for swatches and legends.
    "locomotive": (168, 145, 104),
    "gray": (170, 170, 170),  # gray routes (any one colour may claim them)
}


def card_rgb(color: str) -> RGB:
    return CARD_COLORS[color]


UNCLAIMED_FADE = 0.28  # empty spaces are a little paler than trains, so claims stand out


def route_rgb(color: str) -> tuple[RGB, RGB]:
    """Fill and outline for an unclaimed route's cars."""
    base = GRAY_ROUTE if color == "gray" else card_rgb(color)
    fill = mix(base, MAP_BG, UNCLAIMED_FADE)
    if sum(base) > 600:  # white cars need a visible edge on parchment
        return (252, 251, 247), (140, 134, 124)
    return fill, darker(base, 0.7)
CHOOSING_BG: RGB = (214, 128, 20)
TICKET_BG: RGB = (244, 232, 196)
TICKET_INK: RGB = (150, 40, 40)
CARD_BACK: RGB = (60, 78, 120)
DONE: RGB = (34, 139, 74)
DONE_BG: RGB = (222, 243, 226)
FAILED_BG: RGB = (250, 226, 224)
