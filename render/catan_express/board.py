"""The public Catan Express board: the island(s) with terrains, number tokens, harbours and every
name a move uses (intersection numbers, hex labels), the players' rails, ferries, settlements,
cities and locomotives, the robber, the race's stops with their water towers, and the panel
below (render/catan_express/sidebar.py).

Drawn from the view only; hands are never read here (a public view has them blanked anyway).

Layers
    What never changes for a board layout and language — sea, terrains and their signs,
    harbours — is drawn once, supersampled, and cached with the names that must stay on top
    of the track (tokens, hex labels, intersection numbers, harbour words) as a separate
    transparent layer, and with the two laid together as the empty map at full size. A move
    then draws, in order: the last-move halos and the rails and ferries (on a copy of the
    supersampled map), the empty map with only the bands of rows the track touches shrunk
    from that copy and the names laid over them again, then buildings, stops, locomotives and
    the robber as small cached anti-aliased patches, and the hex labels from remembered text
    masks (render/catan_express/stamps.py). Every step gives the pixels the plain way gives
    (render_board(..., quick=False)); the tests compare the two.

Looks
    A rail is a thick line in its owner's colour on a dark casing from an intersection to a
    hex centre; a ferry the same along a coast edge with white dashes. Pieces of several
    owners on one spoke or edge lie side by side, in building order. A settlement is a
    house and a city a house with a tower, in the owner's colour with the intersection's number
    written on it and the owner's shape (render.kit.chart.MARKERS) on its roof. A locomotive
    stands along its intersection's one vertical edge, where no rail runs.

    A harbour is a white label joined to its two intersections by piers, placed where no piece
    can ever cover it (render/catan_express/harbours.py): "2:1" over the resource's name ("3:1"
    over "any"), both on one line, or, in a channel too narrow for the word, over the
    resource's chip: its colour with its terrain's sign, and a stripe of each resource's colour
    for "any". An intersection's number sits on a disc, on a pill for three digits, always at the
    smallest size that reads at 400 px wide.
"""
from __future__ import annotations

import math
import threading
from contextlib import contextmanager
from functools import lru_cache, partial
from typing import Iterator, Sequence

from PIL import Image, ImageDraw

from games.catan_express.map import Terrain
from games.catan_express.models import CatanState, CatanView
from render.catan_express import style
from render.catan_express import sizes
from render.catan_express.harbours import CHIP, CHIP_H, CHIP_W, LABEL_GAP, LABEL_PAD, LINE, HarbourLabel
from render.catan_express.layout import BoardKey, MapLayout, Places, map_layout, places
from render.catan_express.room import centre_loco_spot, loco_offsets, loco_spot
from render.catan_express.sizes import BOARD_W, BUILDING_R, MIN_TEXT, POINT_R, STOP_R
from render.catan_express.figures import SS, loco_patch, robber_patch
from render.catan_express.sidebar import draw_panel, panel_height
from render.catan_express.stamps import is_plain, plain, stamp_text
from render.kit import palette
from render.kit.chart import draw_marker
from render.kit.encode import LayerCache, board_palette, drawn_on
from render.kit.highlight import halo_lines, halo_spot, thickness
from render.kit.mapdiff import KeptMaps, Piece, clip, meets, outer_box
from render.kit.regions import MAPS
from render.kit.text import draw_text, measure

# The 256 colours this game's boards map onto from the first on (render.kit.make_board_palettes)
BOARD_PALETTE = board_palette(__file__)

Point = tuple[float, float]
LABEL_SIZE = MIN_TEXT
TOKEN_SIZE = MIN_TEXT + 5
# An intersection without its number (the map of a pick picture, whose numbered badges are
# the only numbers on plates there): a dot that shows where an intersection is.
DOT_R = round(POINT_R * 0.45)


def board_key(view: CatanView) -> BoardKey:
    """The board the view shows, as a key of what is drawn once per board: its map and layout."""
    return view.state.map_id, view.board.key


def places_of(view: CatanView) -> Places:
    return places(*board_key(view))


# --- geometry of one hex's contents ---------------------------------------------------------------
def _polar(c: Point, angle: float, dist: float) -> Point:
    a = math.radians(angle)
    return c[0] + dist * math.cos(a), c[1] + dist * math.sin(a)


# Spokes leave a centre at -30°, 30°, 90°, ... (the corners); between them, towards the sides,
# there is room: the hex label up-left, the terrain's sign up-right, the robber on the left.
# On the smallest hexes a building, a locomotive or a stop's badge and towers on a corner can
# cover the label's place; the label then takes the first free one of the others (LABEL_SPOTS,
# in order).
LABEL_AT, SIGN_AT, ROBBER_AT = 240, 300, 180
LABEL_SPOTS = (LABEL_AT, 300, 0, 120, 60, 180)


def token_radius(s: float) -> float:
    return max(s * 0.27, TOKEN_SIZE * 0.85)


def rail_width(ml: MapLayout) -> float:
    return sizes.rail_width(ml.s)


# --- the static layers -----------------------------------------------------------------------------
_STATIC = LayerCache(maxsize=6)  # about 25 MB per board layout and language


