"""Where a Catan Express pick is on the board, for pick pictures (render.kit.picking): the places
the rules name in `Pick.place` (games/catan_express/decisions.py), located from the same layout
the board is drawn from (render/catan_express/layout.py).

    point   an intersection, "12": its number's spot (a settlement, a city, a stop)
    edge    a rail's spoke ("12", "C3") or a ferry's edge ("12", "13"): traced end to end, the
            number halfway along
    hex     a land hex, "C3" (the robber): the number in its lower left, beside the token
            the player weighs
    route   a locomotive's way, its points in order ("C3", "12", "D4"): traced, the number on
            its last leg near where it ends

The pictures crop the map without the intersections' own numbers (board.pick_map): the badges
are then the only numbers on white plates. `size` is the map's, the top of the board image, in
the same pixels, so the regions' compass words speak of the map and not of the panel below.
"""
from __future__ import annotations

import math

from games.catan_express.models import CatanView
from games.core.choices import Place
from render.catan_express.board import places_of, pick_map
from render.catan_express.layout import map_layout
from render.kit.images import Places
from render.kit.picking import Mark

Point = tuple[float, float]

HEX_SPOT = (120, 0.6)   # a hex's number: this far (hex sizes) at this angle from its centre
EDGE_SPOT = 0.5         # a rail's or ferry's number: this far along from its first end
ROUTE_SPOT = 0.5        # a route's number: halfway along its last leg, off the token or the
                        # building where it ends, which the player wants to see


def locate(view: CatanView, place: Place) -> Mark | None:
    pl = places_of(view)
    at = [pl.xy(name) for name in place.at]
    if any(p is None for p in at):
        return None
    pts: list[Point] = [p for p in at if p is not None]
    if place.kind == "point":
        return Mark(pts[0])
    if place.kind == "edge" and len(pts) == 2:
        (ax, ay), (bx, by) = pts
        return Mark((ax + (bx - ax) * EDGE_SPOT, ay + (by - ay) * EDGE_SPOT), line=(pts[0], pts[1]))
    if place.kind == "hex":
        if place.at[0].isdigit():  # an intersection, not a hex
            return None
        # No ring: the kit traces a line a quarter of a hex thick on the 6-player islands seen
        # whole, which would hide the buildings on the hex's corners, whom the robber robs.
        # The number inside the hex says which it is.
        cx, cy = pts[0]
        angle, dist = HEX_SPOT
        s = pl.ml.s
        return Mark((cx + dist * s * math.cos(math.radians(angle)), cy + dist * s * math.sin(math.radians(angle))))
    if place.kind == "route" and len(pts) >= 2:
        (ax, ay), (bx, by) = pts[-2], pts[-1]
        return Mark((ax + (bx - ax) * ROUTE_SPOT, ay + (by - ay) * ROUTE_SPOT), line=tuple(pts))
    return None


def size(view: CatanView) -> tuple[int, int]:
    return map_layout(view.state.map_id).size


# A hex is 63 (the 6-player islands) to 120 px (the 3-4 player main board) across its
# corners: a margin of about a hex around the options, and never a crop narrower than about
# four hexes, so a picture always shows the neighbourhood a player recognises.
PLACES = Places(locate=locate, size=size, margin=90, floor=420, board=pick_map)
