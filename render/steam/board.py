"""The public Steam board: the hex map with every placed tile's track in its link owner's
colour, the cities' cubes, and the panel below (render/steam/sidebar.py).

Drawn from view.state only (everything in Steam is public, ST-15), so the picture is the same
whoever's view it is made from.

What never changes for a map and language — terrain, rivers, water, black edges, printed
cities and towns, names and the rulers — is drawn once, supersampled, and kept in a
LayerCache. A move then draws:

  * the last-move halo (render/kit/highlight.py): a ring round every hex of the latest build
    turn, and a band under the links of the latest delivery while it is this turn's news;
  * new cities (Urbanize) in their colour;
  * every placed tile as a small anti-aliased patch, cached per hex and per look of its
    tracks (owner, unowned, complete), so a move mostly pastes cached pieces;
  * names back over the track, then each city's cubes (colour + shape), growth markers, and
    on every link its owner's seat marker and a buffer stop at each open end.

Link looks: an owned link is its owner's colour on a dark casing with the owner's marker
shape (style.SYMBOLS, as on the score chart) at its middle; an unowned link is
pale and dashed; an incomplete link ends in a bar across the track.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.core.hexgrid import Hex
from games.steam.board import board_map, map_of, runs
from games.steam.maps import Terrain
from games.steam.models import COLOURS, SteamState, SteamView
from render.kit.encode import LayerCache, drawn_on
from render.kit.geometry import Walker
from render.kit.highlight import halo_lines, halo_spot
from render.kit.labels import MARK, NAME, TRACK, Label, Occupancy, Prices, Spots, label_size, place_names
from render.kit.text import draw_text
from render.steam import marks, style
from render.steam.layout import BOARD_W, MIN_TEXT, MapLayout, map_layout
from render.steam.sidebar import draw_panel, panel_height

SS = 2
NAME_HALO = 4
Point = tuple[float, float]


def track_width(ml: MapLayout) -> int:
    return max(6, round(ml.s * 0.26))


def casing_width(ml: MapLayout) -> int:
    return track_width(ml) + 6


# --- the static layer ----------------------------------------------------------------------------
@dataclass(frozen=True)
class StaticMap:
    image: Image.Image                           # the map area: terrain, places, names, rulers
    names: Image.Image                           # RGBA: the names alone, to lay back over track
    name_boxes: tuple[tuple[int, int, int, int], ...]


_STATIC = LayerCache()


def static_map(map_id: str, lang: str) -> StaticMap:
    return _STATIC.get(("steam-map", map_id, lang), lambda: _build_static(map_id, lang))


def _build_static(map_id: str, lang: str) -> StaticMap:
    m = map_of(map_id)
    ml = map_layout(map_id)
    w, h = ml.size
    big = Image.new("RGB", (w * SS, h * SS), style.OFF_MAP)
    d = ImageDraw.Draw(big)
    lay = ml.hexes.scaled(SS)

    def poly(hx: Hex) -> list[Point]:
        return lay.polygon(hx)

    for hx, space in m.spaces.items():
        fill = {Terrain.PLAINS: style.PLAINS, Terrain.HILLS: style.HILLS, Terrain.WATER: style.WATER}[space.terrain]
        d.polygon(poly(hx), fill=fill)
    for hx, space in m.spaces.items():  # outlines between land hexes; water stays one sheet
        if space.land:
            pts = poly(hx)
            d.line(pts + pts[:1], fill=style.GRID_LINE, width=SS, joint="curve")
        if space.terrain is Terrain.HILLS:
            _hills(d, lay.center(hx), lay.size)
    _coasts(d, m, lay)
    _rivers(d, m, lay)
    for hx, space in m.spaces.items():
        if space.city is not None:
            _city(d, lay, hx, space.city.value)
        elif space.town:
            _town(d, lay.center(hx), lay.size)
    for e in m.black_edges:
        a, b = lay.edge_points(e)
        d.line((a, b), fill=style.BLACK_EDGE, width=round(ml.s * 0.16 * SS))
        for p in (a, b):
            r = ml.s * 0.08 * SS
            d.ellipse((p[0] - r, p[1] - r, p[0] + r, p[1] + r), fill=style.BLACK_EDGE)
    img = big.resize((w, h), Image.Resampling.BOX)
    _rulers(img, ml)
    _water_names(img, m, ml, lang)
    names = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    boxes = []
    for hx, (xy, box) in place_labels(map_id, lang).items():
        text = m.name(hx, lang)
        draw_text(names, xy, text, MIN_TEXT, style.NAME_TEXT + (255,), bold=True, anchor="lm",
                  stroke_width=NAME_HALO, stroke_fill=style.NAME_HALO + (255,))
        boxes.append(box)
    img.paste(names, (0, 0), names)
    return StaticMap(img, names, tuple(boxes))


def _hills(d: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    """Two small humps: hills cost more to build on."""
    x, y = c
    for dx, dy in ((-0.32, 0.3), (0.3, -0.3)):
        cx, cy = x + dx * s, y + dy * s
        r = 0.2 * s
        d.arc((cx - r, cy - r * 0.8, cx + r, cy + r * 0.8), 200, 340, fill=style.HILL_MARK, width=max(2, round(s * 0.05)))


def _coasts(d: ImageDraw.ImageDraw, m, lay) -> None:
    """A darker line where water meets land."""
    for hx, space in m.spaces.items():
        if space.land:
            continue
        for side in range(6):
            other = m.spaces.get(hx.neighbor(side))
            if other is not None and other.land:
                a, b = lay.edge_points(hx.edge(side))
                d.line((a, b), fill=style.WATER_EDGE, width=round(lay.size * 0.06))


def _rivers(d: ImageDraw.ImageDraw, m, lay) -> None:
    """A wavy blue line through each river hex, towards its neighbours on the same river."""
    river_of: dict[Hex, int] = {}
    for k, feature in enumerate(m.rivers):
        for hx in feature.hexes:
            river_of[hx] = k
    width = round(lay.size * 0.08)
    for hx, space in m.spaces.items():
        if not space.river:
            continue
        c = lay.center(hx)
        k = river_of.get(hx)
        sides = [sd for sd in range(6) if k is not None and river_of.get(hx.neighbor(sd)) == k]
        if not sides:
            sides = [0]
        if len(sides) == 1:
            sides.append((sides[0] + 3) % 6)
        for sd in sides:
            a = lay.edge_midpoint(hx.edge(sd))
            pts = _wave(c, a, lay.size * 0.07)
            d.line(pts, fill=style.RIVER, width=width, joint="curve")


def _wave(a: Point, b: Point, amp: float) -> list[Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    out = []
    for i in range(13):
        t = i / 12
        w = math.sin(t * 2 * math.pi) * amp
        out.append((a[0] + dx * t + nx * w, a[1] + dy * t + ny * w))
    return out


def _city(d: ImageDraw.ImageDraw, lay, hx: Hex, colour: str, new: bool = False) -> None:
    """A city hex in its colour, dark-edged, with its shape as a hollow emblem at the top."""
    s = lay.size
    pts = lay.polygon(hx)
    d.polygon(pts, fill=style.goods_rgb(colour))
    d.line(pts + pts[:1], fill=style.CITY_EDGE, width=max(2, round(s * 0.06)), joint="curve")
    if new:  # a new city (Urbanize): a second, inner outline
        c = lay.center(hx)
        inner = [(c[0] + (x - c[0]) * 0.84, c[1] + (y - c[1]) * 0.84) for x, y in pts]
        d.line(inner + inner[:1], fill=style.goods_ink(colour), width=max(2, round(s * 0.035)), joint="curve")
    x, y = lay.center(hx)
    marks.emblem(d, colour, (x, y - s * 0.55), s * 0.16, width=max(2, round(s * 0.045)))


def _town(d: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    x, y = c
    r = s * 0.24
    d.ellipse((x - r, y - r, x + r, y + r), fill=style.TOWN_FILL, outline=style.TOWN_EDGE,
              width=max(2, round(s * 0.07)))


def _rulers(img: Image.Image, ml: MapLayout) -> None:
    """Column letters along the top, row numbers down the left (moves name hexes so)."""
    m = map_of(ml.map_id)
    from games.core.hexgrid import from_offset
    top = ml.hexes.bounds(ml.grid())[1]
    for col in range(ml.columns):
        x, _ = ml.center(from_offset(col, 0, m.offset))
        letter = m.label(from_offset(col, 0, m.offset)).rstrip("0123456789")
        draw_text(img, (x, top - 4), letter, MIN_TEXT, style.LABEL_TEXT, bold=True, anchor="md")
    for row in range(ml.rows):
        _, y = ml.center(from_offset(0, row, m.offset))
        draw_text(img, (ml.hexes.bounds(ml.grid())[0] - 6, y), str(row + 1), MIN_TEXT, style.LABEL_TEXT, bold=True,
                  anchor="rm")


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


def _water_names(img: Image.Image, m, ml: MapLayout, lang: str) -> None:
    for text, centre, room in water_names(m, ml, lang):
        draw_text(img, centre, text, MIN_TEXT, style.WATER_TEXT, bold=True, anchor="mm", max_width=room)


# Names keep off cities and towns (their cubes and discs) and off each other; each step down the
# list of spots costs a little, so a name stays beside its city when it can.
LABEL_PRICES = Prices(rank=4.0, covered={TRACK: 1, MARK: 4, NAME: 40}, crowd=(160, 110))


@lru_cache(maxsize=8)
def _labels(map_id: str, lang: str) -> tuple[dict, dict]:
    """Where each city's name goes, then where each town's name would go once it is urbanized:
    beside, above or below its hex, covering as few other cities, towns and names as possible.
    Towns are placed after every city, so a new city's name never pushes a printed one away."""
    m = map_of(map_id)
    ml = map_layout(map_id)
    occ = Occupancy(ml.size)
    s = ml.s
    for hx, space in m.spaces.items():  # track will run over land: a name is better on water
        if space.land:
            occ.polygon(ml.hexes.polygon(hx), TRACK)
    for text, (cx, cy), _ in water_names(m, ml, lang):
        w, h = label_size(text, MIN_TEXT, 0)
        occ.box((int(cx - w / 2), int(cy - h / 2), int(cx + w / 2), int(cy + h / 2)), NAME)
    for hx in m.cities:
        occ.polygon(ml.hexes.polygon(hx), MARK)
    for hx in m.towns:
        occ.disc(ml.center(hx), s * 0.45, MARK)
    grid = ml.hexes.bounds(ml.grid())
    occ.box((0, 0, ml.size[0], int(grid[1])), NAME)      # the rulers
    occ.box((0, 0, int(grid[0]), ml.size[1]), NAME)

    def labels(hexes) -> list[Label]:
        out = []
        for hx in sorted(hexes):
            w, h = label_size(m.name(hx, lang), MIN_TEXT, NAME_HALO)
            spots = Spots(side=s * 0.9, above=s * 0.62, below=s * 0.7, first="below", shift=0.5, diagonal=0.7)
            out.append(Label(hx, ml.center(hx), w, h, spots))
        return out

    cities = place_names(occ, labels(m.cities), LABEL_PRICES, pad=NAME_HALO)
    towns = place_names(occ, labels(m.towns), LABEL_PRICES, pad=NAME_HALO)
    return cities, towns


