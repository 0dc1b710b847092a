"""The public Steam board: the hex map with every placed tile's track in its link owner's
colour, the cities' cubes, and the panel below (render/steam/sidebar.py).

Drawn from view.state only (everything in Steam is public, ST-15), so the picture is the same
whoever's view it is made from.

What never changes for a map and language — terrain, rivers, water, black edges, printed
cities and towns, water names and the rulers — is drawn once, supersampled, and kept in a
LayerCache. A move then draws:

  * new cities (Urbanize) in their colour;
  * the last-move halo (render/kit/highlight.py): one outline round the hexes of the latest
    build turn (the edges of their union, so neighbouring builds never stack rings), and a band
    under the links of the latest delivery while it is this turn's news;
  * every placed tile as a small anti-aliased patch, cached per hex and per look of its
    tracks (owner, unowned, complete), so a move mostly pastes cached pieces;
  * each city's cubes (colour + shape), growth markers, and on every link its owner's seat
    marker and a buffer stop at each open end;
  * last, the city names, each where nothing of the above was drawn (render/steam/names.py).

Each of these is a piece (render.kit.mapdiff) with a box holding all it draws, so a move that
changes the map starts from a kept map and redraws only round the pieces it added or took away.

Link looks: an owned link is its owner's colour on a dark casing with the owner's marker
shape (style.SYMBOLS, as on the score chart) at its middle; an unowned link is
pale and dashed; an incomplete link ends in a bar across the track.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Sequence

from PIL import Image, ImageDraw

from games.core.hexgrid import Hex
from games.steam.derived import board_map, map_of, runs
from games.steam.map import Terrain
from games.steam.models import COLOURS, SteamState, SteamView
from render.kit.encode import LayerCache, board_palette, drawn_on
from render.kit.geometry import Walker
from render.kit.board_names import Pieces
from render.kit.highlight import halo_width
from render.kit.mapdiff import KeptMaps, Piece, draw_all, halo_pieces, outer_box, paste_patches
from render.kit.regions import MAPS
from render.kit.text import draw_text
from render.steam import marks, names, style
from render.steam.layout import BOARD_W, MIN_TEXT, MapLayout, map_layout
from render.steam.names import water_names
from render.steam.sidebar import draw_panel, panel_height

# The 256 colours this game's boards map onto from the first on (render.kit.make_board_palettes)
BOARD_PALETTE = board_palette(__file__)

SS = 2
Point = tuple[float, float]


def track_width(ml: MapLayout) -> int:
    return max(6, round(ml.s * 0.26))


def casing_width(ml: MapLayout) -> int:
    return track_width(ml) + 6


# --- the static layer ----------------------------------------------------------------------------
@dataclass(frozen=True)
class StaticMap:
    image: Image.Image                           # the map area: terrain, places, water names, rulers


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
    return StaticMap(img)


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


def _water_names(img: Image.Image, m, ml: MapLayout, lang: str) -> None:
    for text, centre, room in water_names(m, ml, lang):
        draw_text(img, centre, text, MIN_TEXT, style.WATER_TEXT, bold=True, anchor="mm", max_width=room)


# --- the whole board -----------------------------------------------------------------------------
def render_board(view: SteamView, names: Sequence[str], lang: str = "en") -> Image.Image:
    state = view.state
    ml = map_layout(state.options.map)
    base = static_map(state.options.map, lang)
    height = ml.size[1] + panel_height(state, lang)
    img = Image.new("RGB", (BOARD_W, height), style.PANEL_BG)
    # A move that changes nothing on the map (an auction bid, an action chosen, income) shows the
    # map of the board before it: kept whole (render.kit.regions), keyed by all draw_map reads.
    # Either way the whole map area is pasted over, so nothing is laid there first.
    MAPS.paste(img, (0, 0, ml.size[0], ml.size[1]), ("steam-map", lang, state.model_dump_json(include=MAP_FIELDS)),
               lambda: _kept_map(state, base, ml, lang), ground=("steam-map", state.options.map, lang, BOARD_W))
    d = ImageDraw.Draw(img)
    d.rectangle((0, ml.size[1], BOARD_W, ml.size[1] + 2), fill=style.DIVIDER)
    # the panel is flat PANEL_BG until the panel's parts draw on it: named, not hashed, as their ground
    draw_panel(img, view, names, lang, ml.size[1] + 2, ground=("steam-panel", style.PANEL_BG, BOARD_W, ml.size[1]))
    return drawn_on(img, base.image, BOARD_PALETTE)


# Maps of the last boards with their track, to redraw only round what a move changed
# (render.kit.mapdiff): a build redraws its hexes, their links' marks, the last build's outline and
# the names near them. Bounded by mapdiff.KEPT_BYTES (32 MB, a Steam map 4-5 MB) and 3 maps a map
# and language.
KEPT_MAPS = KeptMaps()


def _kept_map(state: SteamState, base: StaticMap, ml: MapLayout, lang: str) -> Image.Image:
    """draw_map's map over the static layer, redrawn from a kept map where it can be (not to be drawn on)."""
    pieces, _ = map_pieces(state, ml, lang)
    return KEPT_MAPS.draw_over(("steam-map", state.options.map, lang), base.image, pieces)


