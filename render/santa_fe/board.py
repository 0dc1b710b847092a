"""The public Santa Fe board: the American West with every section's track spaces, and a
panel under it with whose turn it is, the players, the railroads and the whole last turn.

Drawn from a view only, and only from its public fields (track, line heads, connections,
money, played cards, counts), so the image is the same whoever's view it is made from and
can show neither a hand nor a secret card choice.

The map never changes: land, sea, rivers, ranges, borders, empty track spaces, city markers
and names are drawn once per language (supersampled, for smooth edges) and kept in a
LayerCache. A move only pastes the placed tiles and line heads (small anti-aliased patches,
cached per space and railroad), the "reaches this city" pips, who played which city card,
the halo round the last turn's tiles, and draws the panel.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.santa_fe.map import west
from games.santa_fe.models import SantaFeView
from render.kit.board_names import Pieces
from render.kit.encode import LayerCache, board_palette, drawn_on
from render.kit.fonts import font
from render.kit.geometry import Box, Walker
from render.kit.highlight import halo_lines, halo_spot, halo_width, thickness
from render.kit.mapdiff import KeptMaps, Piece, draw_all, halo_pieces, patched
from render.kit.regions import MAPS
from render.kit.text import draw_text
from render.santa_fe import icons, names, style
from render.santa_fe.layout import (
    BOARD_H,
    BOARD_W,
    CITY_R,
    LEGEND_BOX,
    MAP_H,
    MAP_W,
    MIN_TEXT,
    PIP_ANGLES,
    PIP_R,
    SPACE_W,
    START_R,
    TILE_W,
    BoardLayout,
    Point,
    board_layout,
    inlets,
    pip_center,
    sea_polygons,
)
from render.santa_fe.names import LABEL_SIZE, geo_lines, mark_slots
from render.santa_fe.sidebar import draw_sidebar
from render.santa_fe.tags import TAG_R, played_marks, tag_patch

# The 256 colours this game's boards map onto from the first on (render.kit.make_board_palettes)
BOARD_PALETTE = board_palette(__file__)

SIZE = (BOARD_W, BOARD_H)
SS = 2  # supersampling factor for the static shapes and the patches
VALUE_SIZE = MIN_TEXT  # a city's value in its marker
# The railroad's code printed on a placed tile, as on the printed tiles: as large as the tile's
# face holds. It is a mark on the piece, for whoever opens the board at full size; at preview
# size the panel's railroad chips and the legend carry the codes (text there is full size).
TILE_CODE_PX = 10


@dataclass(frozen=True)
class StaticMap:
    image: Image.Image  # the whole board: map, empty spaces, cities, legend, empty panel
    mask: Image.Image  # "L": where city markers are (to restore them over tiles)
    city_boxes: tuple[tuple[int, int, int, int], ...]  # the marker, per city
    touched: dict[int, tuple[int, ...]]  # section -> cities whose marker a tile of it may cover
    slots: dict[int, tuple[Point, ...]]  # city -> where the marks of who played its card go
    ground: Image.Image  # the map alone (image's top MAP_H rows): what the track is drawn over
    panel: Image.Image  # the empty panel under it (the rest of image)


_STATIC = LayerCache()


def static_map(lang: str) -> StaticMap:
    """The cached static layer for a language (built on first use)."""
    return _STATIC.get(("sf-board", lang, SIZE), lambda: _build_static(lang))


def render_board(view: SantaFeView, names: Sequence[str], lang: str = "en") -> Image.Image:
    base = static_map(lang)
    img = Image.new("RGB", SIZE)
    # A move that changes nothing on the map (a card chosen, drawn or bought) shows the map of the
    # board before it: kept whole (render.kit.regions), keyed by all map_pieces reads. Otherwise the
    # map is redrawn only round what changed from a kept map (render.kit.mapdiff).
    MAPS.paste(img, (0, 0, MAP_W, MAP_H), map_key(view, lang), lambda: _kept_map(view, base, lang),
               ground=("sf-board", lang, SIZE))
    img.paste(base.panel, (0, MAP_H))
    # the panel is the static layer's until the sidebar draws on it: named, not hashed, as its ground
    draw_sidebar(img, view, names, lang, ground=("sf-board", lang, SIZE))
    return drawn_on(img, base.image, BOARD_PALETTE)


def render_map(view: SantaFeView, lang: str = "en", width: int | None = None) -> Image.Image:
    """Just the map with the track (no sidebar), optionally scaled to `width`."""
    base = static_map(lang)
    img = base.ground.copy()
    draw_map(img, view, lang)
    if width is not None and width != MAP_W:
        img = img.resize((width, round(MAP_H * width / MAP_W)), Image.Resampling.LANCZOS)
    return img


# Maps of the last boards with their track, to redraw only round what a move changed: a placement
# redraws its tiles, the halos that moved, the marks near them and the names that moved. Bounded
# by mapdiff.KEPT_BYTES (a Santa Fe map is 3.8 MB) and 3 maps a language.
KEPT_MAPS = KeptMaps()


def _kept_map(view: SantaFeView, base: StaticMap, lang: str) -> Image.Image:
    """The map of map_pieces over the static layer, redrawn from a kept map where it can be (not to
    be drawn on)."""
    return KEPT_MAPS.draw_over(("sf-map", lang), base.ground, map_pieces(view, lang)[0])


def draw_map(img: Image.Image, view: SantaFeView, lang: str) -> dict[int, Box]:
    """Everything the game has put on the map (map_pieces), drawn on `img`. Returns each name's box."""
    pieces, boxes = map_pieces(view, lang)
    draw_all(img, pieces)
    return boxes