def place_labels(map_id: str, lang: str) -> dict[Hex, tuple[Point, tuple[int, int, int, int]]]:
    """Where each printed city's name goes (drawn once, in the static layer)."""
    return _labels(map_id, lang)[0]


def new_city_labels(map_id: str, lang: str) -> dict[Hex, tuple[Point, tuple[int, int, int, int]]]:
    """Where each town's name goes once Urbanize has made it a city."""
    return _labels(map_id, lang)[1]


# --- the whole board -----------------------------------------------------------------------------
def render_board(view: SteamView, names: Sequence[str], lang: str = "en") -> Image.Image:
    state = view.state
    ml = map_layout(state.options.map)
    base = static_map(state.options.map, lang)
    height = ml.size[1] + panel_height(state)
    img = Image.new("RGB", (BOARD_W, height), style.PANEL_BG)
    img.paste(base.image, (0, 0))
    draw_map(img, state, base, ml, lang)
    d = ImageDraw.Draw(img)
    d.rectangle((0, ml.size[1], BOARD_W, ml.size[1] + 2), fill=style.DIVIDER)
    draw_panel(img, view, names, lang, ml.size[1] + 2)
    return drawn_on(img, base.image)


def render_map(state: SteamState, lang: str = "en") -> Image.Image:
    """The map alone with the track (the hand image shows it smaller)."""
    ml = map_layout(state.options.map)
    base = static_map(state.options.map, lang)
    img = base.image.copy()
    draw_map(img, state, base, ml, lang)
    return img


