"""Steam colours and marks: a pale green and tan land, blue water, the five goods colours with
a shape each, and the players' colours with the kit's seat markers.

Goods and city colours are read by everyone at a glance, so they were tuned with
render/kit/vision.py (Brettel simulation, CIEDE2000): the closest two of the five are 24.0
apart in normal vision, deuteranopia and protanopia alike (blue is dark, purple a light
lavender, gray a mid gray, so they differ in lightness when the hue is lost). Each colour
also has a shape (GOODS_SHAPES), drawn on every cube and on every city, so no reader has to
rely on the hue.

The players' colours avoid the goods' hues (a link in a "red player's" colour beside a red
city would read as the city's): every seat is at least 10.3 from every goods colour, black edge,
unowned link and river in every vision (render.kit.vision asks 10), 20.3 from every other seat
(it asks 20), 16.4 from plains, hills and the panel (it asks 15) and 12.5 from the final
chart's categories (it asks 12); and each has its own colour
name (orange, blue, purple, green, pink). No seat is black, which black edges are, nor brown,
which a red city turns into for a red-green reader. Found by a search over OKLCh around the
earlier seats, keeping the goods as they were.

Shapes (SYMBOLS): the goods take the five plainest (square, circle, triangle, diamond,
hexagon), so the seats' markers take five others (▼, ✕, ★, hourglass, heart); the growth
marker is a plus and an open end a bar: each shape means one thing on the board.
"""
from __future__ import annotations

from render.kit import highlight, palette
from render.kit.symbols import Symbols

RGB = tuple[int, int, int]
mix = palette.mix

# --- the map -------------------------------------------------------------------------------------
PLAINS: RGB = (218, 228, 192)
HILLS: RGB = (206, 186, 150)
HILL_MARK: RGB = (150, 122, 86)    # the little humps drawn on a hills hex
WATER: RGB = (168, 204, 230)
WATER_EDGE: RGB = (104, 152, 196)
WATER_TEXT: RGB = (52, 96, 140)
RIVER: RGB = (70, 132, 204)
GRID_LINE: RGB = (176, 184, 156)   # the thin outline between land hexes
BLACK_EDGE: RGB = (20, 20, 24)     # a side no track may cross
OFF_MAP: RGB = (236, 232, 222)
TOWN_FILL: RGB = (255, 255, 255)
TOWN_EDGE: RGB = (28, 28, 32)
CITY_EDGE: RGB = (34, 30, 28)
NAME_TEXT: RGB = (24, 22, 20)
NAME_HALO: RGB = (250, 250, 244)
LABEL_TEXT: RGB = (60, 60, 64)     # hex labels

# --- track ---------------------------------------------------------------------------------------
CASING: RGB = (24, 24, 28)          # the dark edge along every track, so light colours show on land
UNOWNED: RGB = (236, 236, 232)       # an unowned link: pale, dashed with UNOWNED_DASH
UNOWNED_DASH: RGB = (120, 120, 124)
OPEN_END: RGB = (24, 24, 28)

# --- goods: colour, shape and the one-letter code used in the legend --------------------------
GOODS: dict[str, RGB] = {
    "red": (180, 20, 30),
    "blue": (22, 72, 166),
    "yellow": (250, 220, 60),
    "purple": (200, 140, 230),
    "gray": (120, 120, 120),
}
GOODS_SHAPES: dict[str, str] = {
    "red": "square",
    "blue": "circle",
    "yellow": "triangle",
    "purple": "diamond",
    "gray": "hexagon",
}
GROWTH: RGB = (24, 24, 28)          # a growth marker's disc
GROWTH_TEXT: RGB = (255, 255, 255)

# --- panels --------------------------------------------------------------------------------------
PANEL_BG: RGB = (247, 244, 236)
PANEL: RGB = (255, 255, 255)
PANEL_EDGE: RGB = (214, 206, 192)
DIVIDER: RGB = (80, 72, 60)
TEXT: RGB = (28, 28, 32)
MUTED_TEXT: RGB = (100, 94, 88)
MONEY: RGB = (30, 110, 60)
LOSS: RGB = (176, 30, 30)
OVER_BG: RGB = (44, 44, 52)
BANKRUPT_BG: RGB = (120, 30, 30)

# --- players -------------------------------------------------------------------------------------
PLAYER_COLORS: list[RGB] = [
    (239, 126, 25),   # orange
    (106, 225, 252),  # light cyan
    (110, 6, 235),    # violet
    (30, 104, 49),    # dark green
    (213, 126, 159),  # pink
]

SYMBOLS = Symbols(seats=("triangle_down", "cross", "star", "hourglass", "heart"),
                  marks={"goods": GOODS_SHAPES, "marker": {"city grown": "plus", "open end": "bar"}})


def player_rgb(seat: int) -> RGB:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def player_marker(seat: int) -> str:
    """The seat's marker shape, on the board, the panel and the score chart."""
    return SYMBOLS.seat(seat)


def goods_rgb(colour: str) -> RGB:
    return GOODS[colour]


def goods_ink(colour: str) -> RGB:
    """Ink for a mark drawn on the goods colour."""
    return palette.contrast_text(GOODS[colour])


def key_colours() -> list[RGB]:
    """Every colour that carries meaning on a Steam picture — terrain, goods, players, panels,
    text, the kit's halo — so that the 256-colour PNG keeps each of them exactly
    (render.kit.encode.quantize_keeping)."""
    named = [v for k, v in globals().items() if k.isupper() and isinstance(v, tuple) and len(v) == 3]
    return [*named, *GOODS.values(), *PLAYER_COLORS, *(goods_ink(c) for c in GOODS),
            highlight.HALO_LIGHT, highlight.HALO_DARK, palette.INK, palette.BACKGROUND, palette.MUTED,
            palette.DARK_TEXT, palette.LIGHT_TEXT]
