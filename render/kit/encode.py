"""PNG encoding and a cache for static layers.

Encoding is a large share of a move's render time, so it is tuned for speed. Measured on
a mid-game Ticket to Ride board (Pillow 13, one core; ms per encode, file size):

    size        mode                     level 1          level 3          level 6
    1800x1000   RGB                      35 ms  326 KiB   37 ms  317 KiB   51 ms  293 KiB
    1600x1000   RGB                      38 ms  582 KiB   41 ms  570 KiB   51 ms  544 KiB
    1600x1000   P (quantize + encode)    19 ms  178 KiB   20 ms  170 KiB   26 ms  151 KiB

(quantize alone: 14 ms; RGBA costs ~40% more than RGB.) Levels 1-3 share zlib's fast
path; 4+ switch to the slower matcher. Since each game keeps one live board
(bot/sessions/live.py), a board picture is drawn only for a new message, about a third of
the moves, so bytes sent weigh as much as milliseconds. Re-measured on the redrawn
1400x1236 Ticket to Ride board (palette, encode only; quantize ~11-17 ms on top):

    level 4   10 ms  127 KiB      level 5   12 ms  123 KiB      level 6   17 ms  119 KiB

Level 5 is kept: level 6's last 3% of bytes cost 5 ms, which put a move that draws a board
over its 60 ms p95 budget (`railyard bench`), while level 1 (6 ms, 159 KiB) would send a
third more. optimize=True would retry every filter and is several times slower. Palette mode is the fastest and
smallest but lossy (256 colours, no dithering: indistinguishable on flat board art, may
band on gradients or photos), so it is opt-in with palette=True.
"""
from __future__ import annotations

import io
from collections import OrderedDict
from typing import Callable, Hashable, Sequence

from PIL import Image

COMPRESS_LEVEL = 5


def quantize_keeping(img: Image.Image, keep: Sequence[tuple[int, int, int]], sample: int = 4) -> Image.Image:
    """A 256-colour image whose palette holds every colour of `keep` (the colours that carry
    meaning: players, goods, terrain, text), so none is merged into a neighbour, and fills the
    other slots with colours chosen by octree from a 1/sample² sample of the image
    (anti-aliased edges, blends); every pixel then takes its nearest palette colour (Pillow's
    lookup is within a few levels). Measured on the 1360x1588 Steam board: 7-9 ms against
    14 ms for an octree over the whole image; mean error per pixel 1.0 (octree 0.8), no pixel
    off by more than 30."""
    keep = list(dict.fromkeys(tuple(c) for c in keep))[:255]
    room = 256 - len(keep)
    sampled = img.reduce(sample) if sample > 1 else img
    chosen = sampled.quantize(room, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    colours = (chosen.getpalette() or [])[: room * 3]
    flat = [v for c in keep for v in c] + colours
    reference = Image.new("P", (1, 1))
    reference.putpalette(flat + [0] * (768 - len(flat)))
    return img.convert("RGB").quantize(palette=reference, dither=Image.Dither.NONE)


def to_png(img: Image.Image, *, palette: bool = False) -> bytes:
    """PNG bytes of img: lossless by default; palette=True quantises to 256 colours."""
    if palette and img.mode in ("RGB", "RGBA"):
        # FASTOCTREE is the only built-in quantiser that keeps an alpha channel.
        img = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    elif img.mode not in ("RGB", "RGBA", "P", "L"):
        img = img.convert("RGB")
    buffer = io.BytesIO()
    img.save(buffer, "PNG", compress_level=COMPRESS_LEVEL, optimize=False)
    return buffer.getvalue()


class LayerCache:
    """Memoise layers that never change between moves (a map with its cities and routes).

    `get` returns the cached value itself (any object: a renderer may cache an image
    together with its layout), so callers must copy before drawing on it; `image`
    returns a fresh copy of a cached Image, safe to draw on.
    """

    def __init__(self, maxsize: int = 8) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[Hashable, object] = OrderedDict()

    def get(self, key: Hashable, build: Callable[[], object]):
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        value = build()
        self._items[key] = value
        while len(self._items) > self.maxsize:  # least recently used goes first
            self._items.popitem(last=False)
        return value

    def image(self, key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
        """A copy of the cached image (built on first use): draw on it freely."""
        return self.get(key, build).copy()

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
