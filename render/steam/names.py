"""Where the city names go on a Steam board: beside their cities, clear of everything drawn.

Each city has a preferred spot, found once per map and language (`preferred`): beside, above or
below its hex, off the cities, towns, water names and rulers and off the other names, where track
is least likely to run (a name is better on water). A town's spot is found too, for the day
Urbanize makes it a city; towns are placed after every printed city, so a new city's name never
pushes a printed one away.

Track, the last build's outline, links' markers and new cities then cover some of those spots as
the game goes on. So each board places its names last (`place`, through render.kit.board_names):
a name keeps its preferred spot while nothing is drawn there, and otherwise takes the nearest
spot round its city (nearer it than any other city) that nothing covers: no piece, no city, town
or ruler, no other name. Names are drawn on top of everything (`draw`), so none is ever hidden;
where track walls a city in on every side (the Ruhr late in a game), its name lies over the
fewest pixels of track, never over another name or a city.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.core.hexgrid import Hex
from games.steam.derived import board_map, map_of
from games.steam.models import SteamState
from render.kit.board_names import NameSpots, Pieces, Placer, fixed_cells
from render.kit.geometry import Box
from render.kit.labels import (
    MARK, NAME, TRACK, Label, Occupancy, Prices, RoundLabel, Spots, label_size, nearest_to, place_names, ring_offsets,
)
from render.kit.text import draw_text
from render.steam import style
from render.steam.layout import MIN_TEXT, MapLayout, map_layout

Point = tuple[float, float]
NAME_HALO = 4
NAME_GAP = 3            # kept between two names, and between a name and a piece
EDGE = (4, 4, 6, 4)     # a name keeps this far inside the map area (left, top, right, bottom)
# Names keep off cities and towns (their cubes and discs) and off each other whatever it takes,
# off land (where track will run) when they can; each step down the list of spots costs a
# little, so a name stays beside its city when it can.
LABEL_PRICES = Prices(rank=4.0, covered={TRACK: 1, MARK: 200, NAME: 1000}, crowd=(160, 110))
# How far from its city's centre (in hex sizes) a name's box is tried when its own spot is
# covered: from just beside the hex outwards, still near enough to read as the city's (and it
# must be nearer its own city than any other).
DISTANCES = (0.75, 0.9, 1.05, 1.2, 1.35, 1.5, 1.7, 1.9, 2.1)


def spots(ml: MapLayout) -> Spots:
    """The usual spots: beside the hex, then above and below it, then slid and raised."""
    s = ml.s
    return Spots(side=s * 0.9, above=s * 0.62, below=s * 0.7, first="below", shift=0.5, diagonal=0.7)


def water_names(m, ml: MapLayout, lang: str) -> list[tuple[str, Point, int]]:
    """(name, centre, room) of each lake and coast, in the middle of its hexes."""
    out = []
    for feature in m.water:
        if not feature.hexes:
            continue
        xs = [ml.center(hx)[0] for hx in feature.hexes]
        ys = [ml.center(hx)[1] for hx in feature.hexes]
        text = feature.name.get(lang) or feature.name["en"]
        out.append((text, (sum(xs) / len(xs), sum(ys) / len(ys)), int(max(xs) - min(xs) + ml.s * 1.6)))
    return out


@lru_cache(maxsize=8)
def fixed_pieces(map_id: str, lang: str) -> Image.Image:
    """What never moves and no name may cover (mode "L", non-zero there): every city, every
    town's disc, the black edges, the water names and the rulers."""
    m = map_of(map_id)
    ml = map_layout(map_id)
    occ = Occupancy(ml.size)
    for hx in m.cities:
        occ.polygon(ml.hexes.polygon(hx), MARK)
    for hx in m.towns:  # its disc (a new city is one of the board's pieces)
        occ.disc(ml.center(hx), ml.s * 0.45, MARK)
    d = ImageDraw.Draw(occ.image)
    for e in m.black_edges:
        d.line(ml.hexes.edge_points(e), fill=MARK, width=round(ml.s * 0.16) + 2 * NAME_GAP)
    for text, (cx, cy), _ in water_names(m, ml, lang):
        w, h = label_size(text, MIN_TEXT, 0)
        occ.box((int(cx - w / 2), int(cy - h / 2), int(cx + w / 2), int(cy + h / 2)), NAME)
    grid = ml.hexes.bounds(ml.grid())
    occ.box((0, 0, ml.size[0], int(grid[1])), NAME)      # the rulers
    occ.box((0, 0, int(grid[0]), ml.size[1]), NAME)
    return occ.image


