"""Colours every Railyard image shares: seats, page colours, readable text."""
from __future__ import annotations

RGB = tuple[int, int, int]

# Page colours for panels, charts and captions.
BACKGROUND: RGB = (250, 248, 242)  # warm off-white: softer than pure white in Discord's dark theme
INK: RGB = (34, 34, 40)
MUTED: RGB = (110, 110, 118)
GRID: RGB = (222, 218, 208)
DARK_TEXT: RGB = (20, 20, 24)
LIGHT_TEXT: RGB = (255, 255, 255)

# Seat colours, in seat order: Ticket to Ride's five train colours plus purple. A red and a
# green seat of equal lightness both turn olive for deuteranopes, so the seats are spread
# over lightness as well as hue: a dark brick red, a light sky blue, a mid jade green, a
# bright yellow, near-black and a deep purple. Measured with render/kit/vision.py (Brettel
# 1997 simulation, CIEDE2000): the closest two seats are 28.9 apart in normal vision
# (black/purple), 22.5 in deuteranopia (red/green) and 23.4 in protanopia (red/black), all
# above the check's 20; every seat is at least 25.3 from BACKGROUND (green; the check asks
# for 15). Renderers still print names next to colours: colour is never the only cue.
PLAYER_COLORS: list[RGB] = [
    (176, 36, 30),  # red
    (110, 168, 230),  # blue
    (60, 166, 120),  # green
    (246, 216, 40),  # yellow
    (28, 28, 32),  # black
    (100, 30, 160),  # purple (dark, so it never reads as the pink card colour)
]



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



def player_rgb(seat: int) -> RGB:
    """A seat's colour as a plain (r, g, b) tuple."""
    return tuple(player_color(seat)[:3])  # type: ignore[return-value]


def darker(rgb: RGB, factor: float = 0.55) -> RGB:
    return tuple(int(c * factor) for c in rgb)  # type: ignore[return-value]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """a moved a fraction t of the way towards b."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]
