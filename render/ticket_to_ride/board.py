"""The public Ticket to Ride board: a strip with the players on top, the USA map with every
route and the last turn's route ringed, and a strip below with the face-up row and the last turn.

Drawn from a view only, and only from its public fields (owners, counts, face-up row, public
events), so the image is the same whoever's view it is made from and cannot show a hand.

The map with unclaimed routes, city dots and names never changes: it is drawn once per
language (supersampled, so cars have smooth edges) and kept in a LayerCache. A move only
pastes claimed routes (small anti-aliased patches, cached per route and owner, the owner's
shape on the middle car), puts back the city names those routes touch, and draws the two strips.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ticket_to_ride.map import usa
from games.ticket_to_ride.models import TicketToRideView
from render.kit.encode import LayerCache, board_palette, drawn_on
from render.kit.highlight import halo_line, thickness
from render.kit.mapdiff import KeptMaps, Piece, outer_box
from render.kit.labels import MARK, NAME, TRACK, Label, Occupancy, Prices, Spots, label_size, place_names
from render.kit.regions import MAPS
from render.kit.text import draw_text
from render.ticket_to_ride import icons, style
from render.ticket_to_ride.layout import (
    BOARD_H,
    BOARD_W,
    CAR_W,
    CITY_R,
    CLAIMED_W,
    MAP_H,
    MAP_W,
    MAP_Y,
    BoardLayout,
    Car,
    board_layout,
)
from render.ticket_to_ride.strips import draw_strips

# The 256 colours this game's boards map onto from the first on (render.kit.make_board_palettes)
BOARD_PALETTE = board_palette(__file__)

SIZE = (MAP_W, MAP_H)
SS = 2  # supersampling factor for the static shapes
# 25 px on a 1400 px board is 7 px when Discord shows it 400 px wide: the smallest legible.
LABEL_SIZE = 25
LABEL_HALO = 4
LEGEND_SIZE = 25
# The owner's shape on a claimed route: 20 px across with a 2 px edge on the 1400 px board,
# about 8 px when Discord shows it 550 px wide, a little wider than the car it sits on.
OWNER_R = 10
OWNER_EDGE = 2


@dataclass(frozen=True)
class StaticMap:
    image: Image.Image  # the map: unclaimed routes, cities, names, route-points table
    mask: Image.Image  # "L": where city dots and names are (to restore them over claims)
    city_boxes: dict[str, tuple[int, int, int, int]]  # dot + name, per city


_STATIC = LayerCache()


def static_map(lang: str | None) -> StaticMap:
    """The cached static layer for a language (built on first use)."""
    return _STATIC.get(("ttr-board", lang, SIZE), lambda: _build_static(lang))


def render_board(view: TicketToRideView, names: Sequence[str], lang: str = "en") -> Image.Image:
    img = Image.new("RGB", (BOARD_W, BOARD_H), style.SIDEBAR_BG)
    over = view.phase == "over" and view.result is not None
    routes: list[int] = []
    if over:  # the story's end: the longest path(s)
        holders = [row.seat for row in view.result.players if (row.stats or {}).get("longest_bonus")]
        routes = [r for seat in holders for r in view.players[seat].longest_routes]

    ringed = ("longest", *routes) if over else ("last", view.turn_route)
    # A move that claims nothing (most draw cards) shows the map of the board before it: kept whole
    # (render.kit.regions), on the strip's flat colour.
    MAPS.paste(img, (0, MAP_Y, MAP_W, MAP_Y + MAP_H), ("ttr-map", lang, view.n, tuple(view.owners), ringed),
               lambda: _kept_map(view, lang, routes if over else _last_ringed(view)),
               ground=("ttr-board", style.SIDEBAR_BG))
    draw_strips(img, view, names, lang)
    return drawn_on(img, static_map(lang).image, BOARD_PALETTE)


def render_map(view: TicketToRideView, lang: str | None = "en", width: int | None = None, last_turn: bool = False,
               highlight: Sequence[int] = ()) -> Image.Image:
    """Just the map with the claimed routes, optionally scaled to `width`; `last_turn` rings
    the route the last turn claimed, `highlight` rings other routes (a longest path).
    lang None: a map without names or legend, for small copies where type could not be read."""
    base = static_map(lang)
    img = base.image.copy()
    ringed = list(highlight) + (_last_ringed(view) if last_turn else [])
    _draw_claims(img, base, view, lang, ringed)
    if width is not None and width != MAP_W:
        img = img.resize((width, round(MAP_H * width / MAP_W)), Image.Resampling.LANCZOS)
    return img


def _last_ringed(view: TicketToRideView) -> list[int]:
    if view.turn_route is not None and 0 <= view.turn_route < len(view.owners):
        return [view.turn_route]
    return []


# Maps of the last boards with their claims, to redraw only around what a move changed
# (render.kit.mapdiff): a claim redraws its route, the cities it touches and last turn's ring.
KEPT_MAPS = KeptMaps()


def _kept_map(view: TicketToRideView, lang: str, ringed: Sequence[int]) -> Image.Image:
    """render_map's map with `ringed` ringed, redrawn from a kept map where it can be (not to be drawn on)."""
    base = static_map(lang)
    pieces = map_pieces(base, view, lang, ringed)
    return KEPT_MAPS.draw_over(("ttr-map", lang), base.image, pieces)