# --- the pieces on the map ---------------------------------------------------------------------------
def map_pieces(view: SantaFeView, lang: str) -> tuple[list[Piece], dict[int, Box]]:
    """What the game has put on the map, from public fields, as pieces drawn in order over the
    static layer: the halo round the last turn's tiles, the placed tiles, the city markers they
    reach over (put back on top), line heads, who played which card, the railroads reaching each
    city, then the city names, each placed clear of the others' shapes (render.santa_fe.names).
    With each name's box."""
    base = static_map(lang)
    layout = board_layout()
    masks = names.new_pieces()
    out = _last_tiles_halo(view, masks)
    touched: set[int] = set()
    for sid, built in enumerate(view.sec_built):
        if built <= 0:
            continue
        r, end = view.sec_rr[sid], view.sec_from[sid]
        for k in range(built):
            index = layout.space_index(sid, k, end)
            out.append(masks.patched(("tile", sid, index, r), "track", [tile_patch(sid, index, r)]))
        touched.update(base.touched.get(sid, ()))
    out += [_marker_again(base, ("marker", city), base.city_boxes[city]) for city in sorted(touched)]
    heads_at: dict[int, int] = {}
    for r, heads in enumerate(view.lines):
        for city, sid, built, end in heads:
            if sid < 0:
                heads_at[city] = heads_at.get(city, 0) | 1 << r
                continue
            if built < len(layout.sections[sid].spaces):
                index = layout.space_index(sid, built, end)
                out.append(masks.patched(("head", sid, index, r, end), "marks", [head_patch(sid, index, r, end)]))
    out += _played_tags(base, view, masks)  # before the pips: a mark's halo must not hide one
    for city, mask in enumerate(view.connected):
        heads = heads_at.get(city, 0)
        for r in range(len(PIP_ANGLES)):
            if mask >> r & 1:
                head = bool(heads >> r & 1)
                out.append(masks.patched(("pip", city, r, head), "marks", [pip_patch(city, r, head)]))
    boxes = names.place(lang, masks)
    for city, box in boxes.items():
        at = (int(box[0]), int(box[1]))
        out.append(patched(("name", city, at), [(names.name_patch(city, lang), at)]))
    return out, boxes


