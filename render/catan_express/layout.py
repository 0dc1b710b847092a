"""Where things are on a Catan Express board image: the pointy-top hex grid of a map in pixels,
every named point (intersection numbers, hex centres) and every piece (spokes, ferry edges),
the room pieces may take, and where each harbour's label sits.

Scale
    The image is BOARD_W wide whatever the map, and the smallest type (MIN_TEXT, 7 px tall when
    the board is shown 400 px wide) is fixed in pixels, so the larger the hexes, the less the
    names, tokens and pieces crowd one another. The scale is the largest at which everything
    the map can ever show fits that width with MARGIN to spare: the land, the room a piece on
    the coast may take in the sea (a city, a stop's ring, a locomotive beside its intersection,
    ferries of two owners side by side) and the harbour labels. Sea that can carry nothing is
    cut off.

Harbour labels
    A label is drawn once with the empty map and never moves, so it keeps clear of every place
    a piece may ever take: it lies wholly in the sea, off the room of every intersection, ferry
    edge and hex centre (`piece_room`) and off the other labels, inside the image, and its two
    piers reach the coast through open sea, under no other label or building and across no
    other pier. It takes the clear spot nearest its coast, straight out where it can, in one of
    three forms (each with its cost, FORM_COST): "2:1" over the resource's name, both on one
    low line, or, where no word fits (the narrow channels of the 5-6 player islands), "2:1" over
    the resource's chip (its colour and sign, render/catan_express/board.py).

    The words differ by board (a random layout deals the kinds over the harbour places) and by
    language, so the spots are chosen per board and language. Each place also has a kept spot
    (`MapLayout.harbours`, found with the scale) that fits the longest label it could carry in
    a word form wherever one fits at all; a board's labels keep clear of the kept spots of the
    places not yet settled, so every place has at least its own, and the scale holds for
    every board.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.catan_express.geo import Geo, board_for, geo_of
from games.catan_express.maps import GENERIC, HARBOUR_KINDS, Board, Harbour
from games.core.hexgrid import Corner, Hex, Orientation
from games.core.i18n import LANGUAGES, translate
from render.kit.hexgrid import HexLayout
from render.kit.legibility import min_font_px
from render.kit.text import measure

Point = tuple[float, float]
Box = tuple[float, float, float, float]   # x0, y0, x1, y1
Segment = tuple[Point, Point]

BOARD_W = 1200
MIN_TEXT = min_font_px(BOARD_W)   # 21 px: 7 px at 400 px wide
MARGIN = 8

# --- the pieces' sizes in pixels: the board draws them so, the layout keeps room for them ----------
POINT_R = round(MIN_TEXT * 0.7)        # an intersection's number disc
BUILDING_R = POINT_R * 1.55            # a city is twice this wide
LOCO_W, LOCO_H = MIN_TEXT * 2.1, MIN_TEXT * 1.45
LOCO_OFF = POINT_R + MIN_TEXT * 1.25   # a locomotive's centre from its intersection's
LOCO_BESIDE_BUILDING = 1.3             # ... and further out when a building stands there
LOCO_AT_CENTRE = 0.62                  # hex sizes right of a hex centre, for a locomotive there
LOCO_PITCH = LOCO_W * 0.62             # between locomotives side by side at one place
STOP_R = BUILDING_R + 8                # the ring round a stop


def rail_width(s: float) -> float:
    return max(5.0, s * 0.085)


def ferry_pitch(s: float) -> tuple[float, float]:
    """(casing width, distance between the lines of owners side by side) of rails and ferries."""
    cw = rail_width(s) + 4
    return cw, cw * 0.92


# --- harbour labels' words and boxes ----------------------------------------------------------------
LABEL_PAD = 6        # between a label's words and its box
LABEL_GAP = 7        # between "2:1" and the word on one line
CHIP_W, CHIP_H = 32, 18
CLEAR = 3            # kept between a label and a piece's room
LABELS_APART = 6     # kept between two labels
STACKED, LINE, CHIP = "stacked", "line", "chip"
FORMS = (STACKED, LINE, CHIP)
# What a form costs against a nearer spot, in hex sizes: one line reads as well as two but
# sticks out further; a chip has to be learnt, a word does not.
FORM_COST = {STACKED: 0.0, LINE: 0.3, CHIP: 3.0}
# A place's kept spot (the scale is fitted to it) holds a word wherever one fits at all, so that
# a board's own search never lacks the room for one.
KEPT_COST = {STACKED: 0.0, LINE: 0.3, CHIP: 20.0}
SOFT_COST = 0.8      # hex sizes a label would rather travel than lie under a stop's ring


def harbour_words(kind: str, lang: str) -> tuple[str, str]:
    """(ratio, what) of a harbour: "3:1" and "any", or "2:1" and the resource's name."""
    if kind == GENERIC:
        return "3:1", translate(lang, "ce_render.harbour.any")
    return "2:1", translate(lang, f"ce.resource.{kind}")


