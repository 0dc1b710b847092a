"""The public Ticket to Ride board: the USA map with every route, and a sidebar with the
players, the face-up cards, the piles and the last move.

Drawn from a view only, and only from its public fields (owners, counts, face-up row, public
events), so the image is the same whoever's view it is made from and cannot show a hand.

The map with unclaimed routes, city dots and names never changes: it is drawn once per
language (supersampled, so cars have smooth edges) and kept in a LayerCache. A move only
pastes claimed routes (small anti-aliased patches, cached per route and colour), puts back
the city names those routes touch, and draws the sidebar.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ticket_to_ride.map import usa
from games.ticket_to_ride.models import TTRView
from render.kit.encode import LayerCache
from render.kit.labels import MARK, NAME, TRACK, Label, Occupancy, Prices, Spots, label_size, place_names
from render.kit.text import draw_text
from render.ticket_to_ride import style
from render.ticket_to_ride.layout import (
    BOARD_H,
    BOARD_W,
    CAR_W,
    CITY_R,
    MAP_W,
    BoardLayout,
    Car,
    board_layout,
)
from render.ticket_to_ride.sidebar import draw_sidebar

SIZE = (BOARD_W, BOARD_H)
SS = 2  # supersampling factor for the static shapes
LABEL_SIZE = 17
LABEL_HALO = 3


@dataclass(frozen=True)
class StaticMap:
    image: Image.Image  # the whole board: map, unclaimed routes, cities, empty sidebar
    mask: Image.Image  # "L": where city dots and names are (to restore them over claims)
    city_boxes: dict[str, tuple[int, int, int, int]]  # dot + name, per city


_STATIC = LayerCache()


def static_map(lang: str) -> StaticMap:
    """The cached static layer for a language (built on first use)."""
    return _STATIC.get(("ttr-board", lang, SIZE), lambda: _build_static(lang))


def render_board(view: TTRView, names: Sequence[str], lang: str = "en") -> Image.Image:
    base = static_map(lang)
    img = base.image.copy()
    _draw_claims(img, base, view, lang)
    draw_sidebar(img, view, names, lang)
    return img


def render_map(view: TTRView, lang: str = "en", width: int | None = None) -> Image.Image:
    """Just the map with the claimed routes (no sidebar), optionally scaled to `width`."""
    base = static_map(lang)
    img = base.image.crop((0, 0, MAP_W, BOARD_H))
    _draw_claims(img, base, view, lang)
    if width is not None and width != MAP_W:
        img = img.resize((width, round(BOARD_H * width / MAP_W)), Image.Resampling.LANCZOS)
    return img


# --- the dynamic map layer ---------------------------------------------------------------------
def _draw_claims(img: Image.Image, base: StaticMap, view: TTRView, lang: str) -> None:
    board = usa()
    # With few players only one half of a double route may be used: the other one fades out.
    one_half_only = view.n < board.rules.doubles_min_players
    touched: set[str] = set()
    for route_id, seat in enumerate(view.owners):
        if seat < 0:
            continue
        patch, offset = claimed_patch(route_id, seat)
        img.paste(patch, offset, patch)
        touched.update(_cities_under(route_id, lang))
        twin = board.twin.get(route_id)
        if one_half_only and twin is not None and view.owners[twin] < 0:
            patch, offset = closed_patch(twin)
            img.paste(patch, offset, patch)
            touched.update(_cities_under(twin, lang))
    for city in sorted(touched):  # names and dots stay on top of the trains
        box = base.city_boxes[city]
        img.paste(base.image.crop(box), box, base.mask.crop(box))


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
    xs = [x for poly in shape.claimed for x, _ in poly]
    ys = [y for poly in shape.claimed for _, y in poly]
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
        # two windows per wagon: a claimed car looks like a train, not a coloured space
        for f in (-0.22, 0.22):
            cx = car.center[0] + math.cos(car.angle) * car.length * f
            cy = car.center[1] + math.sin(car.angle) * car.length * f
            pts = Car(center=(cx, cy), angle=car.angle, length=car.length * 0.2).corners(4)
            d.polygon([((x - x0) * SS, (y - y0) * SS) for x, y in pts], fill=window)
    return big.resize((w, h), Image.Resampling.BOX), (x0, y0)


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
def _build_static(lang: str) -> StaticMap:
    board = usa()
    layout = board_layout()
    # Shapes at SS× then scaled down: smooth car edges at no per-move cost.
    big = Image.new("RGB", (BOARD_W * SS, BOARD_H * SS), style.SIDEBAR_BG)
    d = ImageDraw.Draw(big)
    d.rectangle((0, 0, MAP_W * SS - 1, BOARD_H * SS), fill=style.MAP_BG)
    d.rectangle((MAP_W * SS - 2 * SS, 0, MAP_W * SS, BOARD_H * SS), fill=style.DIVIDER)
    for route in board.routes:
        fill, edge = style.route_rgb(route.color)
        for poly in layout.routes[route.id].unclaimed:
            pts = [(x * SS, y * SS) for x, y in poly]
            d.polygon(pts, fill=fill, outline=edge, width=SS)
    for city in board.cities:
        x, y = layout.cities[city.name]
        r = CITY_R * SS
        d.ellipse((x * SS - r, y * SS - r, x * SS + r, y * SS + r), fill=style.CITY_EDGE)
        r2 = (CITY_R - 3) * SS
        d.ellipse((x * SS - r2, y * SS - r2, x * SS + r2, y * SS + r2), fill=style.CITY_FILL)
    img = big.resize(SIZE, Image.Resampling.BOX)

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
    x, y = 28, BOARD_H - 96
    title = translate(lang, "render.route_points")
    draw_text(img, (x, y), title, 17, style.MUTED_TEXT, bold=True)
    d = ImageDraw.Draw(img)
    y += 30
    for length in sorted(points):
        cx = x + (length - 1) * 44
        d.rounded_rectangle((cx, y, cx + 38, y + 40), 5, fill=(255, 255, 255), outline=style.CITY_EDGE)
        draw_text(img, (cx + 19, y + 11), f"{length}", 15, style.MUTED_TEXT, anchor="mm")
        draw_text(img, (cx + 19, y + 29), f"{points[length]}", 17, style.CITY_TEXT, bold=True, anchor="mm")


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
    occupied = Occupancy((MAP_W, BOARD_H))
    for shape in layout.routes:
        for poly in shape.claimed:  # the footprint of a claimed car: names stay clear of trains too
            occupied.polygon(poly, TRACK)
    for point in layout.cities.values():
        occupied.disc(point, CITY_R + 3, MARK)
    names = [Label(city.name, layout.cities[city.name],
                   *label_size(board.city_label(city.name, lang), LABEL_SIZE, LABEL_HALO), LABEL_SPOTS)
             for city in board.cities]
    return place_names(occupied, names, LABEL_PRICES, pad=LABEL_HALO)