def map_key(view: SantaFeView, lang: str) -> tuple:
    """What map_pieces draws from."""
    players = tuple((p.seat, tuple(p.played), None if p.revealed is None else p.revealed.card) for p in view.players)
    return ("sf-map", lang, tuple(view.sec_built), tuple(view.sec_rr), tuple(view.sec_from), repr(view.lines),
            tuple(view.connected), tuple(last_tile_spaces(view)), tuple(sorted(_fresh(view))), players)


def name_boxes(view: SantaFeView, lang: str) -> dict[int, Box]:
    """Where this board puts each city's name."""
    return map_pieces(view, lang)[1]


def last_tile_spaces(view: SantaFeView) -> list[tuple[int, int]]:
    """(section, geometric space index) of every tile the last turn placed."""
    layout = board_layout()
    return [(sid, layout.space_index(sid, k, view.sec_from[sid])) for sid, k in view.turn_tiles
            if 0 <= sid < len(view.sec_built) and k < view.sec_built[sid]]


def _marker_again(base: StaticMap, key: tuple, box: Box) -> Piece:
    """A city marker (its value too) put back from the static layer over what was drawn on it."""
    return Piece(key, box, partial(_paste_marker, base, box))


def _paste_marker(base: StaticMap, box: Box, img: Image.Image) -> None:
    img.paste(base.image.crop(box), box, base.mask.crop(box))


def _last_tiles_halo(view: SantaFeView, masks: Pieces) -> list[Piece]:
    """The kit's last-move halo under every tile of the last turn (drawn before the tiles)."""
    layout = board_layout()
    paths = []
    for sid, index in last_tile_spaces(view):
        space = layout.sections[sid].spaces[index]
        ca, sa = math.cos(space.angle), math.sin(space.angle)
        half = space.length / 2
        cx, cy = space.center
        paths.append([(cx - ca * half, cy - sa * half), (cx + ca * half, cy + sa * half)])
    for path in paths:
        masks.line("marks", path, halo_width(MAP_W, TILE_W))
    return halo_pieces("tile halo", paths, TILE_W, MAP_W)


def _played_tags(base: StaticMap, view: SantaFeView, masks: Pieces) -> list[Piece]:
    """Who played which city card: the seat's marker shape beside the city, tied to it; the cards
    revealed this round (the last card choice) ringed with the last-move halo."""
    fresh = _fresh(view)
    marks = played_marks(view.players, base.slots)
    layout = board_layout()
    out = []
    ringed = set()
    band, edge = thickness(MAP_W)
    for city, seat, centre in marks:
        if (seat, city) in fresh:
            reach = TAG_R * 1.15 + band + edge + 2
            box = (int(centre[0] - reach), int(centre[1] - reach), int(centre[0] + reach) + 2, int(centre[1] + reach) + 2)
            out.append(Piece(("ring", city, seat, centre), box, partial(_ring, centre)))
            ringed.add(city)
    for city in sorted(ringed):  # the halo may reach the city's own marker: its value stays on top
        x, y = layout.cities[city]
        rad = CITY_R + 2
        out.append(_marker_again(base, ("ringed marker", city),
                                 (int(x - rad), int(y - rad), int(x + rad) + 2, int(y + rad) + 2)))
    for city, seat, centre in marks:  # a short tie from the marker: whose mark it is, in a crowd
        x, y = layout.cities[city]
        dist = math.dist((x, y), centre) or 1.0
        start = (x + (centre[0] - x) * CITY_R / dist, y + (centre[1] - y) * CITY_R / dist)
        box = (int(min(start[0], centre[0])) - 4, int(min(start[1], centre[1])) - 4,
               int(max(start[0], centre[0])) + 5, int(max(start[1], centre[1])) + 5)
        out.append(Piece(("tie", city, seat, centre), box, partial(_tie, start, centre)))
        masks.line("hard", (start, centre), 3)
    for city, seat, centre in marks:
        out.append(masks.patched(("tag", city, seat, centre), "hard", [tag_patch(seat, centre)]))
    return out


