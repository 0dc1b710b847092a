"""Where the city names go on a Santa Fe board: beside their markers, clear of every placed tile.

Each city has a preferred spot, found once per language (`place_labels`): beside, below or above
its marker, off the markers, the pips, the sea's names and the legend, over as few track spaces
as the crowd allows. Those spaces fill with tiles as the game goes on, and a name printed over a
tile cuts the railroad in two. So each board places its names last (`place`, through render.kit.board_names): a
name keeps its preferred spot while no tile, line head, pip or played-card mark is drawn there,
and otherwise takes the nearest spot round its marker (nearer it than any other city) that
nothing covers; where tiles wall a city in on every side, it lies over the fewest tiles, never
over another name, a marker or a mark. Names are drawn on top of everything (`draw`), so none is
ever hidden.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.santa_fe.map import west
from render.kit.board_names import NameSpots, Pieces, Placer, fixed_cells
from render.kit.geometry import Box
from render.kit.labels import MARK, NAME, TRACK, Occupancy, Prices, RoundLabel, Spots, label_size, nearest_to, place_names
from render.kit.text import draw_text
from render.santa_fe import icons, style
from render.santa_fe.layout import (
    CITY_R,
    LEGEND_BOX,
    MAP_H,
    MAP_W,
    MIN_TEXT,
    PIP_R,
    PIP_RING,
    START_R,
    BoardLayout,
    Point,
    board_layout,
    lonlat_xy,
    map_occupancy,
)
from render.santa_fe.tags import TAG_REACH, tag_slots

LABEL_SIZE = MIN_TEXT
LABEL_HALO = 3
# Room kept left and right of every name, so two names on one line never run together
# ("Dodge City Wichita" reads as one place).
NAME_GAP = 3
STAR_W = 18  # the special-city star drawn after a name
LINE_STEP = LABEL_SIZE + 3  # from one line of a name set on two to the next
EDGE = (4, 4, 6, 4)  # a name keeps this far inside the map (left, top, right, bottom)
# Track costs 2 a covered pixel, a marker or pip 20, a name or the legend 40; each step down
# the list of spots costs 3. Cities with many others within 140 × 80 px choose first.
LABEL_PRICES = Prices(rank=3.0, covered={TRACK: 2, MARK: 20, NAME: 40}, crowd=(140, 80))
# How far from its marker (in marker radii, between the name's box and the marker's centre) a
# name is tried when tiles cover its own spot: close enough to read as that city's.
DISTANCES = (1.0, 1.4, 1.8, 2.2, 2.6, 3.0, 3.5, 4.0)
SCALE = 2  # the placing masks' cells (render.kit.board_names): names are tight on this map
_PLACER = Placer(SCALE)


def _spots(r: float) -> Spots:
    """Around a marker of radius r: 5 px beside it (past the name's gap), 4 px below it, above
    only clear of the pip arc; below before above, since the pips sit above."""
    return Spots(side=r + 5 - NAME_GAP, above=PIP_RING + PIP_R + 2, below=r + 4, first="below", shift=0.6,
                 diagonal=0.8, corners=("se", "sw", "ne", "nw"))


def geo_lines(lang: str) -> list[tuple[float, float, str]]:
    """(centre x, centre y, text) of each line of the sea's and the gulf's names."""
    board = west()
    out = []
    for key, (lon, lat) in (("santa_fe.render.pacific", (-123.4, 35.6)), ("santa_fe.render.gulf", (-92.0, 27.2))):
        x, y = lonlat_xy(board, lon, lat)
        for k, part in enumerate(translate(lang, key).split("\n")):
            out.append((x, y + k * (LABEL_SIZE + 4), part))
    return out


def _geo_boxes(lang: str) -> list[Box]:
    out = []
    for x, y, part in geo_lines(lang):
        w, h = label_size(part, LABEL_SIZE, 0)
        out.append((int(x - w / 2), int(y - h / 2), int(x + w / 2), int(y + h / 2)))
    return out


def mark_slots(labels: dict, lang: str) -> dict[int, tuple[Point, ...]]:
    """Where the marks of who played each city's card go, round this language's names
    (`labels` from place_labels)."""
    return tag_slots(tuple([box for _, box in labels.values()] + _geo_boxes(lang)))


def _label(city: int, lang: str, distances: tuple[float, ...] = ()) -> RoundLabel:
    """A city's name to place: the usual spots round its marker, then rings at `distances`."""
    board = west()
    w, h = name_size(city, lang)
    r = START_R if board.values[city] == 0 else CITY_R
    return RoundLabel(city, board_layout().cities[city], w, h, _spots(r), CITY_R, distances)


def name_size(city: int, lang: str) -> tuple[float, float]:
    """A name's box: its lines with their halo, the gap at both ends, the railroad's star after
    the last line."""
    board = west()
    lines = board.board_lines(city, lang)
    w, h = max(label_size(line, LABEL_SIZE, LABEL_HALO)[0] for line in lines), label_size(lines[0], LABEL_SIZE, LABEL_HALO)[1]
    w += 2 * NAME_GAP
    if city in board.special_city:
        w += STAR_W + 5
    return w, h + (len(lines) - 1) * LINE_STEP


def place_labels(layout: BoardLayout, lang: str) -> dict[int, tuple[tuple[float, float], tuple[int, int, int, int]]]:
    """Each city's preferred spot: the one covering as little track, as few markers and names as
    possible. Returns, per city, the left-middle anchor of the text and the box it covers.
    """
    occupied = map_occupancy(layout, lambda city: CITY_R + 3, PIP_R + 2)
    # Where the played cards' marks would go if there were no names: a name may take such a
    # spot (the marks then find another, round the names), at the price of covering track.
    for slots in tag_slots(()).values():
        for centre in slots:
            occupied.disc(centre, TAG_REACH, TRACK)
    for box in _geo_boxes(lang):  # city names keep off the sea's and the gulf's names
        occupied.box(box, NAME)
    # The usual spots round a marker only: the rings farther out are for a board's tiles.
    names = [_label(city, lang) for city in range(len(west().cities))]
    return place_names(occupied, names, LABEL_PRICES, pad=LABEL_HALO + NAME_GAP)


@lru_cache(maxsize=4)
def preferred(lang: str) -> dict[int, tuple[tuple[float, float], Box]]:
    """place_labels on this board's layout, once per language."""
    return place_labels(board_layout(), lang)


@lru_cache(maxsize=4)
def fixed_pieces(lang: str) -> Image.Image:
    """What never moves and a moving name must not cover (mode "L", non-zero there): every
    marker, the sea's names and the legend. A marker is painted smaller than it is drawn, by the
    gap and the cell the placer keeps round every name, so a name may still sit as close to its
    marker as on the empty map."""
    occ = Occupancy((MAP_W, MAP_H))
    for point in board_layout().cities:
        occ.disc(point, CITY_R - NAME_GAP - SCALE, MARK)
    for box in _geo_boxes(lang):
        occ.box(box, NAME)
    occ.box(LEGEND_BOX, NAME)
    return occ.image


@lru_cache(maxsize=4)
def _fixed_cells(lang: str) -> Image.Image:
    return fixed_cells(fixed_pieces(lang), SCALE)


@lru_cache(maxsize=128)
def _name_spots(city: int, lang: str) -> NameSpots:
    """A name's spots: its preferred box, then every other spot round its marker, nearest first,
    that lies inside the map and nearer it than any other city."""
    layout = board_layout()
    first = preferred(lang)[city][1]
    label = _label(city, lang, DISTANCES)
    others = [p for p in layout.cities if p != label.point]
    w, h = first[2] - first[0], first[3] - first[1]
    boxes = [first]
    for left, top in label.candidates():
        box = (int(left), int(top), int(left) + w, int(top) + h)
        inside = box[0] >= EDGE[0] and box[1] >= EDGE[1] and box[2] <= MAP_W - EDGE[2] and box[3] <= MAP_H - EDGE[3]
        if inside and nearest_to(box, label.point, others):
            boxes.append(box)
    return NameSpots.of(boxes, NAME_GAP, SCALE)


def place(lang: str, pieces: Pieces) -> dict[int, Box]:
    """Each city name's box on this board (render.kit.board_names): its preferred spot while
    nothing drawn this move covers it, else the first spot round its marker nothing covers, else
    the one covering the fewest tiles."""
    order = list(preferred(lang))  # the crowded choose first, as on the empty map
    return _PLACER.place([(city, _name_spots(city, lang)) for city in order], _fixed_cells(lang), pieces, NAME_GAP)


def new_pieces() -> Pieces:
    return Pieces((MAP_W, MAP_H), SCALE)


@lru_cache(maxsize=128)
def name_patch(city: int, lang: str) -> Image.Image:
    """The name with its halo (and its railroad's star) on a transparent patch the size of its
    box; a name set on several lines is centred on them."""
    board = west()
    lines = board.board_lines(city, lang)
    w, h = name_size(city, lang)
    patch = Image.new("RGBA", (int(w) + 1, int(h) + 1), (0, 0, 0, 0))
    first = patch.height / 2 - (len(lines) - 1) * LINE_STEP / 2
    if len(lines) == 1:
        x, anchor = LABEL_HALO + NAME_GAP, "lm"
    else:
        x, anchor = patch.width / 2, "mm"
    end = 0
    for k, line in enumerate(lines):
        end = draw_text(patch, (x, first + k * LINE_STEP), line, LABEL_SIZE, style.CITY_TEXT + (255,), bold=True,
                        anchor=anchor, stroke_width=LABEL_HALO, stroke_fill=style.LAND + (255,))[2]
    for r, special in enumerate(board.special_city):
        if special == city:
            y = first + (len(lines) - 1) * LINE_STEP
            icons.star(ImageDraw.Draw(patch), (end + 3 + STAR_W / 2, y), STAR_W, style.rr_rgb(r))
    return patch


def draw(img: Image.Image, lang: str, boxes: dict[int, Box]) -> None:
    """The names, on top of everything, in their boxes."""
    for city, box in boxes.items():
        patch = name_patch(city, lang)
        img.paste(patch, (int(box[0]), int(box[1])), patch)