# --- the dynamic map layer ---------------------------------------------------------------------
def _draw_claims(img: Image.Image, base: StaticMap, view: TicketToRideView, lang: str, ringed: Sequence[int] = ()) -> None:
    for piece in map_pieces(base, view, lang, ringed):
        piece.draw(img)


def map_pieces(base: StaticMap, view: TicketToRideView, lang: str | None, ringed: Sequence[int] = ()) -> list[Piece]:
    """What the map draws over its static layer, in order: the rings, the claimed routes (and
    the halves closed beside them), then the city names and dots those touch, put back on top."""
    board = usa()
    # With few players only one half of a double route may be used: the other one fades out.
    one_half_only = view.n < board.rules.doubles_min_players
    touched: set[str] = set()
    layout = board_layout()
    pieces: list[Piece] = []
    for route_id in ringed:  # the halo first, the cars on top: a white-and-black outline remains
        pieces.append(_halo_piece(route_id))
        touched.update(_cities_under(route_id, lang))
    for route_id, seat in enumerate(view.owners):
        if seat < 0:
            continue
        pieces.append(_patch_piece(("claim", route_id, seat), *claimed_patch(route_id, seat)))
        touched.update(_cities_under(route_id, lang))
        twin = board.twin.get(route_id)
        if one_half_only and twin is not None and view.owners[twin] < 0:
            pieces.append(_patch_piece(("closed", twin), *closed_patch(twin)))
            touched.update(_cities_under(twin, lang))
    for city in sorted(touched):  # names and dots stay on top of the trains
        pieces.append(_city_piece(base, city))
    return pieces


@lru_cache(maxsize=None)
def _halo_piece(route_id: int) -> Piece:
    line = route_line(board_layout().routes[route_id].cars)
    band, edge = thickness(MAP_W)
    reach = (CLAIMED_W + 2 * (band + edge)) / 2 + 1
    return Piece(("halo", route_id), outer_box([x for x, _ in line], [y for _, y in line], reach),
                 lambda img: halo_line(img, line, CLAIMED_W))


def _patch_piece(key: tuple, patch: Image.Image, offset: tuple[int, int]) -> Piece:
    return Piece(key, (offset[0], offset[1], offset[0] + patch.width, offset[1] + patch.height),
                 lambda img: img.paste(patch, offset, patch))


def _city_piece(base: StaticMap, city: str) -> Piece:
    box = base.city_boxes[city]
    return Piece(("city", city), box, lambda img: img.paste(base.image.crop(box), box, base.mask.crop(box)))


def route_line(cars: Sequence[Car]) -> list[tuple[float, float]]:
    """The line through a route's cars, from the first car's back to the last car's front."""
    first, last = cars[0], cars[-1]
    start = (first.center[0] - math.cos(first.angle) * first.length / 2,
             first.center[1] - math.sin(first.angle) * first.length / 2)
    end = (last.center[0] + math.cos(last.angle) * last.length / 2,
           last.center[1] + math.sin(last.angle) * last.length / 2)
    return [start, *(c.center for c in cars), end]


@lru_cache(maxsize=None)
def _cities_under(route_id: int, lang: str) -> tuple[str, ...]:
    """Cities whose dot or name a claimed car of this route overlaps."""
    shape = board_layout().routes[route_id]
    xs = [x for poly in shape.claimed for x, _ in poly]
    ys = [y for poly in shape.claimed for _, y in poly]
    box = (min(xs), min(ys), max(xs), max(ys))
    return tuple(
        city for city, (x0, y0, x1, y1) in static_map(lang).city_boxes.items()
        if x0 < box[2] and x1 > box[0] and y0 < box[3] and y1 > box[1]
    )