def _ring(centre: Point, img: Image.Image) -> None:
    halo_spot(img, centre, TAG_R * 1.15)


def _tie(start: Point, end: Point, img: Image.Image) -> None:
    ImageDraw.Draw(img).line((start, end), fill=style.CITY_EDGE, width=3)


def _fresh(view: SantaFeView) -> set[tuple[int, int]]:
    """(seat, city card) of the cards revealed this round, ringed on the map."""
    if view.phase in ("track", "exchange") or (view.phase == "over" and view.turn_tiles):
        return {(p.seat, p.revealed.card) for p in view.players if p.revealed is not None and p.revealed.card >= 0}
    return set()


def _patch(points: list[Point], pad: float) -> tuple[int, int, int, int]:
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    x0, y0 = int(min(xs) - pad), int(min(ys) - pad)
    return x0, y0, int(max(xs) + pad + 2) - x0, int(max(ys) + pad + 2) - y0


@lru_cache(maxsize=None)
def tile_patch(sid: int, index: int, r: int) -> tuple[Image.Image, tuple[int, int]]:
    """A placed tile of railroad r on a space: an RGBA patch and where it goes."""
    space = board_layout().sections[sid].spaces[index]
    outer = space.corners(TILE_W, 1)
    x0, y0, w, h = _patch(outer, 3)
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)

    def sc(pts, dx=0.0, dy=0.0):
        return [((x - x0 + dx) * SS, (y - y0 + dy) * SS) for x, y in pts]

    d.polygon(sc(outer, 1.2, 1.8), fill=(0, 0, 0, 70))  # a soft shadow: the tile sits on the board
    d.polygon(sc(outer), fill=style.TILE_EDGE)
    fill = style.rr_rgb(r)
    d.polygon(sc(space.corners(TILE_W - 4, -3)), fill=fill)
    cx, cy = space.center
    tile_code(big, ((cx - x0) * SS, (cy - y0) * SS), space.angle, r, TILE_CODE_PX * SS)
    return big.resize((w, h), Image.Resampling.BOX), (x0, y0)


def tile_code(big: Image.Image, centre: Point, angle: float, r: int, px: int) -> None:
    """The railroad's code printed along a tile (`px` tall), so railroads differ by more than
    their colour. Drawn as a mark (a rotated glyph stamp), not as text for the kit's type
    checks: a tile is narrower than the smallest readable type."""
    code = style.rr_code(r)
    f = font(px, True)
    left, top, right, bottom = f.getbbox(code)
    label = Image.new("RGBA", (right - left + 4, bottom - top + 4), (0, 0, 0, 0))
    ImageDraw.Draw(label).text((2 - left, 2 - top), code, font=f, fill=style.rr_text(r))
    degrees = -math.degrees(angle)
    while degrees > 90:
        degrees -= 180
    while degrees <= -90:
        degrees += 180
    label = label.rotate(degrees, expand=True, resample=Image.Resampling.BICUBIC)
    big.paste(label, (int(centre[0] - label.width / 2), int(centre[1] - label.height / 2)), label)


@lru_cache(maxsize=None)
def head_patch(sid: int, index: int, r: int, end: int) -> tuple[Image.Image, tuple[int, int]]:
    """A line head inside a section: an arrow in the railroad's colour on the next space,
    pointing the way the line is being built."""
    space = board_layout().sections[sid].spaces[index]
    angle = space.angle + (math.pi if end == 1 else 0.0)
    length = min(space.length + 4, 18.0)
    ca, sa = math.cos(angle), math.sin(angle)
    cx, cy = space.center
    tip = (cx + ca * length / 2, cy + sa * length / 2)
    back = (cx - ca * length / 2, cy - sa * length / 2)
    half = 8.0
    pts = [tip, (back[0] - sa * half, back[1] + ca * half), (back[0] + sa * half, back[1] - ca * half)]
    x0, y0, w, h = _patch(pts, 4)
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    scaled = [((x - x0) * SS, (y - y0) * SS) for x, y in pts]
    d.polygon(scaled, fill=style.rr_rgb(r), outline=style.TILE_EDGE, width=2 * SS)
    return big.resize((w, h), Image.Resampling.BOX), (x0, y0)


