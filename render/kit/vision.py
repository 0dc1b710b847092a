"""Colour-vision check: can every reader tell the colours of a game's palette apart?

About one man in twelve sees colour with a red-green deficiency; for the strongest forms,
deuteranopia and protanopia, a red and a green seat can both look olive. `problems()`
simulates normal vision and both dichromacies and lists every pair of colours that come
too close in any of them.

Simulation: coloraide's Brettel, Viénot & Mollon (1997) model at full severity, the
published model for dichromats (it projects onto the two half-planes a dichromat can
still tell apart), run in linear sRGB as the model expects.

Distance: CIEDE2000 (ΔE00), the CIE's current colour-difference formula. It corrects
CIELAB's over-weighting of saturated colours, which would otherwise flatter pairs such as
a bright yellow and a light green; its numbers are the familiar ones (about 1 is a just
noticeable difference side by side, 10 is "clearly another colour").

The minimums below are what a player needs to tell two small things apart at a glance on
a board shown 400 px wide (train pieces a few pixels thick, a name banner), not side by
side in a large swatch, so they sit well above the noticeable-difference level.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Sequence

from coloraide import Color

from render.kit.images import Palette

RGB = tuple[int, int, int]

VISIONS: tuple[str, ...] = ("normal", "deutan", "protan")
VISION_NAMES = {"normal": "normal vision", "deutan": "deuteranopia", "protan": "protanopia"}

# Two seats' pieces are often only a few pixels wide and side by side on a shared route,
# so they need a difference that still reads as "another player" when the hue is lost:
# about a third of the black-to-white lightness range in dichromat vision.
MIN_PLAYER_VS_PLAYER = 20.0
# A piece on the map or a panel is outlined by nothing but its contrast with what is
# under it: at 15 ΔE00 it stays a distinct shape when shrunk, below it blends in.
MIN_PLAYER_VS_SURFACE = 15.0
# A chart category next to a player colour only has to avoid being taken for that player;
# the legend and labels carry the meaning, so the bar is lower than between two seats.
MIN_CATEGORY_VS_PLAYER = 12.0


@lru_cache(maxsize=4096)
def seen(rgb: RGB, vision: str) -> Color:
    """The colour as a reader with `vision` sees it (a coloraide Color)."""
    colour = Color("srgb", [c / 255 for c in rgb[:3]])
    if vision == "normal":
        return colour
    return colour.filter(vision, 1, method="brettel", out_space="srgb").clip()


def distance(a: RGB, b: RGB, vision: str = "normal") -> float:
    """CIEDE2000 difference between two sRGB colours as seen with `vision`."""
    return seen(tuple(a[:3]), vision).delta_e(seen(tuple(b[:3]), vision), method="2000")


def smallest(a: RGB, b: RGB) -> tuple[float, str]:
    """The smallest difference between a and b over every simulated vision, and which vision."""
    return min((distance(a, b, v), v) for v in VISIONS)


def _hex(rgb: RGB) -> str:
    return "#%02x%02x%02x" % tuple(rgb[:3])


def _pair_problems(what: str, pairs, minimum: float) -> list[str]:
    out = []
    for label_a, a, label_b, b in pairs:
        for vision in VISIONS:
            d = distance(a, b, vision)
            if d < minimum:
                out.append(f"{what}: {label_a} {_hex(a)} vs {label_b} {_hex(b)} "
                           f"ΔE00 {d:.1f} < {minimum:g} in {VISION_NAMES[vision]}")
    return out


def problems(palette: Palette) -> list[str]:
    """Every pair of the palette's colours that comes too close, one line each (empty = pass).

    Checked: each pair of player colours, each player colour against each surface, each
    category colour against each player colour; in normal vision, deuteranopia and
    protanopia.
    """
    players = [tuple(p[:3]) for p in palette.players]
    out = _pair_problems(
        "player vs player",
        [(f"seat {i + 1}", a, f"seat {j + 1}", b) for (i, a), (j, b) in combinations(enumerate(players), 2)],
        MIN_PLAYER_VS_PLAYER)
    out += _pair_problems(
        "player vs surface",
        [(f"seat {i + 1}", p, f"surface {name!r}", tuple(s[:3]))
         for i, p in enumerate(players) for name, s in palette.surfaces.items()],
        MIN_PLAYER_VS_SURFACE)
    out += _pair_problems(
        "category vs player",
        [(f"category {k + 1}", tuple(c[:3]), f"seat {i + 1}", p)
         for k, c in enumerate(palette.categories) for i, p in enumerate(players)],
        MIN_CATEGORY_VS_PLAYER)
    return out


def report(colours: Sequence[RGB]) -> dict[str, float]:
    """The smallest pairwise difference among `colours` in each vision (for tuning notes)."""
    return {v: min((distance(a, b, v) for a, b in combinations(colours, 2)), default=float("inf"))
            for v in VISIONS}