@lru_cache(maxsize=None)
def claimed_patch(route_id: int, seat: int) -> tuple[Image.Image, tuple[int, int]]:
    """A claimed route's cars in the owner's colour: an RGBA patch and where it goes."""
    shape = board_layout().routes[route_id]
    middle = marked_car(route_id)
    reach = OWNER_R * 1.25 + OWNER_EDGE  # the widest shape's half-size, with its edge
    xs = [x for poly in shape.claimed for x, _ in poly] + [middle.center[0] - reach, middle.center[0] + reach]
    ys = [y for poly in shape.claimed for _, y in poly] + [middle.center[1] - reach, middle.center[1] + reach]
    x0, y0 = int(min(xs)) - 2, int(min(ys)) - 2
    w, h = int(max(xs)) + 6 - x0, int(max(ys)) + 7 - y0
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = style.player_rgb(seat)
    edge = style.CLAIM_OUTLINE
    shadow = (0, 0, 0, 90)
    sdx, sdy = 2, 3  # a soft drop shadow: the trains sit on the board
    for outer in shape.claimed:
        d.polygon([((x - x0 + sdx) * SS, (y - y0 + sdy) * SS) for x, y in outer], fill=shadow)
    window = style.mix(fill, (255, 255, 255), 0.55)
    for car, outer, inner in zip(shape.cars, shape.claimed, shape.claimed_inner):
        d.polygon([((x - x0) * SS, (y - y0) * SS) for x, y in outer], fill=edge)
        d.polygon([((x - x0) * SS, (y - y0) * SS) for x, y in inner], fill=fill)
        if car is middle:  # the owner's shape instead of windows, upright as in the strip
            icons.owner_mark(d, ((car.center[0] - x0) * SS, (car.center[1] - y0) * SS), OWNER_R * SS, seat,
                             OWNER_EDGE * SS)
            continue
        # two windows per wagon: a claimed car looks like a train, not a coloured space
        for f in (-0.22, 0.22):
            cx = car.center[0] + math.cos(car.angle) * car.length * f
            cy = car.center[1] + math.sin(car.angle) * car.length * f
            pts = Car(center=(cx, cy), angle=car.angle, length=car.length * 0.2).corners(4)
            d.polygon([((x - x0) * SS, (y - y0) * SS) for x, y in pts], fill=window)
    return big.resize((w, h), Image.Resampling.BOX), (x0, y0)


def marked_car(route_id: int) -> Car:
    """The car of a claimed route that carries its owner's shape: the middle one, or for the
    second half of a double route the one before it, so the two halves' shapes sit side by
    side along the route instead of on top of each other."""
    cars = board_layout().routes[route_id].cars
    twin = usa().twin.get(route_id)
    index = len(cars) // 2
    if twin is not None and route_id > twin and index > 0:
        index -= 1
    return cars[index]


@lru_cache(maxsize=None)
def closed_patch(route_id: int) -> tuple[Image.Image, tuple[int, int]]:
    """A veil in the map colour over an unclaimed route that can no longer be claimed."""
    shape = board_layout().routes[route_id]
    xs = [x for poly in shape.unclaimed for x, _ in poly]
    ys = [y for poly in shape.unclaimed for _, y in poly]
    x0, y0 = int(min(xs)) - 2, int(min(ys)) - 2
    w, h = int(max(xs)) + 3 - x0, int(max(ys)) + 3 - y0
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    for car in shape.cars:
        pts = car.corners(CAR_W + 2, 2)
        d.polygon([((x - x0) * SS, (y - y0) * SS) for x, y in pts], fill=(*style.MAP_BG, 190))
    return big.resize((w, h), Image.Resampling.BOX), (x0, y0)


