"""PNG encoding and a cache for static layers.

Encoding dominates a move's render time, so boards are encoded with a low zlib level
(compress_level=1 encodes a 1800x1000 board several times faster than the default 6 for a
file about a third larger — still far under Discord's limits).
"""
from __future__ import annotations

import io
from collections import OrderedDict
from typing import Callable, Hashable

from PIL import Image

COMPRESS_LEVEL = 1


def to_png(img: Image.Image) -> bytes:
    if img.mode not in ("RGB", "RGBA", "P", "L"):
        img = img.convert("RGB")
    buffer = io.BytesIO()
    img.save(buffer, "PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()


class LayerCache:
    """Memoise images that never change between moves (a map with its cities and routes).

    `get` returns the cached image itself: callers must copy before drawing on it.
    """

    def __init__(self, maxsize: int = 8) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[Hashable, Image.Image] = OrderedDict()

    def get(self, key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        image = build()
        self._items[key] = image
        while len(self._items) > self.maxsize:
            self._items.popitem(last=False)
        return image

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