def static_layers(key: BoardKey, lang: str, numbered: bool = True) -> tuple[Image.Image, Image.Image, Image.Image]:
    """(map, names, flat): the map area as RGB at SS times the size (the track is drawn on a copy
    of it and shrunk, which is several times faster than shrinking a transparent layer), the
    names to lay over the track as RGBA at full size, and the empty map as it looks with no
    track (map shrunk, names laid over): only the bands the track touches are redrawn on it.
    `numbered=False`: intersections as plain dots, without their numbers (pick pictures)."""
    return _STATIC.get(("ce-map", key, lang, numbered), lambda: _build_static(key, lang, numbered))


def _build_static(key: BoardKey, lang: str, numbered: bool = True) -> tuple[Image.Image, Image.Image, Image.Image]:
    pl = places(*key)
    board, ml = pl.board, pl.ml
    w, h = ml.size
    big = Image.new("RGB", (w * SS, h * SS), style.SEA)
    d = ImageDraw.Draw(big)
    lay = ml.hexes.scaled(SS)
    for x in board.land:
        pts = lay.polygon(x.hex)
        d.polygon(pts, fill=style.TERRAIN[x.terrain.value])
    for x in board.land:
        pts = lay.polygon(x.hex)
        d.line(pts + pts[:1], fill=style.HEX_LINE, width=SS, joint="curve")
        _terrain_sign(d, x.terrain, _polar(lay.center(x.hex), SIGN_AT, lay.size * 0.56), lay.size * 0.17)
    for e in pl.geo.graph.coast_edges:
        a, b = lay.edge_points(e)
        d.line((a, b), fill=style.SEA_EDGE, width=round(lay.size * 0.05))
    labels = pl.harbour_labels(lang)
    for label in labels:
        _harbour_shape(d, lay, label)
    names_big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    nd = ImageDraw.Draw(names_big)
    for x in board.land:
        if x.token is not None:
            cx, cy = lay.center(x.hex)
            r = token_radius(ml.s) * SS
            nd.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.TOKEN + (255,), outline=style.TOKEN_EDGE + (255,),
                       width=2 * SS)
    for n in pl.geo.intersections:
        cx, cy = pl.xy(n)
        r = (POINT_R if numbered else DOT_R) * SS
        half = max(r, point_half_width(n) * SS) if numbered else r  # a disc, or a pill round three digits
        nd.rounded_rectangle((cx * SS - half, cy * SS - r, cx * SS + half, cy * SS + r), r, fill=style.POINT + (255,),
                             outline=style.POINT_EDGE + (255,), width=SS * 2)
    names = names_big.resize((w, h), Image.Resampling.BOX)
    for label in labels:
        _harbour_text(names, label)
    for x in board.land:
        c = ml.center(x.hex)
        if x.token is not None:
            _token_text(names, c, x.token, ml.s)
    for n in pl.geo.intersections if numbered else ():
        draw_text(names, pl.xy(n), str(n), MIN_TEXT, style.POINT_TEXT + (255,), bold=True, anchor="mm")
    flat = big.reduce(SS)
    flat.paste(names, (0, 0), names)
    return big, names, flat


def _token_text(img: Image.Image, c: Point, number: int, s: float) -> None:
    red = number in (6, 8)
    ink = (style.TOKEN_RED if red else style.TOKEN_TEXT) + (255,)
    r = token_radius(s)
    draw_text(img, (c[0], c[1] - r * 0.18), str(number), TOKEN_SIZE + (2 if red else 0), ink, bold=True, anchor="mm")
    pips = 6 - abs(7 - number)
    d = ImageDraw.Draw(img)
    pr = max(1.6, r * 0.075)
    gap = pr * 2.6
    y = c[1] + r * 0.58
    for k in range(pips):
        x = c[0] + (k - (pips - 1) / 2) * gap
        d.ellipse((x - pr, y - pr, x + pr, y + pr), fill=ink)


