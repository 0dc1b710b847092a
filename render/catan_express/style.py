"""Catan Express colours and marks: pastel terrains on a blue sea, six player colours with the
kit's seat shapes, red 6s and 8s.

Why pastel land
    Rails, ferries, buildings and locomotives are drawn on every terrain, so each player
    colour must stand out from all seven terrains and the sea for every reader. Mid-tone
    terrains (a dark forest, a brick-red hill) would leave no room for six such colours; pale
    terrains leave the whole dark and saturated half for the players. The terrains still differ
    in hue for most readers and each carries a small drawn sign (trees, bricks, peaks, ...), so
    nobody needs the hue to know a forest from a pasture.

Why these six player colours
    Tuned with render/kit/vision.py (Brettel simulation, CIEDE2000) against the terrains, the
    sea and the panel: the closest two seats are 21.6 apart in normal vision, deuteranopia and
    protanopia (the check asks 20), every seat at least 16.7 from every surface (it asks 15) and
    11.5 from every resource colour and the stop's and the roll's rings (it asks 10). Each has
    its own colour name, so nobody is "the other blue": red, blue, orange, black, then purple
    and pink for the 5-6 player game. Every building and locomotive also carries its seat's
    shape (SYMBOLS), the same as on the score chart, so colour is never the only cue.

Why these terrains and resources
    A terrain says which resource a hex gives: the seven are at least 7.0 apart in every
    vision (8.5 in normal vision; the check asks 6 for whole hexes, each with its sign), and the
    five resource colours of the harbours' chips and the hand's cards at least 11.9 (it asks
    10). The earlier pasture and fields were 2.7 apart for a protanope: one colour. Found by a
    search over OKLCh around the earlier colours, the terrains kept pale.
"""
from __future__ import annotations

from render.kit import highlight, palette
from render.kit.chart import MARKERS
from render.kit.symbols import Symbols

RGB = tuple[int, int, int]
mix = palette.mix

# --- the map -------------------------------------------------------------------------------------
TERRAIN: dict[str, RGB] = {
    "forest": (171, 202, 139),
    "pasture": (201, 227, 186),
    "fields": (242, 247, 184),
    "hills": (217, 177, 165),
    "mountains": (192, 192, 192),
    "gold_river": (246, 216, 130),
    "desert": (224, 222, 211),
}
TERRAIN_APART = 6.0  # render.kit.vision: whole hexes side by side, each with its sign
TERRAIN_MARK: dict[str, RGB] = {  # the small sign drawn on each terrain
    "forest": (70, 112, 60),
    "pasture": (112, 150, 84),
    "fields": (184, 150, 50),
    "hills": (168, 92, 60),
    "mountains": (108, 108, 120),
    "gold_river": (170, 120, 20),
    "desert": (190, 170, 120),
}
SEA: RGB = (176, 210, 234)
SEA_EDGE: RGB = (110, 156, 196)     # the coast line
HEX_LINE: RGB = (120, 120, 112)     # between land hexes
OFF_MAP: RGB = (228, 236, 240)
LABEL_TEXT: RGB = (40, 40, 44)
LABEL_HALO: RGB = (255, 255, 255)
PRODUCED: RGB = (255, 214, 10)  # the ring round the tokens of the number just rolled
TOKEN: RGB = (252, 246, 228)
TOKEN_EDGE: RGB = (90, 80, 60)
TOKEN_TEXT: RGB = (28, 28, 32)
TOKEN_RED: RGB = (196, 16, 24)      # 6 and 8, the likeliest rolls (as printed)
POINT: RGB = (255, 255, 255)        # an intersection's number disc
POINT_EDGE: RGB = (70, 70, 76)
POINT_TEXT: RGB = (28, 28, 32)
HARBOUR: RGB = (255, 255, 255)
HARBOUR_EDGE: RGB = (40, 70, 110)
PIER: RGB = (112, 84, 52)
ROBBER: RGB = (46, 46, 52)
ROBBER_EDGE: RGB = (235, 235, 235)
STOP: RGB = (20, 84, 160)           # the ring round a race stop and its badge
STOP_TEXT: RGB = (255, 255, 255)

# --- pieces --------------------------------------------------------------------------------------
CASING: RGB = (24, 24, 28)          # the dark edge along rails and ferries, so every colour shows
FERRY_DASH: RGB = (255, 255, 255)   # a ferry is its owner's colour with white dashes

# --- panels --------------------------------------------------------------------------------------
PANEL_BG: RGB = (244, 241, 232)
PANEL: RGB = (255, 255, 255)
PANEL_EDGE: RGB = (214, 206, 192)
DIVIDER: RGB = (80, 72, 60)
TEXT: RGB = (28, 28, 32)
MUTED_TEXT: RGB = (100, 94, 88)
OVER_BG: RGB = (44, 44, 52)
DIE: RGB = (255, 255, 255)
DIE_PIP: RGB = (28, 28, 32)
RACE: RGB = (20, 84, 160)

RESOURCE: dict[str, RGB] = {  # resource cards in the hand image (with their names printed), harbour chips
    "lumber": (74, 132, 92),
    "brick": (178, 84, 44),
    "wool": (70, 227, 158),
    "grain": (236, 196, 64),
    "ore": (82, 82, 82),
}
DEV_CARD: RGB = (92, 60, 140)

# --- players -------------------------------------------------------------------------------------
PLAYER_COLORS: list[RGB] = [
    (153, 0, 0),      # red
    (10, 166, 254),   # blue
    (230, 115, 0),    # orange
    (20, 16, 18),     # black
    (57, 14, 129),    # purple
    (185, 95, 138),   # pink
]


def player_rgb(seat: int) -> RGB:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


# The seats keep the kit's six shapes; the awards and the stop's ring take none of them (the
# Fastest Driver is a chequered flag, not a diamond, which is the fourth seat).
SYMBOLS = Symbols(seats=MARKERS, marks={"award": {"Largest Army": "star", "Fastest Driver": "flag"},
                                        "marker": {"stop": "ring"}})


def player_marker(seat: int) -> str:
    """The seat's shape, the same as on the score chart."""
    return SYMBOLS.seat(seat)


def player_ink(seat: int) -> RGB:
    """Text and marks drawn on the seat's colour."""
    return palette.contrast_text(player_rgb(seat))


def key_colours() -> list[RGB]:
    """Every colour that carries meaning on a Catan Express picture, so the 256-colour PNG keeps
    each exactly (render.kit.encode.quantize_keeping)."""
    named = [v for k, v in globals().items() if k.isupper() and isinstance(v, tuple) and len(v) == 3]
    return [*named, *TERRAIN.values(), *TERRAIN_MARK.values(), *RESOURCE.values(), *PLAYER_COLORS,
            *(player_ink(s) for s in range(len(PLAYER_COLORS))), highlight.HALO_LIGHT, highlight.HALO_DARK,
            palette.INK, palette.BACKGROUND, palette.MUTED, palette.DARK_TEXT, palette.LIGHT_TEXT]