def label_size(ratio: str, what: str, form: str) -> tuple[float, float]:
    """The box of a harbour label in one of the FORMS."""
    rw = measure(ratio, MIN_TEXT, True)[0]
    if form == CHIP:
        return max(rw, CHIP_W) + 2 * LABEL_PAD, 2 * MIN_TEXT + 8
    ww = measure(what, MIN_TEXT, False)[0]
    if form == STACKED:
        return max(rw, ww) + 2 * LABEL_PAD, 2 * MIN_TEXT + 8
    return rw + LABEL_GAP + ww + 2 * LABEL_PAD, MIN_TEXT + 10


@lru_cache(maxsize=4)
def widest_label(form: str) -> tuple[float, float]:
    """The box of the longest label a harbour place may carry in this form, in any language."""
    sizes = [label_size(*harbour_words(kind, lang), form) for kind in HARBOUR_KINDS for lang in LANGUAGES]
    return max(w for w, _ in sizes), max(h for _, h in sizes)


# --- shapes and overlaps ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Room:
    """Where a piece may be drawn: a box, a disc or a convex polygon, with the intersection it
    belongs to (None for a ferry edge or a hex centre)."""

    kind: str                      # "box" | "disc" | "poly"
    points: tuple[Point, ...]      # box: two corners; disc: the centre; poly: the corners
    radius: float = 0.0
    owner: Corner | None = None
    soft: bool = False             # a label should keep off it, but may lie there if nothing else fits

    @property
    def bounds(self) -> Box:
        if self.kind == "disc":
            (x, y), r = self.points[0], self.radius
            return x - r, y - r, x + r, y + r
        return bounds_of(self.points)

    def hits(self, box: Box) -> bool:
        """Whether this shape and the box share any area."""
        if not boxes_meet(self.bounds, box):
            return False
        if self.kind == "box":
            return True
        if self.kind == "disc":
            (x, y), r = self.points[0], self.radius
            dx = max(box[0] - x, 0.0, x - box[2])
            dy = max(box[1] - y, 0.0, y - box[3])
            return dx * dx + dy * dy < r * r
        return polygon_meets_box(self.points, box)

    def draw(self, d: ImageDraw.ImageDraw) -> None:
        if self.kind == "box":
            d.rectangle(self.bounds, fill=255)
        elif self.kind == "disc":
            d.ellipse(self.bounds, fill=255)
        else:
            d.polygon(self.points, fill=255)


def bounds_of(pts) -> Box:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def box_at(centre: Point, size: tuple[float, float]) -> Box:
    (x, y), (w, h) = centre, size
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def polygon_meets_box(pts, box: Box) -> bool:
    """Separating axes for a convex polygon and an axis-aligned box: they share area unless
    one of the box's axes or the polygon's edge normals keeps them apart."""
    x0, y0, x1, y1 = bounds_of(pts)
    if x1 <= box[0] or x0 >= box[2] or y1 <= box[1] or y0 >= box[3]:
        return False
    corners = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    for i, (ax, ay) in enumerate(pts):
        bx, by = pts[(i + 1) % len(pts)]
        nx, ny = ay - by, bx - ax
        poly = [nx * x + ny * y for x, y in pts]
        rect = [nx * x + ny * y for x, y in corners]
        if max(rect) <= min(poly) + 1e-9 or min(rect) >= max(poly) - 1e-9:
            return False
    return True