def _terrain_sign(d: ImageDraw.ImageDraw, terrain: Terrain, c: Point, u: float, ink=None) -> None:
    """A small drawn sign of the terrain, so no reader needs its hue."""
    ink = style.TERRAIN_MARK[terrain.value] if ink is None else ink
    x, y = c
    w = max(2, round(u * 0.22))
    if terrain is Terrain.FOREST:
        for dx in (-0.6, 0.6):
            tx = x + dx * u
            d.polygon([(tx, y - u), (tx + 0.6 * u, y + 0.55 * u), (tx - 0.6 * u, y + 0.55 * u)], fill=ink)
            d.line((tx, y + 0.5 * u, tx, y + u), fill=ink, width=w)
    elif terrain is Terrain.PASTURE:
        for dx, dy in ((-0.55, 0.2), (0.45, -0.25), (0.3, 0.6)):
            r = u * 0.38
            d.ellipse((x + dx * u - r, y + dy * u - r * 0.8, x + dx * u + r, y + dy * u + r * 0.8), fill=ink)
    elif terrain is Terrain.FIELDS:
        for dx in (-0.6, 0, 0.6):
            sx = x + dx * u
            d.line((sx, y + u, sx, y - 0.3 * u), fill=ink, width=w)
            d.ellipse((sx - 0.2 * u, y - u, sx + 0.2 * u, y - 0.2 * u), fill=ink)
    elif terrain is Terrain.HILLS:
        bw, bh = 0.62 * u, 0.4 * u
        for row, offs in ((0, (-0.65, 0.05, 0.75)), (1, (-0.3, 0.4))):
            for ox in offs:
                bx, by = x + ox * u - bw / 2, y - 0.5 * u + row * (bh + 0.12 * u)
                d.rectangle((bx, by, bx + bw, by + bh), fill=ink)
    elif terrain is Terrain.MOUNTAINS:
        d.polygon([(x - 1.1 * u, y + 0.7 * u), (x - 0.2 * u, y - u), (x + 0.6 * u, y + 0.7 * u)], fill=ink)
        d.polygon([(x, y + 0.7 * u), (x + 0.6 * u, y - 0.3 * u), (x + 1.2 * u, y + 0.7 * u)], fill=ink)
    elif terrain is Terrain.GOLD_RIVER:
        pts = [(x - 1.1 * u + k * 0.22 * u, y + math.sin(k * 0.9) * 0.35 * u) for k in range(11)]
        d.line(pts, fill=ink, width=w, joint="curve")
        for dx in (-0.5, 0.2, 0.8):
            r = 0.16 * u
            d.ellipse((x + dx * u - r, y + 0.65 * u - r, x + dx * u + r, y + 0.65 * u + r), fill=ink)
    else:  # desert: two dunes
        for dx, dy in ((-0.4, 0.1), (0.5, 0.5)):
            d.arc((x + (dx - 0.7) * u, y + (dy - 0.4) * u, x + (dx + 0.7) * u, y + (dy + 0.5) * u), 200, 340,
                  fill=ink, width=w)


def point_half_width(n: int) -> float:
    """Half the width of an intersection's number plate: a disc, wider for three digits."""
    return max(POINT_R, (measure(str(n), MIN_TEXT, True)[0] + 8) / 2)


RESOURCE_TERRAIN = {"lumber": Terrain.FOREST, "brick": Terrain.HILLS, "wool": Terrain.PASTURE,
                    "grain": Terrain.FIELDS, "ore": Terrain.MOUNTAINS}


def _harbour_shape(d: ImageDraw.ImageDraw, lay, label: HarbourLabel) -> None:
    """The piers from the harbour's two intersections to its label, the label's box and, in the
    chip form, the resource's chip (on the supersampled map)."""
    cx, cy = label.centre
    for corner in label.harbour.edge.corners():
        px, py = lay.corner_point(corner)
        d.line((px, py, cx * SS, cy * SS), fill=style.PIER, width=round(lay.size * 0.07))
    x0, y0, x1, y1 = (v * SS for v in label.box)
    d.rounded_rectangle((x0, y0, x1, y1), 8 * SS, fill=style.HARBOUR, outline=style.HARBOUR_EDGE, width=2 * SS)
    if label.form == CHIP:
        _chip(d, ((x0 + x1) / 2, y1 - (4 + MIN_TEXT / 2) * SS), label.harbour.kind)


def _chip(d: ImageDraw.ImageDraw, c: Point, kind: str) -> None:
    """A resource's chip: its colour with its terrain's sign; a generic harbour's has a stripe of
    each resource's colour (any of them)."""
    w, h = CHIP_W * SS, CHIP_H * SS
    box = (c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2)
    if kind in style.RESOURCE:
        d.rounded_rectangle(box, 4 * SS, fill=style.RESOURCE[kind], outline=style.CASING, width=SS)
        terrain = RESOURCE_TERRAIN[kind]
        _terrain_sign(d, terrain, c, h * 0.36, ink=palette.contrast_text(style.RESOURCE[kind]))
        return
    stripes = list(style.RESOURCE.values())
    sw = w / len(stripes)
    for k, colour in enumerate(stripes):
        d.rectangle((box[0] + k * sw, box[1], box[0] + (k + 1) * sw, box[3]), fill=colour)
    d.rounded_rectangle(box, 2 * SS, outline=style.CASING, width=SS)


def _harbour_text(img: Image.Image, label: HarbourLabel) -> None:
    x0, y0, x1, y1 = label.box
    ink = style.TEXT + (255,)
    if label.form == LINE:
        rw = measure(label.ratio, MIN_TEXT, True)[0]
        cy = (y0 + y1) / 2
        draw_text(img, (x0 + LABEL_PAD, cy), label.ratio, MIN_TEXT, ink, bold=True, anchor="lm")
        draw_text(img, (x0 + LABEL_PAD + rw + LABEL_GAP, cy), label.what, MIN_TEXT, ink, anchor="lm")
        return
    cx = (x0 + x1) / 2
    draw_text(img, (cx, y0 + 4 + MIN_TEXT / 2), label.ratio, MIN_TEXT, ink, bold=True, anchor="mm")
    if label.form != CHIP:
        draw_text(img, (cx, y1 - 4 - MIN_TEXT / 2), label.what, MIN_TEXT, ink, anchor="mm")


# --- the whole board -------------------------------------------------------------------------------
def render_board(view: CatanView, names: Sequence[str], lang: str = "en", quick: bool = True) -> Image.Image:
    """The board; quick=False draws it the plain way (no shrinking by bands, no remembered text
    or key), the reference the tests hold the quick way to."""
    if not quick:
        with plain():
            return _render_board(view, names, lang, False)
    return _render_board(view, names, lang, True)


