"""How large things are drawn on a Catan Express board image, in pixels.

The image is BOARD_W wide whatever the map, and its smallest type (MIN_TEXT, 7 px tall when the
board is shown 400 px wide) follows from that width alone. The pieces are sized in that type,
not in hexes, so that a piece's number reads on every map: the larger the hexes (the layout
makes them as large as the width allows, render/catan_express/layout.py), the less the pieces
crowd one another. The board draws the pieces at these sizes and the layout keeps room for them
at the same sizes, so both read them from here. Only rails and ferries grow with the hexes.
"""
from __future__ import annotations

from render.kit.legibility import min_font_px

BOARD_W = 1200
MIN_TEXT = min_font_px(BOARD_W)   # 21 px: 7 px at 400 px wide

POINT_R = round(MIN_TEXT * 0.7)        # an intersection's number disc
BUILDING_R = POINT_R * 1.55            # a city is twice this wide
LOCO_W, LOCO_H = MIN_TEXT * 2.1, MIN_TEXT * 1.45
LOCO_OFF = POINT_R + MIN_TEXT * 1.25   # a locomotive's centre from its intersection's
LOCO_BESIDE_BUILDING = 1.3             # ... and further out when a building stands there
LOCO_AT_CENTRE = 0.62                  # hex sizes right of a hex centre, for a locomotive there
LOCO_PITCH = LOCO_W * 0.62             # between locomotives side by side at one place
STOP_R = BUILDING_R + 8                # the ring round a stop


def rail_width(s: float) -> float:
    """A rail's width on hexes of size `s`."""
    return max(5.0, s * 0.085)


def ferry_pitch(s: float) -> tuple[float, float]:
    """(casing width, distance between the lines of owners side by side) of rails and ferries."""
    cw = rail_width(s) + 4
    return cw, cw * 0.92
