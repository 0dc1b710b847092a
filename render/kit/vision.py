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

Names: players say "the blue player", so two seats should not be shades of one colour (a sky
blue, a teal and a navy pass every distance above for most readers, yet all three are "blue").
`colour_name` gives a colour the basic colour term most people would use (`NAMES`), and the
seats of a palette must all have different names.
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
# A colour that means something else on the board (a goods colour, a railroad, a terrain, a card
# colour) must not be taken for a player's, nor for another of its kind: a red city beside a
# dark-brown seat's track reads as that seat's. Such things also carry their own shape, sign or
# code and are other pieces than a seat's, so the colour need only read as another colour on the
# same board: CIEDE2000's "clearly another colour".
MIN_MARK = 10.0

# The basic colour terms people name things with, each at the colour the xkcd colour survey's
# (2010) respondents gave that name on average. A chromatic colour takes the name whose colour is
# nearest in OKLCh hue; a dark orange or yellow is brown; a nearly grey one is black, grey or white
# by lightness.
NAMES: dict[str, str] = {"red": "#e50000", "orange": "#f97306", "yellow": "#ffff14", "green": "#15b01a",
                         "blue": "#0343df", "purple": "#7e1e9c", "pink": "#ff81c0"}
GREY_CHROMA = 0.04       # OKLCh chroma below which a colour reads as black, grey or white
BLACK_BELOW, WHITE_ABOVE = 0.40, 0.92   # OKLCh lightness
BROWN_BELOW = 0.55       # OKLCh lightness below which an orange or a yellow is a brown


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


@lru_cache(maxsize=1)
def _name_hues() -> dict[str, float]:
    return {name: Color(code).convert("oklch")["hue"] for name, code in NAMES.items()}


@lru_cache(maxsize=1024)
def colour_name(rgb: RGB) -> str:
    """The basic colour term most readers would give `rgb` (in normal vision)."""
    lightness, chroma, hue = Color("srgb", [c / 255 for c in rgb[:3]]).convert("oklch").coords()
    if chroma < GREY_CHROMA:
        return "black" if lightness < BLACK_BELOW else "white" if lightness > WHITE_ABOVE else "grey"
    name = min(_name_hues().items(), key=lambda item: min(abs(hue - item[1]), 360 - abs(hue - item[1])))[0]
    return "brown" if name in ("orange", "yellow") and lightness < BROWN_BELOW else name


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
    category colour against each player colour, each pair of marks of one kind and each mark
    against each player colour (unless the marks are the players' own, Marks.of_players); in
    normal vision, deuteranopia and protanopia. And every seat has its own colour name.
    """
    players = [tuple(p[:3]) for p in palette.players]
    out = _name_problems(players)
    out += _pair_problems(
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
    for kind, marks in palette.marks.items():
        colours = [(f"{kind} {name!r}", tuple(c[:3])) for name, c in marks.colours.items()]
        out += _pair_problems(
            f"{kind} vs {kind}", [(la, a, lb, b) for (la, a), (lb, b) in combinations(colours, 2)],
            MIN_MARK if marks.apart is None else marks.apart)
        if not marks.of_players:
            out += _pair_problems(
                f"{kind} vs player", [(label, c, f"seat {i + 1}", p) for label, c in colours
                                      for i, p in enumerate(players)],
                MIN_MARK)
    return out


def _name_problems(players: Sequence[RGB]) -> list[str]:
    by_name: dict[str, list[int]] = {}
    for i, p in enumerate(players):
        by_name.setdefault(colour_name(p), []).append(i + 1)
    return [f"player names: seats {', '.join(map(str, seats))} are all {name}"
            for name, seats in by_name.items() if len(seats) > 1]


def report(colours: Sequence[RGB]) -> dict[str, float]:
    """The smallest pairwise difference among `colours` in each vision (for tuning notes)."""
    return {v: min((distance(a, b, v) for a, b in combinations(colours, 2)), default=float("inf"))
            for v in VISIONS}