@lru_cache(maxsize=None)
def pip_patch(city: int, r: int, head: bool) -> tuple[Image.Image, tuple[int, int]]:
    """Railroad r reaches this city: a small disc; a line head here: a larger ringed one."""
    cx, cy = pip_center(city, r)
    rad = PIP_R + (2.2 if head else 0.0)
    x0, y0 = int(cx - rad - 3), int(cy - rad - 3)
    w = h = int(2 * rad + 8)
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    px, py = (cx - x0) * SS, (cy - y0) * SS
    rs = rad * SS
    d.ellipse((px - rs, py - rs, px + rs, py + rs), fill=style.rr_rgb(r), outline=style.HEAD_RING,
              width=(2 if head else 1) * SS)
    if head:
        ri = 1.6 * SS
        d.ellipse((px - ri, py - ri, px + ri, py + ri), fill=style.HEAD_RING)
    return big.resize((w, h), Image.Resampling.BOX), (x0, y0)


# --- the static layer ------------------------------------------------------------------------------------
def _build_static(lang: str) -> StaticMap:
    board = west()
    layout = board_layout()
    big = Image.new("RGB", (BOARD_W * SS, BOARD_H * SS), style.SIDEBAR_BG)
    d = ImageDraw.Draw(big)

    def sc(pts):
        return [(x * SS, y * SS) for x, y in pts]

    d.rectangle((0, 0, MAP_W * SS, MAP_H * SS), fill=style.LAND)
    for poly in layout.foreign:
        d.polygon(sc(poly), fill=style.FOREIGN)
    # mountain ranges: a soft band first, peaks on top later (rivers run through the band)
    for line in layout.ranges:
        d.line(sc(line), fill=style.RANGE_SHADE, width=30 * SS, joint="curve")
        for p in (line[0], line[-1]):
            r = 15 * SS
            d.ellipse((p[0] * SS - r, p[1] * SS - r, p[0] * SS + r, p[1] * SS + r), fill=style.RANGE_SHADE)
    for poly in sea_polygons(layout):
        d.polygon(sc(poly), fill=style.WATER)
    for pts in inlets(layout):
        d.line(sc(pts), fill=style.COAST, width=9 * SS, joint="curve")
        d.line(sc(pts), fill=style.WATER, width=6 * SS, joint="curve")
    for name, pts in layout.water.items():
        if name in ("pacific_coast", "gulf_coast") or pts[0] == pts[-1]:
            d.line(sc(pts), fill=style.COAST, width=2 * SS, joint="curve")
    for line in layout.ranges:
        _peaks(d, line)
    for line in layout.rivers:
        d.line(sc(line), fill=style.RIVER, width=3 * SS, joint="curve")
    for line in layout.borders:
        _dashed(d, line, style.BORDER, 2 * SS, 9, 6)
    _draw_spaces(d, layout)
    d.rectangle((0, MAP_H * SS, BOARD_W * SS, BOARD_H * SS), fill=style.SIDEBAR_BG)  # the sea stops at the map
    for city in range(len(board.cities)):
        _marker(d, city)
    img = big.resize(SIZE, Image.Resampling.BOX)
    d = ImageDraw.Draw(img)
    d.rectangle((0, MAP_H, BOARD_W, MAP_H + 2), fill=style.DIVIDER)
    _values(img)

    _geo_labels(img, lang)
    ink = Image.new("L", SIZE, 0)  # white where a marker is: the mask
    ink_d = ImageDraw.Draw(ink)
    boxes = []
    for x, y in layout.cities:
        rad = CITY_R + 2
        ink_d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=255)
        boxes.append((int(x - rad) - 2, int(y - rad) - 2, int(x + rad) + 3, int(y + rad) + 3))
    _legend(img, lang)
    touched = {}
    for shape in layout.sections:
        pts = [p for sp in shape.spaces for p in sp.corners(TILE_W + 4, 4)]
        xs, ys = [x for x, _ in pts], [y for _, y in pts]
        hit = tuple(c for c, (x0, y0, x1, y1) in enumerate(boxes)
                    if x0 < max(xs) and x1 > min(xs) and y0 < max(ys) and y1 > min(ys))
        if hit:
            touched[shape.section] = hit
    return StaticMap(image=img, mask=ink, city_boxes=tuple(boxes), touched=touched,
                     slots=mark_slots(names.preferred(lang), lang), ground=img.crop((0, 0, MAP_W, MAP_H)),
                     panel=img.crop((0, MAP_H, BOARD_W, BOARD_H)))


