"""Where the marks of who played a city's card go on the Santa Fe map, and how they look.

Each seat's mark is its shape (style.SYMBOLS, seat order, as on the score chart) in the seat's colour with a dark outline, so "the triangle player" is one person on
the map, in the panel and on the final image, and a reader who cannot tell the colours apart
still tells the shapes apart.

The deck holds at most a few copies of any city's card, so every city with a card gets that
many slots beside its marker, chosen once per language: on rings round the marker, clear of
the names, the legend and every marker, nearer its own city than any other, then covering as
little track and as few pips as possible, preferring below and close in. Names are placed
first (they matter more); slots are booked as they are chosen, so no two marks overlap; a
short line ties each mark to its marker.
"""
from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from PIL import Image, ImageDraw

from games.santa_fe.map import west
from render.kit.chart import draw_marker
from render.kit.labels import MARK, NAME, TRACK, Occupancy
from render.santa_fe import style
from render.santa_fe.layout import (
    CITY_R,
    LEGEND_BOX,
    MAP_H,
    MAP_W,
    PIP_R,
    START_R,
    Point,
    board_layout,
    map_occupancy,
)

# A mark's size: about 2 × TAG_R across (a triangle or diamond reaches 1.2 × TAG_R from its
# centre). 10 px is 6 px across when the board is shown 400 px wide: small, but a shape.
TAG_R = 10.0
TAG_REACH = TAG_R * 1.2 + 1  # the outline included
# Rings tried round the marker (the nearest clears the marker) and the angles
# tried on each; 90° is straight below (image y grows downwards).
TAG_RINGS = tuple(CITY_R + TAG_REACH + 2 + step for step in (0, 5, 10, 16))
TAG_ANGLES = tuple(range(0, 360, 10))
# What a slot costs: per covered pixel of track, of a marker or pip, of the legend; per
# pixel farther out than the nearest ring; and for facing up rather than down (up to).
COVER_PRICE = {TRACK: 1.5, MARK: 25.0, NAME: 60.0}
RING_PRICE = 2.5
UP_PRICE = 30.0
# A mark less than this much nearer its own city than any other is easily misread.
NEAR_OTHER = 18.0
NEAR_PRICE = 60.0
EDGE = 6  # a slot stays this far inside the map
_SS = 2  # marks are drawn this many times larger, then shrunk: smooth edges


def seat_shape(seat: int) -> str:
    """The seat's marker shape, as on the score chart."""
    return style.SYMBOLS.seat(seat)


def copies_per_city() -> int:
    """The most copies of any one city's card: the slots each city needs."""
    return max(Counter(west().city_cards).values(), default=0)


def _occupancy() -> Occupancy:
    """What a mark had better not cover: track, pips (and the markers, the legend)."""
    return map_occupancy(board_layout(), lambda city: _marker_r(city) + 2, PIP_R + 3)


def _marker_r(city: int) -> float:
    return CITY_R if west().values[city] else START_R * 1.42  # a start city's square, to its corners


def _blocked(names: tuple[tuple[int, int, int, int], ...]) -> Image.Image:
    """What a mark must not touch when there is any other room: the names, the legend and
    every city's marker (marks booked later are painted on as they are chosen)."""
    hard = Image.new("L", (MAP_W, MAP_H), 0)
    d = ImageDraw.Draw(hard)
    for box in (*names, LEGEND_BOX):
        d.rectangle(box, fill=255)
    for city, (x, y) in enumerate(board_layout().cities):
        r = _marker_r(city) + 1
        d.ellipse((x - r, y - r, x + r, y + r), fill=255)
    return hard


