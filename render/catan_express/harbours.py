"""Where each harbour's label sits on a Catan Express board.

A label is drawn once with the empty map and never moves, so it keeps clear of every place a
piece may ever take: it lies wholly in the sea, off the room of every intersection, ferry edge and
hex centre (render/catan_express/room.py: `piece_room`) and off the other labels, inside the
image, and its two piers reach the coast through open sea, under no other label or building and
across no other pier. It takes the clear spot nearest its coast, straight out where it can, in
one of three forms (each with its cost, FORM_COST): "2:1" over the resource's name, both on one
low line, or, where no word fits (the narrow channels of the 5-6 player islands), "2:1" over the
resource's chip (its colour and sign, render/catan_express/board.py).

The words differ by board (a random layout deals the kinds over the harbour places) and by
language, so the spots are chosen per board and language (`board_labels`). Each place also has a
kept spot (`kept_spots`, found with the map's scale) that fits the longest label it could carry in
a word form wherever one fits at all; a board's labels keep clear of the kept spots of the places
not yet settled, so every place has at least its own, and the scale holds for every board.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.catan_express.geo import Geo
from games.catan_express.map import GENERIC, HARBOUR_KINDS, Board, Harbour
from games.core.hexgrid import Corner
from games.core.i18n import LANGUAGES, translate
from render.catan_express.room import building_box, piece_room
from render.catan_express.sizes import MIN_TEXT, POINT_R
from render.kit.geometry import (Box, Point, Segment, bounds_of, box_at, boxes_meet, grow, segment_meets_box,
                                 segments_cross, union)
from render.kit.hexgrid import HexLayout
from render.kit.text import measure

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
        return "3:1", translate(lang, "catan_express.render.harbour.any")
    return "2:1", translate(lang, f"catan_express.resource.{kind}")


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

    def moved(self, dx: float, dy: float) -> Pick:
        def at(pt: Point) -> Point:
            return pt[0] + dx, pt[1] + dy
        x0, y0, x1, y1 = self.box
        return Pick(at(self.centre), self.form, (x0 + dx, y0 + dy, x1 + dx, y1 + dy),
                    tuple((at(a), at(b)) for a, b in self.piers))  # type: ignore[arg-type]


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
        self.core: Box = union([r.bounds for r in self.rooms] + [bounds_of(p) for p in polys])
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


# --- a map's kept spots and a board's labels ----------------------------------------------------------
def kept_spots(field: Field, harbours: Sequence[Harbour]) -> list[Pick] | None:
    """A spot per harbour place that holds the longest label any board may put there, in a word
    form wherever one fits (None when some place has no clear spot at all at this scale)."""
    widest = {form: widest_label(form) for form in FORMS}
    return field.place(tuple(harbours), [widest] * len(harbours), costs=KEPT_COST)


@dataclass(frozen=True)
class HarbourLabel:
    """One harbour's label as drawn on a board: its box (map pixels), form and words."""

    harbour: Harbour
    box: Box
    form: str
    ratio: str
    what: str
    centre: Point


def board_labels(field: Field, board: Board, kept: Sequence[Pick], lang: str) -> list[HarbourLabel]:
    """Each harbour's label with this board's kinds in this language, where it is drawn, on the
    map's `field` at its final scale with its `kept` spots."""
    words = [harbour_words(hb.kind, lang) for hb in board.harbours]
    sizes = [{form: label_size(r, w, form) for form in FORMS} for r, w in words]
    picks = field.place(board.harbours, sizes, list(kept))
    assert picks is not None  # every place has its kept spot
    return [HarbourLabel(hb, p.box, p.form, r, w, p.centre) for hb, p, (r, w) in zip(board.harbours, picks, words)]
