"""Santa Fe colours: a dry western land, blue water, brown ranges, and the five railroads."""
from __future__ import annotations

from games.santa_fe.map import west
from render.kit import palette
from render.kit.symbols import Symbols

mix = palette.mix  # the renderers blend colours through style

RGB = tuple[int, int, int]

# --- the map -----------------------------------------------------------------------------------
LAND: RGB = (238, 226, 196)  # prairie and desert: warm parchment
FOREIGN: RGB = (226, 220, 206)  # Canada and Mexico: greyer, off the game board
WATER: RGB = (164, 200, 224)
COAST: RGB = (92, 140, 182)
RIVER: RGB = (70, 128, 196)
BORDER: RGB = (150, 140, 124)
RANGE_SHADE: RGB = (214, 192, 156)  # the wide band under a mountain range
RANGE_RIDGE: RGB = (134, 96, 62)  # the peaks drawn along its crest
RANGE_FILL: RGB = (196, 160, 118)
WATER_TEXT: RGB = (70, 112, 150)
RANGE_TEXT: RGB = (128, 92, 60)

TRACK_LINE: RGB = (196, 180, 150)  # the thin right-of-way line under a section's spaces
SPACE_FILL: RGB = (250, 245, 232)  # an empty track space
SPACE_EDGE: RGB = (150, 132, 108)
MOUNTAIN_FILL: RGB = (222, 198, 164)  # an empty space on a mountain line
MOUNTAIN_EDGE: RGB = (124, 86, 52)
RIVER_FILL: RGB = (198, 224, 244)  # the space where a line crosses a river
RIVER_EDGE: RGB = (60, 120, 196)
TILE_EDGE: RGB = (24, 24, 28)

CITY_FILL: RGB = (255, 252, 242)
CITY_EDGE: RGB = (70, 46, 34)
CITY_TEXT: RGB = (34, 28, 24)
VALUE_TEXT: RGB = (34, 28, 24)
SEVEN_FILL: RGB = (250, 214, 110)  # the 7-value cities on the coast: gold
HEAD_RING: RGB = (24, 24, 28)

# --- panels -----------------------------------------------------------------------------------
SIDEBAR_BG: RGB = (247, 244, 236)
DIVIDER: RGB = (80, 64, 50)
PANEL: RGB = (255, 255, 255)
PANEL_EDGE: RGB = (214, 206, 192)
TEXT: RGB = (28, 28, 32)
MUTED_TEXT: RGB = (100, 94, 88)
OVER_BG: RGB = (44, 44, 52)
CHOOSING_BG: RGB = (214, 128, 20)
DONE: RGB = (34, 139, 74)
MONEY: RGB = (30, 110, 60)
CARD_BG: RGB = (246, 236, 210)  # a city card
CARD_INK: RGB = (120, 60, 30)
DOUBLE_BG: RGB = (60, 78, 130)  # the double turn card
HIGHLIGHT: RGB = (214, 40, 140)  # the cities in the viewer's hand, on the hand image's map
# ...and the cities the viewer played: dark, not the seat's colour, which may look like the
# magenta to a red-green reader (a purple seat does for protanopia).
PLAYED_RING: RGB = (36, 36, 44)

# Seat colours. Santa Fe's players own no track and the railroads are blue, white, green, red
# and yellow, so players get colours no railroad uses (a player in "UP red" would look like the
# Union Pacific), even for a red-green reader: measured with render.kit.vision, every seat is at
# least 11.4 ΔE00 from every railroad, river and 7-value gold in every vision (it asks 10; the
# earlier brown was 5.7 from UP red for a protanope), 20.0 from every other seat (it asks 20),
# 15.4 from the land and the panels (it asks 15), and each has its own colour name.
PLAYER_COLORS: list[RGB] = [
    (83, 33, 158),  # purple
    (237, 125, 5),  # orange
    (63, 196, 195),  # cyan
    (244, 93, 138),  # pink
    (50, 50, 56),  # charcoal
]

# The railroads' colours by the map file's colour name. The printed green and red both turn
# olive for a red-green reader: this green leans to blue-green and this red is deep, which
# keeps them apart in every vision (tested with render.kit.vision); tiles also carry codes.
RAILROAD_COLORS: dict[str, RGB] = {
    "blue": (30, 100, 210),
    "white": (246, 246, 240),
    "green": (0, 156, 128),
    "red": (190, 20, 30),
    "yellow": (245, 205, 30),
}


# Shapes: start cities are squares, special cities stars, the pips of the railroads reaching a
# city dots (circles), a line's head a dot with an arrow, the last turn a ring and the first
# player a flag; so the seats' played-card marks take five other shapes.
SYMBOLS = Symbols(seats=("triangle", "diamond", "triangle_down", "cross", "hexagon"),
                  marks={"city": {"start city": "square", "special city": "star"},
                         "marker": {"railroad reached": "circle", "line head": "arrow", "last turn": "ring",
                                    "first player": "flag"}})


def player_rgb(seat: int) -> RGB:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def rr_rgb(r: int) -> RGB:
    """A railroad's colour, from the map file's colour name."""
    name = west().railroads[r].color
    return RAILROAD_COLORS[name]


def rr_text(r: int) -> RGB:
    """Ink for the railroad's code on its own colour."""
    return palette.contrast_text(rr_rgb(r))


def rr_code(r: int) -> str:
    return west().railroads[r].code


def value_fill(value: int) -> RGB:
    return SEVEN_FILL if value == 7 else CITY_FILL
