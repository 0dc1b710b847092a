"""Parts of a board drawn once for what they show and pasted back on later moves.

Most of a board's panel is as it was on the last move: a player's row changes when that player's
money or turn does, the legend never. Drawing its text and shapes again cost several ms a move.
So a part is drawn through `Regions.draw` with its box and a key naming everything it shows: the
box's pixels after drawing are kept, and a later board whose box holds the same pixels before
drawing (its ground: a digest of them is part of the key) and asks for the same key gets them
pasted instead. Pillow draws a pixel from the key's values and the pixels under it alone, so a
pasted part is the same, pixel for pixel, as one drawn again.

The box must hold everything the part draws (a part drawn outside it would lose that on later
boards), and the key everything it is drawn from. While text sizes are recorded
(render.kit.legibility) every part is drawn afresh, so the record holds every text.
"""
from __future__ import annotations

import hashlib
from typing import Callable, Hashable, TypeVar

from PIL import Image

from render.kit.kept import Kept, KeptCache
from render.kit.legibility import recording

Box = tuple[int, int, int, int]
T = TypeVar("T")

KEPT_BYTES = 48 * 2**20  # kept parts' pixels (a player's row is 100-200 KB, a legend 100-400 KB)


class Regions(KeptCache):
    """Parts of boards kept by (box, ground, key), least recently used dropped first past `limit` bytes."""

    def __init__(self, limit: int = KEPT_BYTES) -> None:
        self.hits = self.misses = 0  # read by tests and the bench; not exact under threads
        self._items: Kept[tuple[Image.Image, object]] = Kept(limit, lambda kept: _bytes(kept[0]))

    def draw(self, img: Image.Image, box: Box, key: Hashable, paint: Callable[[], T],
             ground: Hashable | None = None) -> T:
        """paint() draws the part on img inside `box` and returns what the caller needs from it
        (kept with the pixels); on a board that asks again with the same key and ground, the
        kept pixels are pasted and paint's kept result returned. `ground`: a name for what the
        box holds before painting, given by a caller that knows it (a static layer's key), in
        place of the digest of its pixels (a map's millions of pixels cost a few ms to digest)."""
        if recording():  # a check that notes every text drawn: nothing is pasted instead
            return paint()
        full = self._key(img, box, key, ground)
        found = self._items.get(full)
        if found is not None:
            self.hits += 1
            img.paste(found[0], box[:2])
            return found[1]  # type: ignore[return-value]
        result = paint()
        self.misses += 1
        self._items.put(full, (img.crop(box), result))
        return result

    def paste(self, img: Image.Image, box: Box, key: Hashable, make: Callable[[], Image.Image],
              ground: Hashable | None = None) -> None:
        """Paste at the box's corner the image make() returns, the box's size, kept as `draw`
        keeps a part: for a part drawn whole apart from the board (a kept map, render.kit.mapdiff)
        that nobody changes afterwards, so that very image is kept, not a copy of its pixels."""
        if recording():
            img.paste(make(), box[:2])
            return
        full = self._key(img, box, key, ground)
        found = self._items.get(full)
        if found is None:
            self.misses += 1
            found = (make(), None)
            self._items.put(full, found)
        else:
            self.hits += 1
        img.paste(found[0], box[:2])

    @staticmethod
    def _key(img: Image.Image, box: Box, key: Hashable, ground: Hashable | None) -> tuple:
        if ground is None:
            ground = hashlib.sha1(img.crop(box).tobytes()).digest()
        return (img.mode, box, key, ground)


class Panel:
    """A board's parts drawn one after another (Regions.draw) over a ground known by name: the
    panel of a static layer, or a flat colour. The ground under each part is then named by that
    name and by the parts drawn before it on this board whose boxes meet its box (their boxes,
    keys and grounds), in place of a digest of its pixels: hashing a panel's boxes cost about
    1-1.5 ms a board.

    Only for parts that draw nothing outside their boxes (as Regions.draw asks) on an image where
    nothing else has been drawn inside them since the named ground was laid. With no name
    (None), each part's ground is the digest of its pixels, as Regions.draw takes it."""

    def __init__(self, img: Image.Image, ground: Hashable, regions: Regions | None = None) -> None:
        self.img = img
        self.ground = ground
        self.regions = REGIONS if regions is None else regions
        self._drawn: list[tuple[Box, Hashable, Hashable]] = []

    def draw(self, box: Box, key: Hashable, paint: Callable[[], T]) -> T:
        """Regions.draw of one part on this board's image."""
        ground = None
        if self.ground is not None:
            ground = (self.ground, tuple(part for part in self._drawn if _meet(part[0], box)))
        result = self.regions.draw(self.img, box, key, paint, ground=ground)
        self._drawn.append((box, key, ground))
        return result


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _bytes(img: Image.Image) -> int:
    return img.width * img.height * len(img.getbands())


REGIONS = Regions()
MAPS = Regions(6 * 5 * 2**20)  # whole maps (3-5 MB each): the last few boards' are the ones asked again