def _render_board(view: CatanView, names: Sequence[str], lang: str, quick: bool) -> Image.Image:
    state = view.state
    key = board_key(view)
    ml = map_layout(state.map_id)
    img = Image.new("RGB", (BOARD_W, ml.size[1] + 2 + panel_height(view)), style.PANEL_BG)
    # A move that changes nothing on the map (a trade, a card bought or played, a discard) shows the
    # map of the board before it: kept whole (render.kit.regions), keyed by all draw_map reads.
    def paint() -> None:
        if quick and not is_plain():
            img.paste(kept_map(view, key, lang), (0, 0))
        else:
            draw_map(img, view, key, lang, quick)

    MAPS.draw(img, (0, 0, ml.size[0], ml.size[1]), ("ce-map", key, lang, quick, is_plain(), map_inputs(state)),
              paint, ground=("ce-board", style.PANEL_BG))
    d = ImageDraw.Draw(img)
    d.rectangle((0, ml.size[1], BOARD_W, ml.size[1] + 2), fill=style.DIVIDER)
    draw_panel(img, view, names, lang, ml.size[1] + 2)
    return drawn_on(img, static_layers(key, lang)[2], BOARD_PALETTE)


# The state fields draw_map and what it calls read, but the players (only their locomotives and towers).
MAP_FIELDS = {"map_id", "buildings", "pieces", "robber", "dice", "stops", "last_build", "last_ride"}


def map_inputs(state: CatanState) -> tuple:
    """What draw_map draws from, as a key."""
    return state.model_dump_json(include=MAP_FIELDS), tuple((repr(p.loco), repr(p.towers)) for p in state.players)


def render_map(view: CatanView, lang: str = "en", quick: bool = True, numbered: bool = True) -> Image.Image:
    """The map alone with every piece (the final image shows it). `numbered=False`: without
    the intersections' numbers, on their plates or on buildings, and the stops' order
    (`pick_map`)."""
    key = board_key(view)
    img = Image.new("RGB", map_layout(view.state.map_id).size, style.SEA)
    if not quick:
        with plain():
            draw_map(img, view, key, lang, False, numbered)
        return img
    draw_map(img, view, key, lang, True, numbered)
    return img


def pick_map(view: CatanView, names: Sequence[str], lang: str = "en") -> Image.Image:
    """The map as a pick picture crops it (render/catan_express/picks.py): every piece, but no
    numbers of places. The picture numbers its options on white plates, as the board numbers
    its intersections: with both, a "7" could be either. Intersections stay as dots, stops as
    their rings without their order; hex labels and tokens stay (the menu's words name hexes
    by them)."""
    return render_map(view, lang, numbered=False)


def draw_map(img: Image.Image, view: CatanView, key, lang: str, quick: bool = True, numbered: bool = True) -> None:
    """The map with every piece on img. quick=False shrinks the whole supersampled map and lays
    the whole names layer over it; the tests hold the quick way to the same pixels."""
    state = view.state
    big, names, flat = static_layers(key, lang, numbered)
    pl = places(*key)
    if quick:
        # Shrinking is 2x2 averaging, so each band of the map can be shrunk on its own: only
        # the bands the track and halos touch are, the rest comes from the empty map.
        boxes = _track_bands(state, pl, flat.size)
        with _clean_copy(big, boxes) as work:
            _draw_track(work, pl, *_track(state, pl))
            img.paste(flat, (0, 0))
            for box in boxes:
                x0, y0, x1, y1 = box
                img.paste(work.crop((x0 * SS, y0 * SS, x1 * SS, y1 * SS)).reduce(SS), (x0, y0))
                part = names.crop(box)
                img.paste(part, (x0, y0), part)
    else:
        work = big.copy()
        _draw_track(work, pl, *_track(state, pl))
        img.paste(work.reduce(SS), (0, 0))
        img.paste(names, (0, 0), names)
    for piece in top_pieces(state, pl, numbered):
        piece.draw(img)


def top_pieces(state: CatanState, pl: Places, numbered: bool = True) -> list[Piece]:
    """What is drawn over the map and its track, in order: the rolled number's rings, buildings,
    the robber, stops, locomotives, then the hex labels."""
    pieces: list[Piece] = []
    _production(pieces, state, pl)
    _buildings(pieces, state, pl, numbered)
    _robber(pieces, state, pl)
    _stops(pieces, state, pl, numbered)
    _locomotives(pieces, state, pl)
    _hex_labels(pieces, state, pl)
    return pieces


# Maps of the last boards, to redraw only around what a move changed (render.kit.mapdiff).
KEPT_MAPS = KeptMaps()