@dataclass(frozen=True)
class TrackLook:
    """How one track segment is drawn: its owner (None: unowned) and whether its link is complete."""

    sides: tuple[int, ...]
    owner: int | None
    complete: bool


def link_looks(state: SteamState) -> dict[tuple[str, tuple[int, ...]], tuple[int, int | None, bool]]:
    """(hex label, sides) of every track segment -> (link id, owner, complete)."""
    traced = runs(state)
    out = {}
    for rec in state.links:
        run = traced.get(rec.id)
        complete = run.complete if run is not None else False
        for label, sides in rec.segments:
            out[(label, tuple(sides))] = (rec.id, rec.owner, complete)
    return out


def route_is_news(state: SteamState) -> bool:
    """Whether the latest delivery happened this turn (or, between turns, in the turn just
    ended): only then is its route the last move worth pointing at."""
    totals = [sum(h.get("delivered", [])) for h in state.history]
    now = sum(state.delivered)
    if state.phase == "deliver":
        return now > (totals[-1] if totals else 0)
    if not totals:
        return False
    return totals[-1] > (totals[-2] if len(totals) >= 2 else 0)


def draw_map(img: Image.Image, state: SteamState, base: StaticMap, ml: MapLayout, lang: str = "en") -> None:
    m = board_map(state)
    looks = link_looks(state)
    d = ImageDraw.Draw(img)
    for label, colour in state.new_cities.items():
        _city(d, ml.hexes, m.hex_at(label), colour, new=True)
    _halos(img, state, ml, looks)
    by_hex: dict[str, list[TrackLook]] = {}
    for (label, sides), (_, owner, complete) in looks.items():
        by_hex.setdefault(label, []).append(TrackLook(sides, owner, complete))
    towns = set(m.towns)
    for t in state.tiles:
        hx = m.hex_at(t.hex)
        tracks = tuple(sorted(by_hex.get(t.hex, ()), key=lambda k: k.sides))
        patch, offset = tile_patch(state.options.map, hx, tracks, hx in towns)
        img.paste(patch, offset, patch)
    for box in base.name_boxes:  # names stay readable over track
        crop = base.names.crop(box)
        img.paste(crop, box[:2], crop)
    spots = new_city_labels(state.options.map, lang)
    for label in state.new_cities:
        hx = m.hex_at(label)
        if hx in spots:
            draw_text(img, spots[hx][0], m.name(hx, lang), MIN_TEXT, style.NAME_TEXT, bold=True, anchor="lm",
                      stroke_width=NAME_HALO, stroke_fill=style.NAME_HALO)
    _cities(img, state, ml)
    _link_marks(img, state, ml)