def _draw_spaces(d: ImageDraw.ImageDraw, layout: BoardLayout) -> None:
    board = west()
    for shape in layout.sections:  # the right of way: a thin line from city to city under the spaces
        d.line([(x * SS, y * SS) for x, y in shape.path], fill=style.TRACK_LINE, width=2 * SS)
    for shape in layout.sections:
        sec = board.sections[shape.section]
        rivers = board.river_spaces[shape.section]
        for i, space in enumerate(shape.spaces):
            if i in rivers:
                fill, edge = style.RIVER_FILL, style.RIVER_EDGE
            elif sec.mountain:
                fill, edge = style.MOUNTAIN_FILL, style.MOUNTAIN_EDGE
            else:
                fill, edge = style.SPACE_FILL, style.SPACE_EDGE
            pts = [(x * SS, y * SS) for x, y in space.corners(SPACE_W)]
            d.polygon(pts, fill=edge)
            inner = [(x * SS, y * SS) for x, y in space.corners(SPACE_W - 3, -3)]
            d.polygon(inner, fill=fill)
            if i in rivers:  # a wave across the space: the river to cross
                _wave(d, space, style.RIVER_EDGE)
            elif sec.mountain:  # a small peak in the space: a mountain line
                _caret(d, space, edge)


def _wave(d: ImageDraw.ImageDraw, space, colour) -> None:
    ca, sa = math.cos(space.angle), math.sin(space.angle)
    cx, cy = space.center
    pts = []
    for k in range(9):
        t = (k / 8 - 0.5) * (SPACE_W - 1)  # across the space
        s = math.sin(k / 8 * 2 * math.pi) * 2.0  # along it
        pts.append(((cx - sa * t + ca * s) * SS, (cy + ca * t + sa * s) * SS))
    d.line(pts, fill=colour, width=int(1.5 * SS), joint="curve")


def _caret(d: ImageDraw.ImageDraw, space, colour) -> None:
    cx, cy = space.center
    h = 3.2
    pts = [(cx - h, cy + h * 0.6), (cx, cy - h * 0.9), (cx + h, cy + h * 0.6)]
    d.line([(x * SS, y * SS) for x, y in pts], fill=colour, width=int(1.5 * SS), joint="curve")


def _marker(d: ImageDraw.ImageDraw, city: int) -> None:
    board = west()
    x, y = board_layout().cities[city]
    c = board.cities[city]
    if c.value == 0:  # a start city: a square in the colours of the railroads starting there
        rr = [board.rr_index[code.lower()] for code in c.start]
        rr.sort()
        r = START_R * SS
        x0, y0, x1, y1 = x * SS - r, y * SS - r, x * SS + r, y * SS + r
        d.rounded_rectangle((x0, y0, x1, y1), 3 * SS, fill=style.CITY_EDGE)
        inner = 2.5 * SS
        w = (x1 - x0 - 2 * inner) / len(rr)
        for k, i in enumerate(rr):
            d.rectangle((x0 + inner + k * w, y0 + inner, x0 + inner + (k + 1) * w, y1 - inner), fill=style.rr_rgb(i))
        return
    r = CITY_R * SS
    d.ellipse((x * SS - r, y * SS - r, x * SS + r, y * SS + r), fill=style.CITY_EDGE)
    r2 = (CITY_R - 2) * SS
    d.ellipse((x * SS - r2, y * SS - r2, x * SS + r2, y * SS + r2), fill=style.value_fill(c.value))


