"""Colours every Railyard image shares: seats, Ticket to Ride cards, readable text."""
from __future__ import annotations

RGB = tuple[int, int, int]

# Page colours for panels, charts and captions.
BACKGROUND: RGB = (250, 248, 242)  # warm off-white: softer than pure white in Discord's dark theme
INK: RGB = (34, 34, 40)
MUTED: RGB = (110, 110, 118)
GRID: RGB = (222, 218, 208)
DARK_TEXT: RGB = (20, 20, 24)
LIGHT_TEXT: RGB = (255, 255, 255)

# Seat colours, in seat order: Ticket to Ride's five train colours plus purple. They differ
# in hue and in lightness, so they stay apart for the common colour blindnesses (simulated
# with Machado et al. 2009: smallest CIELAB distance between two seats is 11.5 for
# protanopia (blue/purple), 21.9 deuteranopia, 19.3 tritanopia; red/green differ in
# lightness too). Renderers still print names next to colours: colour is never the only cue.
PLAYER_COLORS: list[RGB] = [
    (214, 48, 49),  # red
    (9, 110, 210),  # blue
    (0, 148, 80),  # green
    (240, 180, 0),  # yellow
    (60, 60, 68),  # black
    (142, 68, 173),  # purple (kept dark so it never reads as the pink card colour)
]

CARD_COLORS: dict[str, RGB] = {
    "red": (214, 40, 40),
    "orange": (240, 130, 20),
    "yellow": (245, 205, 30),
    "green": (40, 160, 70),
    "blue": (30, 100, 210),
    "pink": (232, 120, 190),
    "white": (246, 246, 240),
    "black": (40, 40, 44),
    # The locomotive is a wild card: brass, unlike any train colour, for swatches and
    # legends; card painters draw LOCOMOTIVE_STRIPES over it.
    "locomotive": (196, 156, 64),
    "gray": (170, 170, 170),  # gray routes (any one colour may claim them)
}
LOCOMOTIVE_STRIPES: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "pink")


def player_color(seat: int) -> RGB:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def luminance(rgb) -> float:
    """WCAG relative luminance (0 black .. 1 white) of an sRGB colour."""
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast_ratio(a, b) -> float:
    """WCAG contrast ratio between two colours (1 .. 21)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def contrast_text(rgb) -> RGB:
    """White or near-black text for a background `rgb`.

    White wins whenever it reaches 3.5:1: WCAG 2's formula underrates white on saturated
    mid-tones such as the green seat (APCA, its successor, prefers white there), and a
    white name on a coloured banner is what players expect. Otherwise the better ratio.
    """
    light = contrast_ratio(rgb, LIGHT_TEXT)
    if light >= 3.5:
        return LIGHT_TEXT
    return DARK_TEXT if contrast_ratio(rgb, DARK_TEXT) >= light else LIGHT_TEXT


def player_text(seat: int) -> RGB:
    """Text colour for a name written on the seat's colour."""
    return contrast_text(player_color(seat))


CARD_TEXT: dict[str, RGB] = {name: contrast_text(rgb) for name, rgb in CARD_COLORS.items()}


def player_rgb(seat: int) -> RGB:
    """A seat's colour as a plain (r, g, b) tuple."""
    return tuple(player_color(seat)[:3])  # type: ignore[return-value]


def darker(rgb: RGB, factor: float = 0.55) -> RGB:
    return tuple(int(c * factor) for c in rgb)  # type: ignore[return-value]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """a moved a fraction t of the way towards b."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]
