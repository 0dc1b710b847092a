"""Names placed per board: each keeps its preferred spot while nothing the board drew this move
covers it, and otherwise takes the first of its other spots that nothing covers.

A board's pieces change every move (track, tiles, markers, the last move's halo), so names
placed once with the empty map end up under them. A board records where it drew this move's
pieces (`Pieces`, three layers by how bad covering them is), then `place` picks each name's box:
  * the preferred spot (the map's static placement, render.kit.labels.place_names) if it is clear;
  * else the first clear spot of the name's list (nearest first; the caller keeps only spots that
    read as that place's name);
  * else the spot covering the least: track before the pieces on it, never another name or a
    piece a name must not hide while any spot avoids them.
A name never moves onto one that keeps its spot. Names are then drawn last, on top, so none is
ever hidden under a piece.

It works on masks `scale` times smaller than the map each way (a cell is taken if any of its
pixels is; 4 for a board of big hexes, 2 for one of tight names), so a board can try hundreds of
spots per move; and it remembers the spot each name took for a given neighbourhood (the cells its
spots cover), so a move recomputes only the few names near what it changed. What never moves
(cities, legends: `fixed_cells`) is never a reason to leave the preferred spot, which was chosen
knowing it; only another spot must keep off it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Hashable, Iterable, Sequence

from PIL import Image, ImageChops, ImageDraw

from render.kit.geometry import Box, grow
from render.kit.mapdiff import Patch, Piece, patched

# Cells of the quarter-size mask names are placed on.
FREE, TRACK_CELL, MARK_CELL, NAME_CELL, HARD_CELL = 0, 1, 2, 3, 4
# What a covered cell costs when no spot is clear (a dense cluster late in the game): a name drawn
# over track leaves the track readable on both sides, over a marker on it less so. Another name,
# then a piece a name must not hide, outweigh any amount of these (NameSpots.choose counts them
# first).
CELL_COST = {TRACK_CELL: 1, MARK_CELL: 6}
CHOSEN_KEPT = 4096
TRIES = 3  # orders of the moving names tried, at most


class Pieces:
    """Where a board has drawn this move's pieces, on masks `scale` times smaller than the map
    (mode "L", non-zero in a cell that any piece reaches): `track` (lines a name may cross when
    it must), `marks` (what lies on the track: markers, the last move's halos), `hard` (what a
    name must never cover)."""

    LAYERS = ("track", "marks", "hard")

    def __init__(self, size: tuple[int, int], scale: int = 4) -> None:
        self.scale = scale
        size = cells_size(size, scale)
        self.track, self.marks, self.hard = (Image.new("L", size, 0) for _ in self.LAYERS)

    def paste(self, layer: str, patch: Image.Image, at: tuple[int, int]) -> None:
        """An RGBA patch pasted at `at` (map pixels) covers the cells under its opaque pixels."""
        k = self.scale
        getattr(self, layer).paste(255, (at[0] // k, at[1] // k), _shadow(patch, k))

    def patched(self, key: Hashable, layer: str, patches: Sequence[Patch]) -> Piece:
        """A map's piece made of RGBA patches pasted in order (render.kit.mapdiff.patched),
        covering `layer` where they lie."""
        for patch, at in patches:
            self.paste(layer, patch, at)
        return patched(key, patches)

    def line(self, layer: str, points: Sequence[tuple[float, float]], width: float) -> None:
        """A stroke `width` map pixels wide with round ends."""
        pts = [(x / self.scale, y / self.scale) for x, y in points]
        w = width / self.scale + 1
        d = ImageDraw.Draw(getattr(self, layer))
        d.line(pts, fill=255, width=math.ceil(w), joint="curve")
        for x, y in (pts[0], pts[-1]):
            d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=255)

    def polygon(self, layer: str, points: Sequence[tuple[float, float]]) -> None:
        ImageDraw.Draw(getattr(self, layer)).polygon([(x / self.scale, y / self.scale) for x, y in points],
                                                     fill=255, outline=255)


# A board pastes the same cached patches move after move: their shadows at the cells' size are kept
# with them (the patch itself is kept too, so that its id is never another's).
_SHADOWS: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}
SHADOWS_KEPT = 8192


def _shadow(patch: Image.Image, scale: int) -> Image.Image:
    key = (id(patch), scale)
    kept = _SHADOWS.get(key)
    if kept is None or kept[0] is not patch:
        kept = _SHADOWS[key] = (patch, patch.getchannel("A").reduce(scale))
        if len(_SHADOWS) > SHADOWS_KEPT:
            _SHADOWS.pop(next(iter(_SHADOWS)))
    return kept[1]


def cells_size(size: tuple[int, int], scale: int) -> tuple[int, int]:
    return math.ceil(size[0] / scale) + 1, math.ceil(size[1] / scale) + 1


def fixed_cells(fixed: Image.Image, scale: int) -> Image.Image:
    """A full-size mask of what never moves (non-zero there) at the cells' size."""
    small = fixed.point(lambda v: 255 if v else 0).reduce(scale)
    out = Image.new("L", cells_size(fixed.size, scale), 0)
    out.paste(small, (0, 0))
    return out