def _values(img: Image.Image) -> None:
    """Every valued city's number in its marker, in the board's smallest type: players decide
    where to build by it, so it must read where the board is seen (400 px wide)."""
    board = west()
    for city, (x, y) in enumerate(board_layout().cities):
        if board.values[city]:
            _digit(img, (x, y), board.values[city])


def _digit(img: Image.Image, xy: Point, value: int) -> None:
    # Centred on the ink of the digits rather than the line box, so the number sits in the disc.
    draw_text(img, (xy[0], xy[1] + 1), str(value), VALUE_SIZE, style.VALUE_TEXT, bold=True, anchor="mm")


def _peaks(d: ImageDraw.ImageDraw, line: Sequence[Point]) -> None:
    """Little upright peaks along a range's crest, in two staggered rows."""
    walk = Walker(list(line))
    step = 15.0
    n = max(1, int(walk.total / step))
    for i in range(n + 1):
        s = walk.total * i / max(n, 1)
        x, y = walk.at(s)
        dx = 4.0 if i % 2 else -4.0
        p, q = walk.at(max(0.0, s - 3)), walk.at(min(walk.total, s + 3))
        nx, ny = -(q[1] - p[1]), q[0] - p[0]
        ln = math.hypot(nx, ny) or 1.0
        x += nx / ln * dx
        y += ny / ln * dx
        h, half = (10.0, 7.0) if i % 2 else (8.0, 6.0)
        tri = [(x - half, y + h / 2), (x, y - h / 2), (x + half, y + h / 2)]
        d.polygon([(a * SS, b * SS) for a, b in tri], fill=style.RANGE_FILL)
        d.line([(a * SS, b * SS) for a, b in tri], fill=style.RANGE_RIDGE, width=int(1.5 * SS), joint="curve")
        # the shaded east face of the peak
        d.polygon([((x) * SS, (y - h / 2) * SS), ((x + half - 1) * SS, (y + h / 2 - 0.6) * SS),
                   ((x + 1.5) * SS, (y + h / 2 - 0.6) * SS)], fill=style.RANGE_RIDGE)


def _dashed(d: ImageDraw.ImageDraw, line: Sequence[Point], colour, width: int, dash: float, gap: float) -> None:
    walk = Walker(list(line))
    s = 0.0
    while s < walk.total:
        a = walk.at(s)
        b = walk.at(min(walk.total, s + dash))
        d.line([(a[0] * SS, a[1] * SS), (b[0] * SS, b[1] * SS)], fill=colour, width=width)
        s += dash + gap


# --- names on the map ---------------------------------------------------------------------------------------
def _geo_labels(img: Image.Image, lang: str) -> None:
    """The sea and the gulf, in the water's ink."""
    for x, y, part in geo_lines(lang):
        draw_text(img, (x, y), part, LABEL_SIZE, style.WATER_TEXT, bold=True, anchor="mm")


# --- the legend ----------------------------------------------------------------------------------------------
LEGEND_STEP = 31