def segment_meets_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment a-b passes through the box (clipped against its four sides)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - box[0]), (dx, box[2] - a[0]), (-dy, a[1] - box[1]), (dy, box[3] - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether two segments cross (sharing an end is not crossing)."""
    if a in (c, d) or b in (c, d):
        return False

    def side(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def band(a: Point, b: Point, half: float) -> tuple[Point, ...]:
    """The four corners of a straight band `half` wide either side of a-b, past both ends too."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * half, dx / length * half
    ux, uy = dx / length * half, dy / length * half
    return ((a[0] + nx - ux, a[1] + ny - uy), (b[0] + nx + ux, b[1] + ny + uy),
            (b[0] - nx + ux, b[1] - ny + uy), (a[0] - nx - ux, a[1] - ny - uy))


# --- where pieces go --------------------------------------------------------------------------------
def points_up(lay: HexLayout, corner: Corner) -> bool:
    """Whether the intersection's one vertical edge goes up from it: where two of the three hexes
    meeting there lie above it (the edge runs between those two; the spoke to the third hex's
    centre runs down)."""
    y = lay.corner_point(corner)[1]
    return sum(1 for h in corner.hexes() if lay.center(h)[1] < y) >= 2


INLAND_RIGHT, INLAND_LEFT, BOTH_WAYS, AT_SEA = 1, -1, 0, 2


def loco_row(lay: HexLayout, corner: Corner, land: frozenset[Hex]) -> int:
    """How several locomotives at one intersection line up beside the first. Where the vertical
    edge is a coast, towards the land (INLAND_RIGHT or INLAND_LEFT), so only the first stands
    over the sea; between two land hexes (BOTH_WAYS) or two sea hexes (AT_SEA) both ways. The
    room `piece_room` keeps over the sea is one locomotive wide beside a coast, two at sea."""
    xy = lay.corner_point(corner)
    up = points_up(lay, corner)
    sides = [h for h in corner.hexes() if (lay.center(h)[1] < xy[1]) == up]  # the two along the edge
    wet = [h not in land for h in sides]
    if wet[0] == wet[1]:
        return AT_SEA if wet[0] else BOTH_WAYS
    dry = sides[wet.index(False)]
    return INLAND_RIGHT if lay.center(dry)[0] > xy[0] else INLAND_LEFT


def loco_offsets(count: int, row: int) -> list[float]:
    """Sideways offsets of `count` locomotives at one place (see loco_row). Two side by side
    overlap by a boiler's length, each cab with its seat's shape showing (the board draws them
    right to left); more squeeze into the width of two, so that a row beside a coast covers no
    more of the hex inland than two would (the token stays readable) and a row at sea keeps to
    its room."""
    pitch = LOCO_PITCH if count <= 2 else LOCO_PITCH / (count - 1)
    if row in (INLAND_RIGHT, INLAND_LEFT):
        return [row * k * pitch for k in range(count)]
    return [(k - (count - 1) / 2) * pitch for k in range(count)]


def loco_spot(xy: Point, up: bool, built: bool, s: float) -> Point:
    """A locomotive's centre along its intersection's vertical edge, where no rail runs
    (further out beside a building), but never over the number at the edge's far end: on a
    small map it rather covers the top of its own building."""
    dy = LOCO_OFF * (LOCO_BESIDE_BUILDING if built else 1.0)
    dy = min(dy, s - POINT_R - LOCO_H / 2 + 2)
    return xy[0], xy[1] + (-dy if up else dy)


def centre_loco_spot(c: Point, s: float) -> Point:
    return c[0] + s * LOCO_AT_CENTRE, c[1]


def building_box(xy: Point) -> Box:
    """Round the largest building (a city: a tower left, a house right) at an intersection."""
    x, y = xy
    u = BUILDING_R
    return x - u - 2, y - 1.2 * u - 2, x + u + 2, y + 0.75 * u + 2


def piece_room(lay: HexLayout, geo: Geo) -> list[Room]:
    """Every place a piece of any seat may be drawn near the sea: per intersection the largest
    building (a city), the first locomotive along its vertical edge (beside a building or not;
    two where the edge runs between two sea hexes, see loco_row) and a stop's ring (`soft`: a
    game has only a few stops, so a label in a narrow channel may lie under one; the board puts
    the stop's badge and towers over land where it can); per ferry edge the ferries of two
    owners side by side; per land hex a locomotive at its centre."""
    graph = geo.graph
    rooms: list[Room] = []
    for c in graph.intersections:
        xy = x, y = lay.corner_point(c)
        b = building_box(xy)
        rooms.append(Room("box", (b[:2], b[2:]), owner=c))
        rooms.append(Room("disc", (xy,), STOP_R + 1, owner=c, soft=True))
        up = points_up(lay, c)
        near, far = loco_spot(xy, up, False, lay.size), loco_spot(xy, up, True, lay.size)
        top, bottom = min(near[1], far[1]) - LOCO_H / 2 - 1, max(near[1], far[1]) + LOCO_H / 2 + 1
        # Where several line up over open sea on both sides, keep room for two.
        half = LOCO_W / 2 + (LOCO_PITCH / 2 if loco_row(lay, c, graph.land) == AT_SEA else 0.0)
        rooms.append(Room("box", ((x - half - 1, top), (x + half + 1, bottom)), owner=c))
    for h in graph.centres:
        x, y = centre_loco_spot(lay.center(h), lay.size)
        rooms.append(Room("box", ((x - LOCO_W / 2 - 1, y - LOCO_H / 2 - 1), (x + LOCO_W / 2 + 1, y + LOCO_H / 2 + 1))))
    cw, pitch = ferry_pitch(lay.size)
    for e in graph.ferry_edges:
        a, b = lay.edge_points(e)
        rooms.append(Room("poly", band(a, b, cw / 2 + pitch / 2 + 1)))
    return rooms


# --- finding the labels' spots ----------------------------------------------------------------------
@dataclass(frozen=True)
class Pick:
    """A label's spot: its centre, form and box, and its two piers (intersection to centre)."""

    centre: Point
    form: str
    box: Box
    piers: tuple[Segment, Segment]

    def sized(self, size: tuple[float, float]) -> Pick:
        return Pick(self.centre, self.form, box_at(self.centre, size), self.piers)


class Field:
    """One map at one scale as masks: where a label may not lie (land and every piece's room),
    the land (a pier's way) and the buildings (which no other harbour's pier passes under)."""

    ANGLES = (0, 10, -10, 20, -20, 30, -30, 40, -40, 50, -50, 60, -60, 75, -75, 90, -90, 105, -105, 120, -120)

    def __init__(self, lay: HexLayout, board: Board, geo: Geo, size: tuple[int, int]) -> None:
        self.lay = lay
        self.board = board
        self.size = size
        self.land_hexes = board.land_hexes
        self.rooms = piece_room(lay, geo)
        self.blocked = Image.new("L", size, 0)
        self.soft = Image.new("L", size, 0)
        self.land = Image.new("L", size, 0)
        self.buildings = Image.new("L", size, 0)
        bd, ld, hd = ImageDraw.Draw(self.blocked), ImageDraw.Draw(self.land), ImageDraw.Draw(self.buildings)
        sd = ImageDraw.Draw(self.soft)
        polys = [lay.polygon(h) for h in sorted(board.land_hexes)]
        for p in polys:
            bd.polygon(p, fill=255, outline=255)
            ld.polygon(p, fill=255, outline=255)
        for r in self.rooms:
            r.draw(sd if r.soft else bd)
        self.own: dict[Corner, Box] = {}
        for c in geo.graph.intersections:
            self.own[c] = b = building_box(lay.corner_point(c))
            hd.rectangle(b, fill=255)
        self.core: Box = bounds_of([pt for r in self.rooms for pt in _corners(r.bounds)] +
                                   [pt for p in polys for pt in p])
        self._blocked_px = self.blocked.load()

    def clear(self, box: Box, by: float, mask: Image.Image | None = None) -> bool:
        """Whether the box (grown by `by`) lies inside the image on open sea that no piece may
        take (or none of `mask`)."""
        x0, y0 = math.floor(box[0] - by), math.floor(box[1] - by)
        x1, y1 = math.ceil(box[2] + by), math.ceil(box[3] + by)
        if x0 < 0 or y0 < 0 or x1 > self.size[0] or y1 > self.size[1]:
            return False
        if mask is None:
            # Most spots tried lie on land or a piece's room: a few pixels tell, without a crop.
            px, xm, ym = self._blocked_px, (x0 + x1) // 2, (y0 + y1) // 2
            for x, y in ((x0, y0), (x1 - 1, y0), (x0, y1 - 1), (x1 - 1, y1 - 1), (xm, ym), (xm, y0), (xm, y1 - 1),
                         (x0, ym), (x1 - 1, ym)):
                if px[x, y]:
                    return False
            mask = self.blocked
        return mask.crop((x0, y0, x1, y1)).getbbox() is None

    def pier_clear(self, end: Point, c: Point, box: Box, mine: tuple[Corner, Corner]) -> bool:
        """A pier runs from its intersection to the label through open sea, under no other
        intersection's building."""
        length = math.dist(end, c)
        steps = int(length / 2) + 1
        own = [grow(self.own[k], 1.5) for k in mine]  # the mask's pixels reach a little past the box
        land, buildings = self.land.load(), self.buildings.load()
        for k in range(steps + 1):
            t = k / steps
            x, y = end[0] + (c[0] - end[0]) * t, end[1] + (c[1] - end[1]) * t
            if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
                return True
            if math.dist((x, y), end) <= POINT_R + 1:
                continue
            px, py = int(x), int(y)
            if not (0 <= px < self.size[0] and 0 <= py < self.size[1]):
                return False
            if land[px, py]:
                return False
            if buildings[px, py] and not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in own):
                return False
        return True

    def enclosed(self, hb: Harbour) -> int:
        """How many land hexes border the harbour's sea hex: the tighter places choose first."""
        return sum(1 for n in hb.sea.neighbors() if n in self.land_hexes)

    def search(self, hb: Harbour, sizes: dict[str, tuple[float, float]], labels: list[Box],
               piers: list[Segment], costs: dict[str, float] = FORM_COST) -> Pick | None:
        """The best clear spot for this harbour's label, in any of `sizes`' forms, off the other
        `labels` and their `piers`."""
        s = self.lay.size
        mine = hb.edge.corners()
        ends = tuple(self.lay.corner_point(c) for c in mine)
        ranked = heapq.merge(*(self._candidates(hb, form, size, costs[form]) for form, size in sizes.items()),
                             key=lambda t: t[0])
        kept: tuple[float, Pick] | None = None  # the best spot found so far under a stop's ring
        for score, c, form, box in ranked:
            if kept is not None and score >= kept[0]:
                break
            if not self.clear(box, CLEAR):
                continue
            apart = grow(box, LABELS_APART)
            if any(boxes_meet(apart, other) for other in labels):
                continue
            if any(segment_meets_box(p, q, apart) for p, q in piers):
                continue
            if any(segment_meets_box(e, c, other) for e in ends for other in labels):
                continue
            if any(segments_cross(e, c, p, q) for e in ends for p, q in piers):
                continue
            if not all(self.pier_clear(e, c, box, mine) for e in ends):
                continue
            pick = Pick(c, form, box, ((ends[0], c), (ends[1], c)))
            if self.clear(box, CLEAR, self.soft):
                return pick
            if kept is None:
                kept = (score + SOFT_COST * s, pick)
        return None if kept is None else kept[1]

    def _candidates(self, hb: Harbour, form: str, size: tuple[float, float], cost: float):
        """(score, centre, form, box) of the spots a label of this size may take round its
        harbour, about best first (each ray out from the coast edge in order, the rays merged):
        near its coast edge, straight out, within the land and pieces' room."""
        lay, s = self.lay, self.lay.size
        m = lay.edge_midpoint(hb.edge)
        (lx, ly), (sx, sy) = lay.center(hb.land), lay.center(hb.sea)
        out = math.atan2(sy - ly, sx - lx)
        step = max(2.0, s * 0.04)
        reach = int(2.4 * s / step) + 1
        cx0, cy0, cx1, cy1 = self.core
        w, h = size

        def at(ray: int, k: int):
            angle, ca, sa = rays[ray]
            d = k * step
            x, y = m[0] + ca * d, m[1] + sa * d
            box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            # Reaching past the land and the pieces' room sideways shrinks the whole map
            # (weighed heavily); up or down it only adds rows of sea.
            beyond = 0.0
            if box[0] < cx0:
                beyond += 3.0 * (cx0 - box[0])
            if box[2] > cx1:
                beyond += 3.0 * (box[2] - cx1)
            if box[1] < cy0:
                beyond += 0.5 * (cy0 - box[1])
            if box[3] > cy1:
                beyond += 0.5 * (box[3] - cy1)
            return d + abs(angle) * s * 0.006 + cost * s + beyond, (x, y), box

        rays = [(angle, math.cos(out + math.radians(angle)), math.sin(out + math.radians(angle)))
                for angle in self.ANGLES]
        heap = [(*at(r, 0), r, 0) for r in range(len(rays))]
        heapq.heapify(heap)
        while heap:
            score, c, box, r, k = heapq.heappop(heap)
            yield score, c, form, box
            if k + 1 < reach:
                heapq.heappush(heap, (*at(r, k + 1), r, k + 1))

    def place(self, harbours: tuple[Harbour, ...], sizes: list[dict[str, tuple[float, float]]],
              kept: list[Pick] | None = None, costs: dict[str, float] = FORM_COST) -> list[Pick] | None:
        """A spot for every harbour's label, the tightest places first. With `kept` (a spot for
        each place that is known to fit), a label also keeps off the kept spots of the places
        still to come, and a place that finds nothing better takes its kept spot."""
        order = sorted(range(len(harbours)), key=lambda i: -self.enclosed(harbours[i]))
        done: dict[int, Pick] = {}
        for i in order:
            others = list(done.values())
            if kept is not None:
                others += [kept[j] for j in order if j != i and j not in done]
            pick = self.search(harbours[i], sizes[i], [p.box for p in others], [s for p in others for s in p.piers],
                               costs)
            if pick is None:
                if kept is None:
                    return None
                spot = kept[i]
                pick = spot.sized(sizes[i][spot.form])
            done[i] = pick
        return [done[i] for i in range(len(harbours))]