# The state fields draw_map and what it calls read (the map, track, links, cities and their cubes,
# the latest builds and delivery).
MAP_FIELDS = {"options", "tiles", "links", "new_cities", "new_city_tiles", "grown", "cubes", "phase", "history",
              "delivered", "last_builds", "last_route", "last_route_places"}


def render_map(state: SteamState, lang: str = "en", route: Sequence[int] | None = None) -> Image.Image:
    """The map alone with the track (the hand image shows it smaller); `route`: links to halo
    as a delivery's (a route's own picture in a menu) instead of the latest delivery's."""
    ml = map_layout(state.options.map)
    base = static_map(state.options.map, lang)
    img = base.image.copy()
    draw_map(img, state, base, ml, lang, route=route)
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


def draw_map(img: Image.Image, state: SteamState, base: StaticMap, ml: MapLayout, lang: str = "en",
             route: Sequence[int] | None = None) -> dict[Hex, tuple[int, int, int, int]]:
    """Everything the move has put on the map (map_pieces), drawn on `img`. Returns each name's box."""
    pieces, boxes = map_pieces(state, ml, lang, route)
    draw_all(img, pieces)
    return boxes


def map_pieces(state: SteamState, ml: MapLayout, lang: str = "en",
               route: Sequence[int] | None = None) -> tuple[list[Piece], dict[Hex, tuple[int, int, int, int]]]:
    """What the move has put on the map, as pieces drawn in order over the static layer: new
    cities, the last move's halos, the tiles, cubes and growth markers, links' marks, then the
    city names, each where none of the others lies (their masks, `Pieces`, are made from the
    pieces' shapes and patches, without drawing them). With each name's box. `route`: links
    haloed instead of the latest delivery."""
    m = board_map(state)
    looks = link_looks(state)
    pieces = Pieces(ml.size, names.SCALE)
    out: list[Piece] = []
    for label, colour in state.new_cities.items():
        hx = m.hex_at(label)
        polygon = ml.hexes.polygon(hx)
        out.append(Piece(("new city", label, colour), outer_box([x for x, _ in polygon], [y for _, y in polygon],
                                                                 city_edge(ml.s)),
                         partial(_new_city, ml, hx, colour)))
        pieces.polygon("hard", polygon)
    out += _halos(pieces, state, ml, looks, route)
    by_hex: dict[str, list[TrackLook]] = {}
    for (label, sides), (_, owner, complete) in looks.items():
        by_hex.setdefault(label, []).append(TrackLook(sides, owner, complete))
    towns = set(m.towns)
    for t in state.tiles:
        hx = m.hex_at(t.hex)
        tracks = tuple(sorted(by_hex.get(t.hex, ()), key=lambda k: k.sides))
        patch, offset = tile_patch(state.options.map, hx, tracks, hx in towns)
        out.append(pieces.patched(("tile", t.hex, tracks), "track", [(patch, offset)]))
    out += _cities(pieces, state, ml)
    out += _link_marks(pieces, state, ml)
    boxes = names.place(state, lang, pieces)
    for hx, box in boxes.items():
        patch = names.name_patch(state.options.map, hx, lang)
        at = (int(box[0]), int(box[1]))
        out.append(Piece(("name", hx, at), (*at, at[0] + patch.width, at[1] + patch.height),
                         partial(paste_patches, [(patch, at)])))
    return out, boxes


def name_boxes(state: SteamState, lang: str = "en") -> dict[Hex, tuple[int, int, int, int]]:
    """Where this board draws each city's name."""
    return map_pieces(state, map_layout(state.options.map), lang)[1]


def city_edge(s: float) -> int:
    """How far a city's dark edge reaches out of its hex (and a pixel for its rounding)."""
    return max(2, round(s * 0.06)) // 2 + 2