def kept_map(view: CatanView, key, lang: str) -> Image.Image:
    """draw_map's map (quick), redrawn from a kept map where it can be (not to be drawn on)."""
    state = view.state
    big, names, flat = static_layers(key, lang)
    pl = places(*key)
    paths, spots, lanes = _track(state, pl)
    pieces = [Piece(k, b, None) for k, b, _ in (*paths, *spots, *lanes)] + top_pieces(state, pl)

    def ground(img: Image.Image, boxes: Sequence[tuple[int, int, int, int]]) -> None:
        def near(box: tuple[int, int, int, int]) -> bool:
            return any(meets(box, b) for b in boxes)

        drawn = [(k, b, v) for k, b, v in (*paths, *spots, *lanes) if near(b)]
        clean = [c for c in (clip(b, flat.size) for _, b, _ in drawn) if c is not None]
        with _clean_copy(big, clean) as work:
            _draw_track(work, pl, *([m for m in marks if near(m[1])] for marks in (paths, spots, lanes)))
            for x0, y0, x1, y1 in boxes:
                img.paste(work.crop((x0 * SS, y0 * SS, x1 * SS, y1 * SS)).reduce(SS), (x0, y0))
                part = names.crop((x0, y0, x1, y1))
                img.paste(part, (x0, y0), part)

    def full() -> Image.Image:
        img = Image.new("RGB", flat.size, style.SEA)
        draw_map(img, view, key, lang, True)
        return img

    return KEPT_MAPS.draw(("ce-map", key, lang), flat.size, pieces, ground, full)


BAND = 24  # rows of the map shrunk together where track lies
_WORK = "railyard.ce_work"  # Image.info of a supersampled map: (lock, a copy of it to draw the track on)


@contextmanager
def _clean_copy(big: Image.Image, boxes: Sequence[tuple[int, int, int, int]]) -> Iterator[Image.Image]:
    """A copy of the supersampled map to draw the track on inside `boxes` (map pixels): kept with
    the map and given back as clean as it was taken (those boxes copied back from the map), since
    copying all of it (2400x1800) cost a few ms a move. A thread finding it in use gets a copy."""
    kept = big.info.get(_WORK)
    if kept is None:
        kept = big.info.setdefault(_WORK, (threading.Lock(), big.copy()))
    lock, work = kept
    if not lock.acquire(blocking=False):
        yield big.copy()
        return
    try:
        yield work
    finally:
        for x0, y0, x1, y1 in boxes:
            box = (x0 * SS, y0 * SS, x1 * SS, y1 * SS)
            work.paste(big.crop(box), box[:2])
        lock.release()