def _corners(box: Box) -> list[Point]:
    return [(box[0], box[1]), (box[2], box[3])]


# --- the map's layout -------------------------------------------------------------------------------
@dataclass(frozen=True)
class MapLayout:
    map_id: str
    hexes: HexLayout
    size: tuple[int, int]          # the map area
    harbours: tuple[Pick, ...] = ()   # per harbour place (the map file's order): a spot that fits any label

    @property
    def s(self) -> float:
        return self.hexes.size

    def center(self, h: Hex) -> Point:
        return self.hexes.center(h)


def _widest_sizes() -> dict[str, tuple[float, float]]:
    return {form: widest_label(form) for form in FORMS}


@lru_cache(maxsize=8)
def map_layout(map_id: str) -> MapLayout:
    board = board_for(map_id, "beginner", 0)  # the shape and harbour places are the same for every layout
    geo = geo_of(board)
    land = [x.hex for x in board.land]
    x0, _, x1, _ = HexLayout(1.0, (0.0, 0.0), Orientation.POINTY).bounds(land)
    room = BOARD_W - 2 * MARGIN
    s = room / (x1 - x0)
    sizes = [_widest_sizes()] * len(board.harbours)
    for _ in range(40):
        # A field big enough for labels anywhere near the land: the image is cut from it after.
        pad = 3 * s + 150
        core = Field(HexLayout(s, (0.0, 0.0), Orientation.POINTY), board, geo, (1, 1)).core
        lay = HexLayout(s, (pad - core[0], pad - core[1]), Orientation.POINTY)
        field = Field(lay, board, geo, (math.ceil(core[2] - core[0] + 2 * pad), math.ceil(core[3] - core[1] + 2 * pad)))
        picks = field.place(board.harbours, sizes, costs=KEPT_COST)
        if picks is None:
            raise ValueError(f"Catan Express map {map_id}: a harbour label finds no clear spot at scale {s:.1f}")
        bx0, by0, bx1, by1 = bounds_of([pt for b in [field.core, *(p.box for p in picks)] for pt in _corners(b)])
        width = bx1 - bx0
        if width <= room:
            break
        # The land grows with the scale, the labels and pieces do not: aim at the scale at
        # which this much overhang fits (a little under, so that it settles).
        overhang = width - (x1 - x0) * s
        s = min(s * 0.998, (room - overhang) / (x1 - x0))
    else:
        raise ValueError(f"Catan Express map {map_id}: no scale fits the board's width")
    dx, dy = (BOARD_W - width) / 2 - bx0, MARGIN - by0
    origin = (lay.origin[0] + dx, lay.origin[1] + dy)

    def moved(p: Pick) -> Pick:
        def at(pt: Point) -> Point:
            return pt[0] + dx, pt[1] + dy
        return Pick(at(p.centre), p.form, (p.box[0] + dx, p.box[1] + dy, p.box[2] + dx, p.box[3] + dy),
                    tuple((at(a), at(b)) for a, b in p.piers))  # type: ignore[arg-type]

    height = math.ceil(by1 - by0 + 2 * MARGIN)
    return MapLayout(map_id, HexLayout(s, origin, Orientation.POINTY), (BOARD_W, height),
                     tuple(moved(p) for p in picks))