def _halos(img: Image.Image, state: SteamState, ml: MapLayout, looks) -> None:
    m = board_map(state)
    if state.last_route and route_is_news(state):
        wanted = set(state.last_route)
        paths = [ml.track_path(m.hex_at(label), sides) for (label, sides), (lid, _, _) in looks.items()
                 if lid in wanted]
        halo_lines(img, paths, casing_width(ml))
    for label in state.last_builds:
        halo_spot(img, ml.center(m.hex_at(label)), ml.s * 0.98)


@lru_cache(maxsize=8192)
def tile_patch(map_id: str, hx: Hex, tracks: tuple[TrackLook, ...], town: bool) -> tuple[Image.Image, tuple[int, int]]:
    """One placed tile's track as an anti-aliased RGBA patch, and where it goes."""
    ml = map_layout(map_id)
    x0, y0, x1, y1 = ml.hexes.bounds([hx])
    pad = casing_width(ml)
    ox, oy = int(x0 - pad), int(y0 - pad)
    w, h = int(x1 + pad) - ox + 1, int(y1 + pad) - oy + 1
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)

    def sc(pts):
        return [((x - ox) * SS, (y - oy) * SS) for x, y in pts]

    tw, cw = track_width(ml) * SS, casing_width(ml) * SS
    for look in tracks:
        path = sc(ml.track_path(hx, look.sides))
        d.line(path, fill=style.CASING, width=cw, joint="curve")
        if look.owner is None:
            d.line(path, fill=style.UNOWNED, width=tw, joint="curve")
            _dashes(d, path, style.UNOWNED_DASH, max(2, tw // 2), tw * 1.1, tw * 0.9)
        else:
            d.line(path, fill=style.player_rgb(look.owner), width=tw, joint="curve")
    if town:
        c = sc([ml.center(hx)])[0]
        r = ml.s * 0.26 * SS
        d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=style.TOWN_FILL, outline=style.TOWN_EDGE,
                  width=max(2, round(ml.s * 0.07)) * SS)
    return big.resize((w, h), Image.Resampling.BOX), (ox, oy)


def _dashes(d: ImageDraw.ImageDraw, path: list[Point], colour, width: int, dash: float, gap: float) -> None:
    walk = Walker(list(path))
    pos = gap / 2
    while pos < walk.total:
        a, b = walk.at(pos), walk.at(min(walk.total, pos + dash))
        d.line((a, b), fill=colour, width=width)
        pos += dash + gap


# --- cubes, growth markers -----------------------------------------------------------------------
def cube_spots(centre: Point, s: float, count: int) -> list[Point]:
    """Where a city's cubes sit: up to three a row below its emblem, four a row when crowded."""
    per_row = 3 if count <= 6 else 4
    pitch = s * (0.4 if per_row == 3 else 0.34)
    rows = max(1, -(-count // per_row))
    x, y = centre
    top = y + s * 0.08 - (rows - 1) * pitch / 2
    out = []
    for k in range(count):
        row, col = divmod(k, per_row)
        in_row = min(per_row, count - row * per_row)
        out.append((x + (col - (in_row - 1) / 2) * pitch, top + row * pitch))
    return out


@lru_cache(maxsize=64)
def cube_patch(colour: str, r: float) -> Image.Image:
    size = int(2 * r * 1.3 + 6)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    marks.cube(ImageDraw.Draw(big), colour, (size * SS / 2, size * SS / 2), r * SS, width=2 * SS)
    return big.resize((size, size), Image.Resampling.BOX)


def paste_centred(img: Image.Image, patch: Image.Image, centre: Point) -> None:
    img.paste(patch, (round(centre[0] - patch.width / 2), round(centre[1] - patch.height / 2)), patch)


def _cities(img: Image.Image, state: SteamState, ml: MapLayout) -> None:
    m = board_map(state)
    s = ml.s
    for label, counts in state.cubes.items():
        cubes = [COLOURS[k] for k, n in enumerate(counts) for _ in range(n)]
        if not cubes:
            continue
        c = ml.center(m.hex_at(label))
        r = s * (0.15 if len(cubes) <= 6 else 0.13)
        for colour, spot in zip(cubes, cube_spots(c, s, len(cubes))):
            paste_centred(img, cube_patch(colour, round(r, 1)), spot)
    for label in state.grown:
        x, y = ml.center(m.hex_at(label))
        paste_centred(img, growth_patch(round(s * 0.2, 1)), (x + s * 0.58, y - s * 0.5))


@lru_cache(maxsize=8)
def growth_patch(r: float) -> Image.Image:
    size = int(2 * r + 8)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    marks.growth_marker(ImageDraw.Draw(big), (size * SS / 2, size * SS / 2), r * SS)
    return big.resize((size, size), Image.Resampling.BOX)


# --- seat markers and open ends ------------------------------------------------------------------
@lru_cache(maxsize=16)
def marker_patch(seat: int, r: float) -> Image.Image:
    size = int(2 * r * 1.3 + 8)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    marks.seat_marker(ImageDraw.Draw(big), seat, (size * SS / 2, size * SS / 2), r * SS, width=2 * SS)
    return big.resize((size, size), Image.Resampling.BOX)


@lru_cache(maxsize=64)
def open_end_patch(side: int, s: float, width: int) -> Image.Image:
    """A bar along a hex side where a track stops (the side faces 30° + 60° side)."""
    size = int(s * 0.9)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    angle = math.radians(30 + 60 * side)
    marks.open_end(ImageDraw.Draw(big), (size * SS / 2, size * SS / 2), angle, s * 0.3 * SS, width * SS)
    return big.resize((size, size), Image.Resampling.BOX)


def link_middle(ml: MapLayout, m, run) -> Point:
    """A point halfway along a link's run (where its owner's marker goes)."""
    seg_hex, sides = run.segments[len(run.segments) // 2]
    path = ml.track_path(seg_hex, tuple(sides))
    walk = Walker(list(path))
    return walk.at(walk.total / 2)


def _link_marks(img: Image.Image, state: SteamState, ml: MapLayout) -> None:
    m = board_map(state)
    traced = runs(state)
    r = round(ml.s * 0.19, 1)
    width = max(4, round(ml.s * 0.1))
    for rec in state.links:
        run = traced.get(rec.id)
        if run is None or not run.segments:
            continue
        for hx, side in run.open_ends:
            paste_centred(img, open_end_patch(side, round(ml.s, 1), width), ml.side_mid(hx, side))
        if rec.owner is not None:
            paste_centred(img, marker_patch(rec.owner, r), link_middle(ml, m, run))