# --- the static layer ---------------------------------------------------------------------------
def _build_static(lang: str | None) -> StaticMap:
    board = usa()
    layout = board_layout()
    # Shapes at SS× then scaled down: smooth car edges at no per-move cost.
    big = Image.new("RGB", (MAP_W * SS, MAP_H * SS), style.MAP_BG)
    d = ImageDraw.Draw(big)
    for route in board.routes:
        fill, edge = style.route_rgb(route.color)
        ink = style.darker(style.card_rgb(route.color), 0.45) if route.color != "gray" else None
        if route.color in ("black",):
            ink = (235, 235, 235)
        for poly, car in zip(layout.routes[route.id].unclaimed, layout.routes[route.id].cars):
            pts = [(x * SS, y * SS) for x, y in poly]
            d.polygon(pts, fill=fill, outline=edge, width=SS)
            if ink is not None:  # every coloured space carries its colour's shape
                icons.colour_mark(d, (car.center[0] * SS, car.center[1] * SS), (CAR_W - 3) * SS, route.color,
                                  ink, car.angle)
    for city in board.cities:
        x, y = layout.cities[city.name]
        r = CITY_R * SS
        d.ellipse((x * SS - r, y * SS - r, x * SS + r, y * SS + r), fill=style.CITY_EDGE)
        r2 = (CITY_R - 3) * SS
        d.ellipse((x * SS - r2, y * SS - r2, x * SS + r2, y * SS + r2), fill=style.CITY_FILL)
    img = big.resize(SIZE, Image.Resampling.BOX)
    if lang is None:
        return StaticMap(image=img, mask=Image.new("L", SIZE, 0), city_boxes={})

    labels = place_labels(layout, lang)
    ink = Image.new("RGB", SIZE, (0, 0, 0))  # white where a name or dot is drawn: the mask
    ink_d = ImageDraw.Draw(ink)
    boxes: dict[str, tuple[int, int, int, int]] = {}
    for city in board.cities:
        text = board.city_label(city.name, lang)
        (lx, ly), lbox = labels[city.name]
        draw_text(img, (lx, ly), text, LABEL_SIZE, style.CITY_TEXT, bold=True, anchor="lm",
                  stroke_width=LABEL_HALO, stroke_fill=style.MAP_BG)
        draw_text(ink, (lx, ly), text, LABEL_SIZE, (255, 255, 255), bold=True, anchor="lm",
                  stroke_width=LABEL_HALO, stroke_fill=(255, 255, 255))
        x, y = layout.cities[city.name]
        r = CITY_R + 1
        ink_d.ellipse((x - r, y - r, x + r, y + r), fill=(255, 255, 255))
        dot = (int(x - r), int(y - r), int(x + r) + 1, int(y + r) + 1)
        boxes[city.name] = (min(dot[0], lbox[0]) - 2, min(dot[1], lbox[1]) - 2,
                            max(dot[2], lbox[2]) + 2, max(dot[3], lbox[3]) + 2)
    _draw_legend(img, lang)
    return StaticMap(image=img, mask=ink.convert("L"), city_boxes=boxes)


def _draw_legend(img: Image.Image, lang: str) -> None:
    """Route scoring table in the empty south-west corner of the map."""
    points = usa().rules.route_points
    x, y = LEGEND_BOX[0], LEGEND_BOX[1]
    title = translate(lang, "ticket_to_ride.render.route_points")
    draw_text(img, (x, y), title, LEGEND_SIZE, style.MUTED_TEXT, bold=True)
    d = ImageDraw.Draw(img)
    y += 34
    for length in sorted(points):
        cx = x + (length - 1) * 54
        d.rounded_rectangle((cx, y, cx + 48, y + 62), 6, fill=(255, 255, 255), outline=style.CITY_EDGE)
        draw_text(img, (cx + 24, y + 16), f"{length}", LEGEND_SIZE, style.MUTED_TEXT, anchor="mm")
        draw_text(img, (cx + 24, y + 45), f"{points[length]}", LEGEND_SIZE, style.CITY_TEXT, bold=True, anchor="mm")


LEGEND_BOX = (16, MAP_H - 104, 16 + 6 * 54, MAP_H - 6)  # the route-points table, bottom left


# --- city names -----------------------------------------------------------------------------------
# Names sit CITY_R + 3 from the dot on every side, above before below.
LABEL_SPOTS = Spots(side=CITY_R + 3, above=CITY_R + 3, below=CITY_R + 3, first="above", shift=0.5,
                    diagonal=0.7, corners=("ne", "se", "nw", "sw"))
# A name may cover a claimed car's footprint at 1 a pixel, a dot at 20, a name at 40; each step
# down the list of spots costs 4. Cities with many others within 160 × 90 px choose first.
LABEL_PRICES = Prices(rank=4.0, covered={TRACK: 1, MARK: 20, NAME: 40}, crowd=(160, 90))


def place_labels(layout: BoardLayout, lang: str) -> dict[str, tuple[tuple[float, float], tuple[int, int, int, int]]]:
    """Pick a spot for each city name that covers as few cars, dots and names as possible.

    Returns, per city, the left-middle anchor for the text and the box it covers.
    """
    board = usa()
    occupied = Occupancy((MAP_W, MAP_H))
    x0, y0, x1, y1 = LEGEND_BOX
    occupied.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], NAME)
    for shape in layout.routes:
        for poly in shape.claimed:  # the footprint of a claimed car: names stay clear of trains too
            occupied.polygon(poly, TRACK)
    for point in layout.cities.values():
        occupied.disc(point, CITY_R + 3, MARK)
    names = [Label(city.name, layout.cities[city.name],
                   *label_size(board.city_label(city.name, lang), LABEL_SIZE, LABEL_HALO), LABEL_SPOTS)
             for city in board.cities]
    return place_names(occupied, names, LABEL_PRICES, pad=LABEL_HALO)