def _new_city(ml: MapLayout, hx: Hex, colour: str, img: Image.Image) -> None:
    _city(ImageDraw.Draw(img), ml.hexes, hx, colour, new=True)


def build_outline(state: SteamState, ml: MapLayout) -> list[tuple[Point, Point]]:
    """The edges round the hexes of the latest build turn: the outline of their union, each edge
    once (two builds side by side share one outline, not two rings)."""
    m = board_map(state)
    built = {m.hex_at(label) for label in state.last_builds}
    return [ml.hexes.edge_points(hx.edge(side)) for hx in sorted(built) for side in range(6)
            if hx.neighbor(side) not in built]


def outline_paths(edges: list[tuple[Point, Point]]) -> list[list[Point]]:
    """The edges joined end to end into as few paths as they make (a closed loop per group of
    hexes), so the halo is drawn in one stroke per loop with clean joints."""
    def key(p: Point) -> tuple[int, int]:
        return round(p[0] * 4), round(p[1] * 4)

    ends: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(edges):
        ends.setdefault(key(a), []).append(i)
        ends.setdefault(key(b), []).append(i)
    left = set(range(len(edges)))
    paths = []
    while left:
        i = min(left)
        left.discard(i)
        path = list(edges[i])
        while True:
            nxt = next((j for j in ends[key(path[-1])] if j in left), None)
            if nxt is None:
                break
            left.discard(nxt)
            a, b = edges[nxt]
            path.append(b if key(a) == key(path[-1]) else a)
        paths.append(path)
    return paths


def _halos(pieces: Pieces, state: SteamState, ml: MapLayout, looks,
           route: Sequence[int] | None = None) -> list[Piece]:
    m = board_map(state)
    paths: list[list[Point]] = []
    if route is None and state.last_route and route_is_news(state):
        route = state.last_route
    if route:
        wanted = set(route)
        paths = [ml.track_path(m.hex_at(label), sides) for (label, sides), (lid, _, _) in looks.items()
                 if lid in wanted]
    outline = outline_paths(build_outline(state, ml))
    for path, width in [*((p, halo_width(BOARD_W, casing_width(ml))) for p in paths),
                        *((p, halo_width(BOARD_W)) for p in outline)]:
        pieces.line("marks", path, width)
    return [*halo_pieces("route halo", paths, casing_width(ml), BOARD_W), *halo_pieces("build halo", outline, 0, BOARD_W)]


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


def centred(patch: Image.Image, centre: Point) -> tuple[Image.Image, tuple[int, int]]:
    """The patch and where it goes to lie centred on `centre`."""
    return patch, (round(centre[0] - patch.width / 2), round(centre[1] - patch.height / 2))


def _cities(pieces: Pieces, state: SteamState, ml: MapLayout) -> list[Piece]:
    m = board_map(state)
    s = ml.s
    out = []
    for label, counts in state.cubes.items():
        cubes = [COLOURS[k] for k, n in enumerate(counts) for _ in range(n)]
        if not cubes:
            continue
        c = ml.center(m.hex_at(label))
        r = s * (0.15 if len(cubes) <= 6 else 0.13)
        out.append(pieces.patched(("cubes", label, tuple(counts)), "hard",
                                  [centred(cube_patch(colour, round(r, 1)), spot)
                                   for colour, spot in zip(cubes, cube_spots(c, s, len(cubes)))]))
    for label in state.grown:
        x, y = ml.center(m.hex_at(label))
        out.append(pieces.patched(("grown", label), "hard",
                                  [centred(growth_patch(round(s * 0.2, 1)), (x + s * 0.58, y - s * 0.5))]))
    return out


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


def _link_marks(pieces: Pieces, state: SteamState, ml: MapLayout) -> list[Piece]:
    m = board_map(state)
    traced = runs(state)
    r = round(ml.s * 0.19, 1)
    width = max(4, round(ml.s * 0.1))
    out = []
    for rec in state.links:
        run = traced.get(rec.id)
        if run is None or not run.segments:
            continue
        for hx, side in run.open_ends:
            out.append(pieces.patched(("open end", rec.id, hx, side), "marks",
                                      [centred(open_end_patch(side, round(ml.s, 1), width), ml.side_mid(hx, side))]))
        if rec.owner is not None:
            middle = link_middle(ml, m, run)
            out.append(pieces.patched(("marker", rec.id, rec.owner, middle), "marks",
                                      [centred(marker_patch(rec.owner, r), middle)]))
    return out
