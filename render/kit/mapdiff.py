"""A map redrawn only where it differs from a map kept from an earlier board.

A map is a ground (the static layer, with whatever a renderer lays on it the same way at every
pixel, such as Catan Express's shrunk track) and a list of pieces drawn on it in order, each a
`Piece`: a key naming everything it draws and a box holding every pixel it can change. Two
lists give the same pixels outside the boxes of the pieces only one of them has, as long as the
pieces both have come in the same order: each pixel there sees the same pieces in the same
order over the same ground. So a kept map is copied, and only inside those boxes is the ground
laid again and every piece that reaches in drawn again, in order.

A piece drawn again is drawn whole, on the whole map (its pixels then cannot depend on where
the redraw starts: a line's rasterising does not move with its coordinates exactly), and what
it drew outside the boxes is put back from before: there the kept map already shows it.

`ground(img, boxes)` lays the ground inside each box; it must give there the pixels it gives
at a full draw.
"""
from __future__ import annotations

import math
from functools import partial
from typing import Callable, Hashable, NamedTuple, Sequence

from PIL import Image

from render.kit.highlight import halo_lines, halo_width
from render.kit.kept import Kept, KeptCache

Box = tuple[int, int, int, int]

KEPT_BYTES = 32 * 2**20  # kept maps' pixels: 3-5 MB each, so the last 6-10 boards of any games
REDRAW_AT_MOST = 0.4  # past this share of the map changed, a full draw costs no more than the redraw


class Piece(NamedTuple):
    key: Hashable  # all the piece draws from: two pieces with one key draw the same pixels
    box: Box  # every pixel it can change lies inside
    draw: Callable[[Image.Image], None] | None  # None: part of the ground (drawn by `ground`)


class _Kept(NamedTuple):
    keys: tuple[Hashable, ...]
    boxes: dict[Hashable, Box]
    image: Image.Image


class KeptMaps(KeptCache):
    """Maps with the pieces drawn on them, by family (what the ground and the pieces' keys are
    drawn for: a layout, a language), least recently used dropped first past `limit` bytes."""

    def __init__(self, limit: int = KEPT_BYTES, per_family: int = 3) -> None:
        self.per_family = per_family
        self.redraws = self.full = 0  # read by tests and the bench; not exact under threads
        self._items: Kept[_Kept] = Kept(limit, lambda kept: _bytes(kept.image))

    def draw(self, family: Hashable, size: tuple[int, int], pieces: Sequence[Piece],
             ground: Callable[[Image.Image, Sequence[Box]], None], full: Callable[[], Image.Image]) -> Image.Image:
        """The map with `pieces` over the ground: from the kept map of this family that needs the
        least redrawn, or `full()` (a fresh image with the ground and every piece) when none
        does. The result is kept; the caller must not draw on it (paste it, or copy it)."""
        keys = tuple(p.key for p in pieces)
        if len(set(keys)) != len(keys):  # the diff pairs pieces by key
            return full()
        found = self._items.get((family, keys))
        if found is not None:
            return found.image
        kept = self._items.values_where(lambda key: key[0] == family)
        now = set(keys)
        best = None
        # the kept map with the fewest pieces to take away or add (a map of another game has many)
        for entry in sorted(kept, key=lambda e: len(now.symmetric_difference(e.boxes)))[:1]:
            boxes = _changed(entry, pieces, now, size)
            if boxes is not None:
                best = entry, boxes
        if best is None:
            img = full()
            self.full += 1
        else:
            img = best[0].image.copy()
            boxes = best[1]
            ground(img, boxes)
            for piece in pieces:
                _redraw(img, piece, boxes)
            self.redraws += 1
        self._keep(family, keys, {p.key: p.box for p in pieces}, img)
        return img

    def draw_over(self, family: Hashable, layer: Image.Image, pieces: Sequence[Piece]) -> Image.Image:
        """`draw` for a map whose ground is a static image, `layer`: laid again by pasting its
        pixels back into the boxes."""
        def ground(img: Image.Image, boxes: Sequence[Box]) -> None:
            for box in boxes:
                img.paste(layer.crop(box), box[:2])

        def full() -> Image.Image:
            img = layer.copy()
            draw_all(img, pieces)
            return img

        return self.draw(family, layer.size, pieces, ground, full)

    def _keep(self, family: Hashable, keys: tuple[Hashable, ...], boxes: dict[Hashable, Box], img: Image.Image) -> None:
        def oldest_of_family(kept: list[Hashable]) -> list[Hashable]:  # a family keeps per_family maps at most
            ours = [k for k in kept if k[0] == family]  # type: ignore[index]
            return ours[:max(0, len(ours) - self.per_family + 1)]

        self._items.put((family, keys), _Kept(keys, boxes, img), before=oldest_of_family)


