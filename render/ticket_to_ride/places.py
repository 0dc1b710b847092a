"""Where Ticket to Ride's routes are on its board image, for pick pictures
(render.kit.picking): a route's number goes on the car that carries an owner's shape once
claimed (`board.marked_car`: the middle one, the two halves of a double route staggered along
it), and its cars are traced round (`board.route_line`), their colours and shapes left in
sight, on the map as the board places it.
"""
from __future__ import annotations

from functools import lru_cache

from games.core.choices import Place
from games.ticket_to_ride.decisions import route_place
from games.ticket_to_ride.map import usa
from games.ticket_to_ride.models import TicketToRideView
from render.kit.images import Places
from render.kit.picking import Mark
from render.ticket_to_ride.board import marked_car, route_line
from render.ticket_to_ride.layout import BOARD_H, BOARD_W, CAR_W, MAP_Y, board_layout

# A crop keeps a city dot and its name round the routes; the two halves of a short double
# route stand 18 px apart, which a picture shows by nudging their badges, not by a crop too
# narrow to find one's way on the map.
MARGIN = 40.0
FLOOR = 1000.0


@lru_cache(maxsize=1)
def _routes() -> dict[tuple[str, ...], int]:
    board = usa()
    return {route_place(board, r.id).at: r.id for r in board.routes}


def locate(view: TicketToRideView, place: Place) -> Mark | None:
    if place.kind != "route":
        return None
    route_id = _routes().get(tuple(place.at))
    if route_id is None:
        return None
    shape = board_layout().routes[route_id]
    x, y = marked_car(route_id).center
    return Mark(spot=(x, y + MAP_Y), line=tuple((px, py + MAP_Y) for px, py in route_line(shape.cars)),
                keep=CAR_W + 2)


def size(view: TicketToRideView) -> tuple[int, int]:
    return BOARD_W, BOARD_H


PLACES = Places(locate=locate, size=size, margin=MARGIN, floor=FLOOR)