def cells(box: Box, scale: int) -> tuple[int, int, int, int]:
    """The cells a box touches, and one more all round: a piece pasted at a pixel that is not a
    multiple of `scale` lands up to one cell from where it covers."""
    return (math.floor(box[0] / scale) - 1, math.floor(box[1] / scale) - 1, math.ceil(box[2] / scale) + 1,
            math.ceil(box[3] / scale) + 1)


@dataclass(frozen=True)
class NameSpots:
    """A name's spots, best first (its preferred box first), with the cells each covers (`gap`
    included, relative to `area`) and `area`, the cells all of them cover."""

    boxes: tuple[Box, ...]
    cells: tuple[tuple[int, int, int, int], ...]
    area: tuple[int, int, int, int]

    @classmethod
    def of(cls, boxes: Iterable[Box], gap: float, scale: int) -> NameSpots:
        boxes = tuple(dict.fromkeys(boxes))
        covered = [cells(grow(b, gap), scale) for b in boxes]
        area = (min(c[0] for c in covered), min(c[1] for c in covered), max(c[2] for c in covered),
                max(c[3] for c in covered))
        return cls(boxes, tuple((c[0] - area[0], c[1] - area[1], c[2] - area[0], c[3] - area[1]) for c in covered),
                   area)

    def choose(self, taken: Image.Image, homes: Image.Image, own: int) -> tuple[Box, int]:
        """The first box nothing covers (`taken`) that is no other moving name's own spot (`homes`,
        each painted with its number; this name's is `own`), else the one covering the least: the
        fewest cells of another name first (no amount of anything else outweighs one), then of a
        piece a name must not hide, then of another's own spot, then by CELL_COST; but when every
        spot meets another name or such a piece, its own spot, which the map's placement chose
        apart from the other names. With the cells of other names it covers (0 but when every spot
        meets one)."""
        return self.choose_in(taken.crop(self.area).tobytes(),
                              homes.crop(self.area).tobytes().translate(_OWN_OR_OTHER[own]))

    def choose_in(self, near: bytes, theirs: bytes) -> tuple[Box, int]:
        """choose() on the bytes of `area` cropped from `taken` (`near`) and from `homes` with
        this name's number made 1 and every other 2 (`theirs`). (It counts bytes in each spot's
        rows: a crop per spot cost more, and a name has a hundred spots, most of them covered.)"""
        spans = self._spans
        for i, rows in enumerate(spans):
            if all(near.count(0, a, b) == b - a for a, b in rows) and not any(theirs.count(2, a, b) for a, b in rows):
                return self.boxes[i], 0

        size = (self.area[2] - self.area[0], self.area[3] - self.area[1])
        near_img, theirs_img = Image.frombytes("L", size, near), Image.frombytes("L", size, theirs)

        def cost(covered: tuple[int, int, int, int], beaten: tuple[int, ...] | None) -> tuple[int, ...]:
            """The spot's cost, or just its first two figures once they show it cannot beat
            `beaten` (the other figures are then never compared)."""
            hist = near_img.crop(covered).histogram()
            first = (hist[NAME_CELL], hist[HARD_CELL])
            if beaten is not None and first > beaten[:2]:
                return first
            return (*first, theirs_img.crop(covered).histogram()[2],
                    sum(hist[c] * price for c, price in CELL_COST.items()))

        best, best_cost = 0, cost(self.cells[0], None)
        for i in range(1, len(self.cells)):
            found = cost(self.cells[i], best_cost)
            if found < best_cost:
                best, best_cost = i, found
        if best_cost[0] or best_cost[1]:
            # every spot meets another name or a piece no name may hide: its own spot, then
            best, best_cost = 0, cost(self.cells[0], None)
        return self.boxes[best], best_cost[0]

    def __hash__(self) -> int:
        # a name's spots are part of the key of every choice kept for it, asked a hundred times a
        # board: hashed once (a hundred boxes and their cells)
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.boxes, self.cells, self.area))

    @cached_property
    def _spans(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per spot, the (start, end) offsets of its rows in the bytes of `area`."""
        width = self.area[2] - self.area[0]
        return tuple(tuple((y * width + c[0], y * width + c[2]) for y in range(c[1], c[3])) for c in self.cells)


class Placer:
    """Places a board's names move after move, remembering the choices it made."""

    def __init__(self, scale: int) -> None:
        self.scale = scale
        self._chosen: dict[tuple, tuple[Box, int]] = {}

    def place(self, names: Sequence[tuple[Hashable, NameSpots]], fixed: Image.Image, pieces: Pieces,
              gap: float) -> dict[Hashable, Box]:
        """Each name's box, in the given order (earlier names choose first). `fixed` is the
        cells' mask of what never moves (fixed_cells, a name never covers it); `gap` is kept round
        each name."""
        # each cell at the level of the worst layer covering it (the levels rise TRACK < MARK < HARD);
        # `moving`, what this move's pieces cover, is read only as covered or not
        moving = ImageChops.lighter(ImageChops.lighter(pieces.track.point(_TRACK_LEVELS), pieces.marks.point(_MARK_LEVELS)),
                                    pieces.hard.point(_HARD_LEVELS))
        taken = ImageChops.lighter(moving, _hard_levels(fixed))
        out: dict[Hashable, Box] = {}
        # Names whose preferred spot nothing this move covers keep it; the others move, never onto
        # a name that stays, onto another moving name's own spot only when nothing else is left. A
        # moving name that finds no spot clear of the other moving names (an earlier one took the
        # last) chooses first on a second try. (This first pass reads and paints the masks' bytes:
        # a board has a hundred names or so, and a crop per question cost more than the answer.)
        width, height = taken.size
        cells_now, pieces_now = bytearray(taken.tobytes()), moving.tobytes()
        for key, spots in names:
            area, home = spots.area, spots.cells[0]
            x0, y0 = max(0, area[0] + home[0]), max(0, area[1] + home[1])
            x1, y1 = min(width, area[0] + home[2]), min(height, area[1] + home[3])
            rows = [(y * width + x0, y * width + x1) for y in range(y0, y1)] if x0 < x1 else []
            if any(pieces_now.count(0, a, b) != b - a for a, b in rows):  # a piece covers it
                continue
            if any(cells_now.find(NAME_CELL, a, b) >= 0 for a, b in rows):  # too near a name that stays
                continue
            out[key] = spots.boxes[0]
            _fill(cells_now, width, height, cells(grow(spots.boxes[0], gap), self.scale), NAME_CELL)
        taken = Image.frombytes("L", (width, height), bytes(cells_now))
        movers = [(key, spots) for key, spots in names if key not in out]
        homes = Image.new("L", taken.size, 0)
        number = {key: n for n, (key, _) in enumerate(movers, start=1)}
        draw_homes = ImageDraw.Draw(homes)
        for key, spots in movers:
            draw_homes.rectangle(cells(grow(spots.boxes[0], gap), self.scale), fill=number[key])
        # choose() reads `homes` only as this name's own spot or another's: the numbers are made 1
        # and 2, so the choice made for a neighbourhood holds whatever the others' numbers (and the
        # same for every try)
        theirs_of = {key: homes.crop(spots.area).tobytes().translate(_OWN_OR_OTHER[number[key]])
                     for key, spots in movers}
        kept = taken
        for _ in range(TRIES):
            taken = kept.copy()
            paint = ImageDraw.Draw(taken)
            stuck = set()
            for key, spots in movers:
                theirs = theirs_of[key]
                memo = (key, spots, taken.crop(spots.area).tobytes(), theirs)
                found = self._chosen.get(memo)
                if found is None:
                    found = self._chosen[memo] = spots.choose_in(memo[2], theirs)
                    if len(self._chosen) > CHOSEN_KEPT:
                        self._chosen.pop(next(iter(self._chosen)))
                box, overlap = found
                out[key] = box
                if overlap:
                    stuck.add(key)
                paint.rectangle(cells(grow(box, gap), self.scale), fill=NAME_CELL)
            if not stuck:
                break
            reordered = [m for m in movers if m[0] in stuck] + [m for m in movers if m[0] not in stuck]
            if reordered == movers:  # the next try would choose as this one did, name for name
                break
            movers = reordered
        _settle(out, {key: spots.boxes[0] for key, spots in names}, gap)
        return {key: out[key] for key, _ in names}


def _fill(mask: bytearray, width: int, height: int, box: tuple[int, int, int, int], value: int) -> None:
    """ImageDraw's rectangle(box, fill=value) on an "L" mask's bytes: both ends inside."""
    x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(width - 1, box[2]), min(height - 1, box[3])
    if x0 > x1:
        return
    run = bytes((value,)) * (x1 + 1 - x0)
    for y in range(y0, y1 + 1):
        mask[y * width + x0:y * width + x1 + 1] = run


# Image.point tables: any non-zero cell to 255; to TRACK_CELL, MARK_CELL, HARD_CELL (made once, not
# from a lambda a call)
_SOLID = [0] + [255] * 255
_TRACK_LEVELS = [FREE] + [TRACK_CELL] * 255
_MARK_LEVELS = [FREE] + [MARK_CELL] * 255
_HARD_LEVELS = [FREE] + [HARD_CELL] * 255

# the fixed cells' mask (the same image board after board) at HARD_CELL, kept with the mask
_FIXED_LEVELS: dict[int, tuple[Image.Image, Image.Image]] = {}


def _hard_levels(fixed: Image.Image) -> Image.Image:
    kept = _FIXED_LEVELS.get(id(fixed))
    if kept is None or kept[0] is not fixed:
        kept = _FIXED_LEVELS[id(fixed)] = (fixed, fixed.point(_HARD_LEVELS))
        if len(_FIXED_LEVELS) > 16:
            _FIXED_LEVELS.pop(next(iter(_FIXED_LEVELS)))
    return kept[1]

# per name number n: a bytes.translate table taking 0 to 0, n to 1 and any other number to 2
_OWN_OR_OTHER = [bytes(0 if v == 0 else 1 if v == n else 2 for v in range(256)) for n in range(256)]


def _settle(out: dict[Hashable, Box], homes: dict[Hashable, Box], gap: float) -> None:
    """Where two names still meet (a crowded corner late in a game), both go back to the spots the
    map's placement gave them, which keep apart; until none meets another but two the map's
    placement itself let meet. The first such pair in the names' order goes back first."""
    keys = list(out)
    for _ in range(len(out)):
        clash = _first_clash(keys, out, homes, gap)
        if clash is None:
            return
        for k in clash:
            out[k] = homes[k]


def _first_clash(keys: list[Hashable], out: dict[Hashable, Box], homes: dict[Hashable, Box],
                 gap: float) -> tuple[Hashable, Hashable] | None:
    """The first pair (a before b in `keys`) where a's box grown by `gap` meets b's and not both
    are at home. (Only names whose grown boxes overlap across can meet: a sweep along x finds
    those, in place of a test of every pair, a hundred names making five thousand.)"""
    grown = [grow(out[k], gap) for k in keys]
    reach = [(min(g[0], out[k][0]), max(g[2], out[k][2])) for g, k in zip(grown, keys)]
    order = sorted(range(len(keys)), key=lambda i: reach[i][0])
    best: tuple[int, int] | None = None
    open_: list[int] = []
    for j in order:
        start = reach[j][0]
        open_ = [i for i in open_ if reach[i][1] > start]
        for i in open_:
            a, b = min(i, j), max(i, j)
            if best is not None and (a, b) >= best:
                continue
            ka, kb = keys[a], keys[b]
            if _meet(grown[a], out[kb]) and not (out[ka] == homes[ka] and out[kb] == homes[kb]):
                best = (a, b)
        open_.append(j)
    return None if best is None else (keys[best[0]], keys[best[1]])


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