def _track_bands(state: CatanState, pl: Places, size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """Boxes (in map pixels, even edges) that cover everything _halos and _pieces draw: per band
    of BAND rows, the runs of columns some piece or halo reaches, with a generous margin."""
    w, h = size
    band, edge = thickness(w * SS)
    tw = rail_width(pl.ml)
    reach = (tw + 4) * 0.92 * 3 + (tw * 1.4 + 2 * (band + edge) / SS) / 2 + 4  # side by side, halo
    spans: list[tuple[float, float, float, float]] = []
    for name, owners in state.pieces.items():
        ends = pl.piece_ends(name)
        if ends is not None and owners:
            (ax, ay), (bx, by) = ends
            r = reach + (len(owners) - 1) * (tw + 4) * 0.92 / 2
            spans.append((min(ax, bx) - r, min(ay, by) - r, max(ax, bx) + r, max(ay, by) + r))
    ride = ride_points(state, pl)
    for a, b in zip(ride, ride[1:]):
        spans.append((min(a[0], b[0]) - reach, min(a[1], b[1]) - reach, max(a[0], b[0]) + reach,
                      max(a[1], b[1]) + reach))
    for name in state.last_build:
        ends = pl.piece_ends(name)
        if ends is not None:
            (ax, ay), (bx, by) = ends
            spans.append((min(ax, bx) - reach, min(ay, by) - reach, max(ax, bx) + reach, max(ay, by) + reach))
        elif pl.xy(name) is not None:
            x, y = pl.xy(name)
            r = POINT_R * 1.9 + (band + edge) / SS + 4
            spans.append((x - r, y - r, x + r, y + r))
    rows: list[list[tuple[int, int]]] = [[] for _ in range((h + BAND - 1) // BAND)]
    for x0, y0, x1, y1 in spans:
        c0, c1 = max(0, int(x0) & ~1), min(w, (math.ceil(x1) + 1) & ~1)
        if c1 <= c0:
            continue
        for r in range(max(0, int(y0) // BAND), min(len(rows), math.ceil(y1) // BAND + 1)):
            rows[r].append((c0, c1))
    boxes = []
    for r, runs in enumerate(rows):
        top, bottom = r * BAND, min(h, (r + 1) * BAND)
        start = end = None
        for c0, c1 in sorted(runs):
            if end is not None and c0 <= end + 16:  # a short gap costs less than another crop
                end = max(end, c1)
                continue
            if end is not None:
                boxes.append((start, top, end, bottom))
            start, end = c0, c1
        if end is not None:
            boxes.append((start, top, end, bottom))
    return boxes


def _scaled(pts: Sequence[Point]) -> list[Point]:
    return [(x * SS, y * SS) for x, y in pts]


def ride_points(state: CatanState, pl: Places) -> list[Point]:
    return [p for p in (pl.xy(x) for x in state.last_ride) if p is not None]


Mark = tuple[tuple, tuple[int, int, int, int], tuple]  # key, box on the map, what to draw


def _track(state: CatanState, pl: Places) -> tuple[list[Mark], list[Mark], list[Mark]]:
    """What is drawn on the supersampled map, in order: halo paths (the latest ride, then the
    latest build's pieces), halo spots round the latest build's points, then the rails and
    ferries: each a key naming it, the box (map pixels) it can reach, and its coordinates."""
    band, edge = thickness(pl.ml.size[0] * SS)
    tw = rail_width(pl.ml) * SS
    halo_w = tw * 1.4
    path_reach = (max(1, round(halo_w + 2 * (band + edge)))) / 2 / SS + 1
    paths: list[Mark] = []
    ride = ride_points(state, pl)
    if len(ride) >= 2:
        pts = _scaled(ride)
        paths.append((("halo", tuple(pts)), _box_of(pts, path_reach), (pts,)))
    for name in state.last_build:
        ends = pl.piece_ends(name)
        if ends is not None:
            pts = _scaled(ends)
            paths.append((("halo", tuple(pts)), _box_of(pts, path_reach), (pts,)))
    spots: list[Mark] = []
    for name in state.last_build:
        if "-" not in name and pl.xy(name) is not None:
            x, y = pl.xy(name)
            at = (x * SS, y * SS)
            spots.append((("spot", at), _box_of([at], (POINT_R * 1.9 * SS + band + edge) / SS + 1), (at,)))
    lanes: list[Mark] = []
    cw = tw + 4 * SS
    for name, owners in sorted(state.pieces.items(), key=lambda kv: pl.kind(kv[0]) == "rail"):
        ends = pl.piece_ends(name)
        if ends is None or not owners:
            continue
        a, b = _scaled(ends)
        ferry = pl.kind(name) == "ferry"
        k = len(owners)
        pitch = cw * 0.92
        for i, seat in enumerate(owners):
            p, q = _offset_line(a, b, (i - (k - 1) / 2) * pitch)
            if not ferry:  # a rail stops short of the number discs at both ends
                p, q = _trim(p, q, POINT_R * 0.6 * SS)
            lanes.append((("lane", name, i, seat, p, q), _box_of([p, q], round(cw) / 2 / SS + 1), (p, q, seat, ferry)))
    return paths, spots, lanes


def _box_of(pts: Sequence[Point], reach: float) -> tuple[int, int, int, int]:
    """The map-pixel box round supersampled points, `reach` map pixels further out."""
    return outer_box([x / SS for x, _ in pts], [y / SS for _, y in pts], reach)


def _draw_track(work: Image.Image, pl: Places, paths: Sequence[Mark], spots: Sequence[Mark],
                lanes: Sequence[Mark]) -> None:
    tw = rail_width(pl.ml) * SS
    cw = tw + 4 * SS
    halo_lines(work, [m[2][0] for m in paths], tw * 1.4)
    for m in spots:
        halo_spot(work, m[2][0], POINT_R * 1.9 * SS)
    d = ImageDraw.Draw(work)
    for _, _, (p, q, seat, ferry) in lanes:
        d.line((p, q), fill=style.CASING, width=round(cw))
        d.line((p, q), fill=style.player_rgb(seat), width=round(tw))
        if ferry:
            _dashes(d, p, q, style.FERRY_DASH, max(2, round(tw * 0.3)), tw * 0.9, tw * 0.9)


def _offset_line(a: Point, b: Point, off: float) -> tuple[Point, Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * off, dx / length * off
    return (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)


def _trim(a: Point, b: Point, by: float) -> tuple[Point, Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    return (a[0] + ux * by * 0.3, a[1] + uy * by * 0.3), (b[0] - ux * by * 0.3, b[1] - uy * by * 0.3)


def _dashes(d: ImageDraw.ImageDraw, a: Point, b: Point, colour, width: int, dash: float, gap: float) -> None:
    total = math.hypot(b[0] - a[0], b[1] - a[1])
    if total <= 0:
        return
    ux, uy = (b[0] - a[0]) / total, (b[1] - a[1]) / total
    pos = gap
    while pos + dash < total - gap / 2:
        d.line((a[0] + ux * pos, a[1] + uy * pos, a[0] + ux * (pos + dash), a[1] + uy * (pos + dash)),
               fill=colour, width=width)
        pos += dash + gap


# --- buildings, robber, stops, locomotives ---------------------------------------------------------
def building_radius() -> float:
    return BUILDING_R


def paste_centred(img: Image.Image, patch: Image.Image, centre: Point) -> None:
    img.paste(patch, (round(centre[0] - patch.width / 2), round(centre[1] - patch.height / 2)), patch)


def _centred(key: tuple, patch: Image.Image, centre: Point) -> Piece:
    """A piece that pastes `patch` centred on `centre` (paste_centred)."""
    x, y = round(centre[0] - patch.width / 2), round(centre[1] - patch.height / 2)
    return Piece(key, (x, y, x + patch.width, y + patch.height), lambda img: img.paste(patch, (x, y), patch))


@lru_cache(maxsize=512)
def building_patch(seat: int, kind: str, number: int | None) -> Image.Image:
    """A settlement (house) or city (house and tower) in the seat's colour, its intersection's
    number on the front (None: none) and the seat's shape on the roof."""
    r = building_radius()
    size = int(r * 2 + 14)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * SS / 2
    u = r * SS
    colour = style.player_rgb(seat)
    edge = 3 * SS
    if kind == "city":
        # a tower on the left, a house on the right, one outline
        body = [(c - u, c + 0.75 * u), (c - u, c - 0.95 * u), (c - 0.45 * u, c - 1.2 * u), (c + 0.1 * u, c - 0.95 * u),
                (c + 0.1 * u, c - 0.3 * u), (c + 0.5 * u, c - 0.7 * u), (c + u, c - 0.3 * u), (c + u, c + 0.75 * u)]
        marker_at = (c - 0.45 * u, c - 0.62 * u)
        text_at = (c + 0.05 * u, c + 0.22 * u)
    else:
        body = [(c - 0.8 * u, c + 0.7 * u), (c - 0.8 * u, c - 0.15 * u), (c, c - 0.95 * u), (c + 0.8 * u, c - 0.15 * u),
                (c + 0.8 * u, c + 0.7 * u)]
        marker_at = (c, c - 0.42 * u)
        text_at = (c, c + 0.3 * u)
    d.polygon(body, fill=colour)
    d.line(body + body[:1], fill=style.CASING, width=edge, joint="curve")
    draw_marker(d, style.player_marker(seat), marker_at, 0.2 * u, style.player_ink(seat), outline=style.CASING,
                width=SS)
    img = big.resize((size, size), Image.Resampling.BOX)
    if number is None:
        return img
    text = str(number)
    tsize = MIN_TEXT if measure(text, MIN_TEXT, True)[0] < r * (1.7 if kind == "city" else 1.5) else MIN_TEXT - 2
    draw_text(img, (text_at[0] / SS, text_at[1] / SS), text, max(tsize, MIN_TEXT), style.player_ink(seat) + (255,),
              bold=True, anchor="mm")
    return img


def _production(pieces: list[Piece], state: CatanState, pl: Places) -> None:
    """A thick ring round every token of the number just rolled (the hexes that produced, or
    would have but for the robber): a shape, so it reads without colour."""
    if len(state.dice) != 2:
        return
    rolled = sum(state.dice)
    r = token_radius(pl.ml.s) + 5
    for x in pl.board.land:
        if x.token == rolled:
            cx, cy = pl.ml.center(x.hex)
            pieces.append(Piece(("rolled", cx, cy, r), outer_box([cx], [cy], r + 3), partial(_rolled_ring, cx, cy, r)))


def _rolled_ring(cx: float, cy: float, r: float, img: Image.Image) -> None:
    d = ImageDraw.Draw(img)
    d.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), outline=style.CASING, width=3)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=style.PRODUCED, width=6)


def _buildings(pieces: list[Piece], state: CatanState, pl: Places, numbered: bool = True) -> None:
    for n, b in sorted(state.buildings.items()):
        xy = pl.xy(n)
        if xy is not None:
            number = int(n) if numbered else None
            pieces.append(_centred(("building", n, b.seat, b.kind, number), building_patch(b.seat, b.kind, number), xy))


def _robber(pieces: list[Piece], state: CatanState, pl: Places) -> None:
    xy = pl.xy(state.robber)
    if xy is None:
        return
    on_desert = pl.board.at(pl.board.hex_at(state.robber))
    spot = xy if on_desert is not None and on_desert.token is None else _polar(xy, ROBBER_AT, pl.ml.s * 0.55)
    pieces.append(_centred(("robber", spot), robber_patch(round(pl.ml.s, 1)), spot))


def label_spot(state: CatanState, pl: Places, h) -> Point:
    """Where a hex's label goes: up-left of its token unless a building, locomotive, stop badge
    or water tower there would cover it."""
    c = pl.ml.center(h)
    label = pl.board.label(h)
    corners = pl.geo.corners_of.get(label, ())
    big = building_radius()
    taken = [(pl.xy(n), big) for n in corners if n in state.buildings]
    if state.robber == label:
        taken.append((_polar(c, ROBBER_AT, pl.ml.s * 0.55), big))
    for p in state.players:
        if str(p.loco) == label:
            taken.append((centre_loco_spot(c, pl.ml.s), big))
        elif p.loco is not None and str(p.loco).isdigit() and int(p.loco) in corners:
            n = int(p.loco)
            taken.append((loco_spot(pl.xy(n), pl.loco_up(n), n in state.buildings, pl.ml.s), big))
    for stop in state.stops:
        if stop in corners:
            taken += [(xy, MIN_TEXT * 0.5) for xy in _stop_marks(state, pl, stop)]
    for angle in LABEL_SPOTS:
        spot = _polar(c, angle, pl.ml.s * 0.56)
        if all(math.hypot(spot[0] - t[0], spot[1] - t[1]) >= r + LABEL_SIZE * 0.9 for t, r in taken):
            return spot
    return _polar(c, LABEL_AT, pl.ml.s * 0.56)


def _hex_labels(pieces: list[Piece], state: CatanState, pl: Places) -> None:
    for x in pl.board.land:
        spot, text = label_spot(state, pl, x.hex), pl.board.label(x.hex)
        # the text's halo reaches 3 px past its letters: a size round the middle holds it
        reach = (measure(text, LABEL_SIZE, True)[0] / 2 + LABEL_SIZE + 8, LABEL_SIZE + 8)
        box = outer_box([spot[0] - reach[0], spot[0] + reach[0]], [spot[1] - reach[1], spot[1] + reach[1]], 0)
        pieces.append(Piece(("label", text, spot), box, partial(_hex_label, spot, text)))


def _hex_label(spot: Point, text: str, img: Image.Image) -> None:
    stamp_text(img, spot, text, LABEL_SIZE, style.LABEL_TEXT, bold=True, anchor="mm", stroke_width=3,
               stroke_fill=style.LABEL_HALO)


def towers_left(state: CatanState, stop: int) -> list[int]:
    """The seats whose water tower still stands on this stop."""
    return [seat for seat, p in enumerate(state.players) if stop not in p.towers]


@lru_cache(maxsize=64)
def stop_badge(order: int) -> Image.Image:
    r = MIN_TEXT * 0.68
    size = int(2 * r + 6)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * SS / 2
    d.ellipse((c - r * SS, c - r * SS, c + r * SS, c + r * SS), fill=style.STOP, outline=(255, 255, 255), width=2 * SS)
    img = big.resize((size, size), Image.Resampling.BOX)
    draw_text(img, (size / 2, size / 2), str(order), MIN_TEXT, style.STOP_TEXT + (255,), bold=True, anchor="mm")
    return img


@lru_cache(maxsize=64)
def tower_patch(seat: int) -> Image.Image:
    r = MIN_TEXT * 0.36
    size = int(2 * r * 1.3 + 6)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    draw_marker(ImageDraw.Draw(big), style.player_marker(seat), (size * SS / 2, size * SS / 2), r * SS,
                style.player_rgb(seat), outline=(255, 255, 255), width=SS)
    return big.resize((size, size), Image.Resampling.BOX)


def _stop_marks(state: CatanState, pl: Places, stop: int) -> list[Point]:
    """The centres of a stop's badge and of the water towers still standing beside its ring.
    The towers' row goes below the ring unless only above lies over land; the badge on a
    diagonal on the other side, left first, over land if one is (over the sea either could
    cover a harbour's label), else on the row's side over land (the row then steps further
    out), else up-left of the ring."""
    x, y = pl.xy(stop)
    r = STOP_R  # the room the layout keeps for the ring (render/catan_express/room.py)

    def dry(pt: Point) -> bool:
        return pl.ml.hexes.hex_at(pt) in pl.board.land_hexes

    below, above = y + r + MIN_TEXT * 0.45, y - r - MIN_TEXT * 0.45
    down = dry((x, below)) or not dry((x, above))
    row = below if down else above
    away, near = (-1, 1) if down else (1, -1)
    spots = [(x + dx * r * 0.95, y + dy * r * 0.95) for dy in (away, near) for dx in (-1, 1)]
    badge = next((pt for pt in spots if dry(pt)), spots[0])
    if (badge[1] > y) == down:  # the badge on the row's side: the row steps out past it
        row += (MIN_TEXT * 0.8) * (1 if down else -1)
    seats = towers_left(state, stop)
    pitch = MIN_TEXT * 0.85
    return [badge] + [(x + (k - (len(seats) - 1) / 2) * pitch, row) for k in range(len(seats))]


def _stops(pieces: list[Piece], state: CatanState, pl: Places, numbered: bool = True) -> None:
    """Each stop: a blue ring round the building, its order in a blue badge (numbered=False:
    none), and beneath it one small shape per seat whose water tower still stands there."""
    r = STOP_R
    for order, stop in enumerate(state.stops, start=1):
        xy = pl.xy(stop)
        if xy is None:
            continue
        x, y = xy
        pieces.append(Piece(("stop", x, y), outer_box([x], [y], r), partial(_stop_ring, x, y)))
        badge, *towers = _stop_marks(state, pl, stop)
        if numbered:
            pieces.append(_centred(("badge", order, badge), stop_badge(order), badge))
        for seat, at in zip(towers_left(state, stop), towers):
            pieces.append(_centred(("tower", seat, at), tower_patch(seat), at))


def _stop_ring(x: float, y: float, img: Image.Image) -> None:
    r = STOP_R
    ImageDraw.Draw(img).ellipse((x - r, y - r, x + r, y + r), outline=style.STOP, width=5)


def _locomotives(pieces: list[Piece], state: CatanState, pl: Places) -> None:
    """Each locomotive just above or below its intersection, along the one vertical edge there
    (no spoke runs that way: render.catan_express.room.points_up), or right of a hex centre's
    token. Several at one place overlap side by side, towards the land beside a coast (the sea
    side keeps only the first, so no harbour label is covered); each is drawn over the one to
    its right, covering only its boiler, so every cab with its seat's shape shows."""
    at: dict[str, list[int]] = {}
    for seat, p in enumerate(state.players):
        if p.loco is not None:
            at.setdefault(str(p.loco), []).append(seat)
    for name, seats in at.items():
        xy = pl.xy(name)
        if xy is None:
            continue
        row = 0
        if name.isdigit():
            spot = loco_spot(xy, pl.loco_up(int(name)), int(name) in state.buildings, pl.ml.s)
            row = pl.loco_row(int(name))
        else:
            spot = centre_loco_spot(xy, pl.ml.s)
        placed = [(spot[0] + dx, seat) for dx, seat in zip(loco_offsets(len(seats), row), seats)]
        for x, seat in sorted(placed, reverse=True):
            pieces.append(_centred(("loco", seat, x, spot[1]), loco_patch(seat), (x, spot[1])))