def _changed(kept: _Kept, pieces: Sequence[Piece], now: set[Hashable], size: tuple[int, int]) -> list[Box] | None:
    """The boxes to redraw to turn the kept map into one with `pieces` (keys `now`), or None
    when that is not worth it or cannot be done exactly (shared pieces in another order)."""
    shared_before = [k for k in kept.keys if k in now]
    shared_now = [p.key for p in pieces if p.key in kept.boxes]
    if shared_before != shared_now:
        return None
    boxes = [kept.boxes[k] for k in kept.keys if k not in now]
    boxes += [p.box for p in pieces if p.key not in kept.boxes]
    boxes = [c for c in (clip(b, size) for b in boxes) if c is not None]
    if _area(boxes) > REDRAW_AT_MOST * size[0] * size[1]:
        return None
    return boxes


def draw_all(img: Image.Image, pieces: Sequence[Piece]) -> None:
    """Every piece drawn on img, in order (the ground's own pieces draw nothing)."""
    for piece in pieces:
        if piece.draw is not None:
            piece.draw(img)


def _redraw(img: Image.Image, piece: Piece, boxes: Sequence[Box]) -> None:
    """Draw the piece again inside `boxes` only."""
    if piece.draw is None:
        return
    touched = [b for b in boxes if meets(piece.box, b)]
    if not touched:
        return
    x0, y0, x1, y1 = piece.box
    if any(b[0] <= x0 and b[1] <= y0 and x1 <= b[2] and y1 <= b[3] for b in touched):
        piece.draw(img)
        return
    whole = clip(piece.box, img.size)
    if whole is None:
        return
    before = img.crop(whole)
    outside = Image.new("L", before.size, 255)  # where the kept pixels are put back
    for b in touched:
        inside = clip(b, img.size)
        if inside is not None:
            outside.paste(0, (max(inside[0], whole[0]) - whole[0], max(inside[1], whole[1]) - whole[1],
                              min(inside[2], whole[2]) - whole[0], min(inside[3], whole[3]) - whole[1]))
    piece.draw(img)
    img.paste(before, whole[:2], outside)


def meets(a: Box, b: Box) -> bool:
    """Whether two boxes share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def clip(b: Box, size: tuple[int, int]) -> Box | None:
    """The part of a box inside an image of `size`, or None."""
    x0, y0, x1, y1 = max(0, b[0]), max(0, b[1]), min(size[0], b[2]), min(size[1], b[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _area(boxes: Sequence[Box]) -> int:
    """An upper bound of the pixels the boxes cover (overlaps counted twice)."""
    return sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes)


def _bytes(img: Image.Image) -> int:
    return img.width * img.height * len(img.getbands())


def outer_box(xs: Sequence[float], ys: Sequence[float], margin: float) -> Box:
    """The whole-pixel box round points, `margin` further out on every side (and one pixel more,
    for anti-aliased edges and rounding)."""
    return (math.floor(min(xs) - margin) - 1, math.floor(min(ys) - margin) - 1,
            math.ceil(max(xs) + margin) + 2, math.ceil(max(ys) + margin) + 2)


Patch = tuple[Image.Image, tuple[int, int]]  # an RGBA patch and where its top left corner goes


def patched(key: Hashable, patches: Sequence[Patch]) -> Piece:
    """A piece made of RGBA patches pasted in order."""
    box = (min(at[0] for _, at in patches), min(at[1] for _, at in patches),
           max(at[0] + p.width for p, at in patches), max(at[1] + p.height for p, at in patches))
    return Piece(key, box, partial(paste_patches, list(patches)))


def paste_patches(patches: Sequence[Patch], img: Image.Image) -> None:
    for patch, at in patches:
        img.paste(patch, at, patch)


Point = tuple[float, float]


def halo_pieces(kind: str, paths: Sequence[Sequence[Point]], width: float, img_width: int) -> list[Piece]:
    """halo_lines(paths, width) on an image `img_width` wide, as one piece per group of paths
    whose halos meet: a halo draws all its dark edges before its white bands, which groups apart
    need not share to give the same pixels (and a piece far from another then redraws only
    round itself)."""
    paths = [list(p) for p in paths if p]
    reach = halo_width(img_width, width) / 2 + 1
    boxes = [outer_box([x for x, _ in p], [y for _, y in p], reach) for p in paths]
    group = list(range(len(paths)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i in range(len(paths)):
        for j in range(i):
            if meets(boxes[i], boxes[j]):
                group[root(i)] = root(j)
    out = []
    for r in sorted({root(i) for i in range(len(paths))}):
        mine = [i for i in range(len(paths)) if root(i) == r]
        lines = [paths[i] for i in mine]
        box = (min(boxes[i][0] for i in mine), min(boxes[i][1] for i in mine), max(boxes[i][2] for i in mine),
               max(boxes[i][3] for i in mine))
        out.append(Piece((kind, width, tuple(tuple(p) for p in lines)), box, partial(_halo, lines, width)))
    return out


def _halo(paths: list[list[Point]], width: float, img: Image.Image) -> None:
    halo_lines(img, paths, width)