@lru_cache(maxsize=8)
def map_field(map_id: str) -> Field:
    """The map's field at its final scale, the size of the map area."""
    ml = map_layout(map_id)
    board = board_for(map_id, "beginner", 0)
    return Field(ml.hexes, board, geo_of(board), ml.size)


@dataclass(frozen=True)
class HarbourLabel:
    """One harbour's label as drawn on a board: its box (map pixels), form and words."""

    harbour: Harbour
    box: Box
    form: str
    ratio: str
    what: str
    centre: Point


class Places:
    """Pixel positions of a board's named points and pieces (names as the state writes them)."""

    def __init__(self, board: Board, ml: MapLayout) -> None:
        self.board = board
        self.ml = ml
        self.geo: Geo = geo_of(board)
        graph = self.geo.graph
        self.points: dict[str, Point] = {}
        for n in self.geo.intersections:
            self.points[str(n)] = ml.hexes.corner_point(graph.intersection(n))
        for h in graph.centres:
            self.points[graph.name(h)] = ml.center(h)
        self._labels: dict[str, list[HarbourLabel]] = {}

    def xy(self, point: int | str) -> Point | None:
        return self.points.get(str(point))

    def is_point(self, name: str) -> bool:
        return str(name) in self.points

    def piece_ends(self, piece: str) -> tuple[Point, Point] | None:
        ends = self.geo.ends.get(piece)
        if ends is None:
            return None
        return self.points[ends[0]], self.points[ends[1]]

    def kind(self, piece: str) -> str | None:
        return self.geo.kind.get(piece)

    def loco_up(self, n: int) -> bool:
        return points_up(self.ml.hexes, self.geo.graph.intersection(n))

    def loco_row(self, n: int) -> int:
        return loco_row(self.ml.hexes, self.geo.graph.intersection(n), self.board.land_hexes)

    def harbour_labels(self, lang: str) -> list[HarbourLabel]:
        """Each harbour's label with this board's kinds in this language, where it is drawn."""
        if lang not in self._labels:
            words = [harbour_words(hb.kind, lang) for hb in self.board.harbours]
            sizes = [{form: label_size(r, w, form) for form in FORMS} for r, w in words]
            picks = map_field(self.ml.map_id).place(self.board.harbours, sizes, list(self.ml.harbours))
            assert picks is not None  # every place has its kept spot
            self._labels[lang] = [HarbourLabel(hb, p.box, p.form, r, w, p.centre)
                                  for hb, p, (r, w) in zip(self.board.harbours, picks, words)]
        return self._labels[lang]


@lru_cache(maxsize=16)
def places(map_id: str, layout: str, seed: int) -> Places:
    return Places(board_for(map_id, layout, seed), map_layout(map_id))