@lru_cache(maxsize=8)
def preferred(map_id: str, lang: str) -> dict[Hex, Box]:
    """Each city's and town's preferred name box, the cities first and the crowded first."""
    m = map_of(map_id)
    ml = map_layout(map_id)
    occ = Occupancy(ml.size)
    for hx, space in m.spaces.items():  # track will run over land: a name is better on water
        if space.land:
            occ.polygon(ml.hexes.polygon(hx), TRACK)
    occ.image.paste(fixed_pieces(map_id, lang), (0, 0), fixed_pieces(map_id, lang).point(lambda v: 255 if v else 0))

    def labels(hexes) -> list[Label]:
        out = []
        for hx in sorted(hexes):
            w, h = label_size(m.name(hx, lang), MIN_TEXT, NAME_HALO)
            out.append(RoundLabel(hx, ml.center(hx), w, h, spots(ml), round(ml.s), DISTANCES))
        return out

    cities = place_names(occ, labels(m.cities), LABEL_PRICES, pad=NAME_HALO, margin=EDGE, own_nearest=True)
    towns = place_names(occ, labels(m.towns), LABEL_PRICES, pad=NAME_HALO, margin=EDGE, own_nearest=True)
    return {hx: box for placed in (cities, towns) for hx, (_, box) in placed.items()}


@lru_cache(maxsize=256)
def name_patch(map_id: str, hx: Hex, lang: str) -> Image.Image:
    """The name drawn with its halo on a transparent patch the size of its box."""
    text = map_of(map_id).name(hx, lang)
    w, h = label_size(text, MIN_TEXT, NAME_HALO)
    patch = Image.new("RGBA", (int(w) + 1, int(h) + 1), (0, 0, 0, 0))
    draw_text(patch, (NAME_HALO, patch.height / 2), text, MIN_TEXT, style.NAME_TEXT + (255,), bold=True,
              anchor="lm", stroke_width=NAME_HALO, stroke_fill=style.NAME_HALO + (255,))
    return patch


def named(state: SteamState, lang: str) -> list[Hex]:
    """The hexes whose names the board shows, in the order they choose: every printed city, then
    every new city."""
    m = board_map(state)
    new = {m.hex_at(label) for label in state.new_cities}
    return [hx for hx in preferred(state.options.map, lang) if hx in m.cities or hx in new]


SCALE = 4       # the placing masks' cells (render.kit.board_names): hexes are big, names far apart
_PLACER = Placer(SCALE)


def place(state: SteamState, lang: str, pieces: Pieces) -> dict[Hex, Box]:
    """Each shown name's box on this board (render.kit.board_names): its preferred spot while
    nothing covers it, else the first spot round its city that nothing covers, else the one
    covering the least (track before any other name or piece)."""
    map_id = state.options.map
    names = [(hx, _spots(map_id, lang, hx)) for hx in named(state, lang)]
    return _PLACER.place(names, _fixed_cells(map_id, lang), pieces, NAME_GAP)


@lru_cache(maxsize=256)
def _spots(map_id: str, lang: str, hx: Hex) -> NameSpots:
    """A name's spots: its preferred box, then the boxes round its city, nearest first, that lie
    inside the map and nearer it than any other printed city."""
    ml = map_layout(map_id)
    width, height = ml.size
    first = preferred(map_id, lang)[hx]
    w, h = first[2] - first[0], first[3] - first[1]
    cx, cy = ml.center(hx)
    others = [p for p in _places(map_id) if p != (cx, cy)]
    boxes = [first]
    for dx, dy in ring_offsets(round(w), round(h), round(ml.s), DISTANCES):
        box = (round(cx + dx - w / 2), round(cy + dy - h / 2), round(cx + dx + w / 2), round(cy + dy + h / 2))
        if _inside(box, width, height) and nearest_to(box, (cx, cy), others):
            boxes.append(box)
    return NameSpots.of(boxes, NAME_GAP, SCALE)


@lru_cache(maxsize=4)
def _places(map_id: str) -> tuple[Point, ...]:
    """Where the named places are: the printed cities (a town has no name until it is a city)."""
    m = map_of(map_id)
    ml = map_layout(map_id)
    return tuple(ml.center(hx) for hx in m.cities)


@lru_cache(maxsize=8)
def _fixed_cells(map_id: str, lang: str) -> Image.Image:
    return fixed_cells(fixed_pieces(map_id, lang), SCALE)


def _inside(box: Box, width: int, height: int) -> bool:
    return box[0] >= EDGE[0] and box[1] >= EDGE[1] and box[2] <= width - EDGE[2] and box[3] <= height - EDGE[3]


def draw(img: Image.Image, state: SteamState, lang: str, boxes: dict[Hex, Box]) -> None:
    """The names, on top of everything, in their boxes."""
    for hx, box in boxes.items():
        patch = name_patch(state.options.map, hx, lang)
        img.paste(patch, (int(box[0]), int(box[1])), patch)