def _cost(occupied: Occupancy, hard: Image.Image, centre: Point, ring_index: int, angle: float,
          city: int) -> tuple[bool, float]:
    """(touches something it must not or stands nearer another city, price) of a mark at
    centre: lower is better."""
    x, y = centre
    r = TAG_REACH
    if x - r < EDGE or y - r < EDGE or x + r > MAP_W - EDGE or y + r > MAP_H - EDGE:
        return True, math.inf
    core = TAG_R + 1
    touches = hard.crop((int(x - core), int(y - core), int(x + core) + 1, int(y + core) + 1)).getbbox() is not None
    hist = occupied.image.crop((int(x - r), int(y - r), int(x + r) + 1, int(y + r) + 1)).histogram()
    cost = sum(hist[level] * price for level, price in COVER_PRICE.items())
    cost += (TAG_RINGS[ring_index] - TAG_RINGS[0]) * RING_PRICE
    cities = board_layout().cities
    own = math.dist(centre, cities[city])
    others = [math.dist(centre, p) for k, p in enumerate(cities) if k != city]
    touches = touches or min(others) <= own  # it would read as another city's
    if min(others) < own + NEAR_OTHER:
        cost += NEAR_PRICE
    return touches, cost + (1 - math.sin(math.radians(angle))) / 2 * UP_PRICE


@lru_cache(maxsize=8)
def tag_slots(names: tuple[tuple[int, int, int, int], ...]) -> dict[int, tuple[Point, ...]]:
    """Per city with a card, the centres of its mark slots, in the order seats fill them,
    clear of the names' boxes."""
    board = west()
    layout = board_layout()
    occupied = _occupancy()
    hard = _blocked(names)
    count = copies_per_city()
    cities = sorted(set(board.city_cards))
    # crowded cities choose first, while there is room round them
    crowd = {c: sum(1 for o in layout.cities if math.dist(o, layout.cities[c]) < 120) for c in cities}
    out: dict[int, tuple[Point, ...]] = {}
    for city in sorted(cities, key=lambda c: (-crowd[c], c)):
        cx, cy = layout.cities[city]
        slots: list[Point] = []
        for _ in range(count):
            best: tuple[tuple[bool, float], Point] | None = None
            for k, ring in enumerate(TAG_RINGS):
                for angle in TAG_ANGLES:
                    a = math.radians(angle)
                    centre = (cx + math.cos(a) * ring, cy + math.sin(a) * ring)
                    cost = _cost(occupied, hard, centre, k, angle, city)
                    if best is None or cost < best[0]:
                        best = (cost, centre)
            assert best is not None
            x, y = best[1]
            slots.append((x, y))
            occupied.disc((x, y), TAG_REACH + 1, MARK)
            r = TAG_REACH + 1
            ImageDraw.Draw(hard).ellipse((x - r, y - r, x + r, y + r), fill=255)
        out[city] = tuple(slots)
    return out


def played_marks(players, slots: dict[int, tuple[Point, ...]]) -> list[tuple[int, int, Point]]:
    """(city, seat, centre) of every mark: each city's players in seat order take its slots
    in order (a seat that played both copies of a city is marked once)."""
    seats: dict[int, list[int]] = {}
    for p in players:
        for city in sorted(set(p.played)):
            seats.setdefault(city, []).append(p.seat)
    out = []
    for city in sorted(seats):
        for seat, centre in zip(sorted(seats[city]), slots.get(city, ())):
            out.append((city, seat, centre))
    return out


@lru_cache(maxsize=None)
def tag_patch(seat: int, centre: Point, r: float = TAG_R) -> tuple[Image.Image, tuple[int, int]]:
    """A seat's marker shape in its colour, dark-outlined, supersampled for clean edges."""
    pad = r * 1.3 + 3
    x0, y0 = int(centre[0] - pad), int(centre[1] - pad)
    size = int(2 * pad) + 2
    big = Image.new("RGBA", (size * _SS, size * _SS), (0, 0, 0, 0))
    draw_marker(ImageDraw.Draw(big), seat_shape(seat), ((centre[0] - x0) * _SS, (centre[1] - y0) * _SS), r * _SS,
                fill=style.player_rgb(seat), outline=style.TILE_EDGE, width=2 * _SS)
    return big.resize((size, size), Image.Resampling.BOX), (x0, y0)