def _legend(img: Image.Image, lang: str) -> None:
    """What the map's marks mean, in the empty Pacific south-west corner; short words in the
    board's smallest type, so the legend reads wherever the map does."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = LEGEND_BOX
    d.rounded_rectangle(LEGEND_BOX, 10, fill=(250, 247, 238), outline=style.COAST, width=2)
    y = y0 + 8 + LEGEND_STEP // 2
    cx = x0 + 24
    tx = x0 + 48
    room = x1 - tx - 6

    def label(key: str) -> None:
        draw_text(img, (tx, y), translate(lang, key), LABEL_SIZE, style.TEXT, anchor="lm", max_width=room)

    r = CITY_R * SS  # the map's own city marker, drawn the same way
    big = Image.new("RGBA", (2 * r + 4, 2 * r + 4), (0, 0, 0, 0))
    bd = ImageDraw.Draw(big)
    bd.ellipse((2, 2, 2 + 2 * r, 2 + 2 * r), fill=style.CITY_EDGE)
    bd.ellipse((2 + 2 * SS, 2 + 2 * SS, 2 + 2 * r - 2 * SS, 2 + 2 * r - 2 * SS), fill=style.CITY_FILL)
    small = big.resize((big.width // SS, big.height // SS), Image.Resampling.BOX)
    img.paste(small, (round(cx - small.width / 2), round(y - small.height / 2)), small)
    _digit(img, (cx, y), 5)
    label("santa_fe.render.legend.value")
    y += LEGEND_STEP
    d.rounded_rectangle((cx - 10, y - 9, cx + 10, y + 9), 3, fill=style.CITY_EDGE)
    d.rectangle((cx - 8, y - 7, cx, y + 7), fill=style.rr_rgb(3))
    d.rectangle((cx, y - 7, cx + 8, y + 7), fill=style.rr_rgb(0))
    label("santa_fe.render.legend.start")
    y += LEGEND_STEP
    icons.star(d, (cx, y), 18, style.rr_rgb(4))
    label("santa_fe.render.legend.special")
    y += LEGEND_STEP
    for k, r in enumerate((0, 3)):
        px = cx - 6 + k * 12
        d.ellipse((px - 5, y - 5, px + 5, y + 5), fill=style.rr_rgb(r), outline=style.HEAD_RING)
    label("santa_fe.render.legend.reaches")
    y += LEGEND_STEP
    hx = cx - 8
    d.ellipse((hx - 7, y - 7, hx + 7, y + 7), fill=style.rr_rgb(2), outline=style.HEAD_RING, width=2)
    d.ellipse((hx - 2, y - 2, hx + 2, y + 2), fill=style.HEAD_RING)
    d.polygon([(cx + 14, y), (cx + 2, y - 7), (cx + 2, y + 7)], fill=style.rr_rgb(2), outline=style.TILE_EDGE, width=2)
    label("santa_fe.render.legend.head")
    y += LEGEND_STEP
    for key, fill, edge in (("santa_fe.render.legend.mountain", style.MOUNTAIN_FILL, style.MOUNTAIN_EDGE),
                            ("santa_fe.render.legend.river", style.RIVER_FILL, style.RIVER_EDGE)):
        d.rectangle((cx - 12, y - 5, cx + 12, y + 5), fill=edge)
        d.rectangle((cx - 10, y - 3, cx + 10, y + 3), fill=fill)
        label(key)
        y += LEGEND_STEP
    d.rectangle((cx - 15, y - 8, cx + 15, y + 8), fill=style.TILE_EDGE)
    d.rectangle((cx - 13, y - 6, cx + 13, y + 6), fill=style.rr_rgb(1))
    tile_code(img, (cx, y), 0.0, 1, TILE_CODE_PX + 2)
    label("santa_fe.render.legend.tile")
    y += LEGEND_STEP
    for seat, dx in ((0, -9), (2, 9)):  # two seats' marks: the shape, not only the colour, is the seat
        patch, offset = tag_patch(seat, (cx + dx, y), 8.0)
        img.paste(patch, offset, patch)
    label("santa_fe.render.legend.played")
    y += LEGEND_STEP
    halo_lines(img, [[(cx - 6, y), (cx + 6, y)]], TILE_W)  # the halo reaches past the tile's ends
    d.rectangle((cx - 10, y - 7, cx + 10, y + 7), fill=style.TILE_EDGE)
    d.rectangle((cx - 8, y - 5, cx + 8, y + 5), fill=style.rr_rgb(0))
    label("santa_fe.render.legend.last")
