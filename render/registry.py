"""Which games Railyard can draw: the renderer column of data/games.json (games/catalog.py).

Callers (sessions, the Discord adapter, the CLI) only know a game's name:

    r = render.registry.get("ticket_to_ride")
    png = r.board(view, names, lang)          # bytes, ready to upload
    img = r.board_image(view, names, lang)    # PIL image, e.g. to compose or inspect

Each game package exposes a `render.kit.images.GameImages`: `board_image`, `hand_image` and
`final_image` (view, names, lang) -> PIL.Image, their alt-text twins `describe_*` and the
game's `palette`; this module adds the PNG-encoding twins and `describe(kind, ...)`. Renderers are
imported on first use, so one broken renderer cannot stop the others from loading.

A renderer whose images are flat-coloured may set `palette_png = True`: its PNGs are then
reduced to a 256-colour palette first. For a 1800x1000 board that halves the encoding time
(quantise ~14 ms + encode ~7 ms, against ~38 ms for RGB at zlib level 1) and the file size,
with no visible difference (mean error under 2/255 per channel). A board marked with
`render.kit.encode.drawn_on` maps onto the palette kept with its static layer instead of
being quantised afresh (render.kit.encode.few_colours), and its PNG is written from bands
compressed once and kept (render.kit.bandpng).
"""
from __future__ import annotations

import time
from functools import lru_cache
from typing import Any, Protocol, Sequence

from PIL import Image

from games.catalog import entries, load
from render.kit.encode import add_times, palette_png_of, to_png
from render.kit.images import Places

# name -> "module:attribute"
_RENDERERS: dict[str, str] = {name: entry.renderer for name, entry in entries().items()}


class UnknownRenderer(KeyError):
    pass


class ImageRenderer(Protocol):
    """What a game's render package provides."""

    def board_image(self, view: Any, names: Sequence[str], lang: str) -> Image.Image: ...

    def hand_image(self, view: Any, names: Sequence[str], lang: str) -> Image.Image: ...

    def final_image(self, view: Any, names: Sequence[str], lang: str) -> Image.Image: ...

    def describe_board(self, view: Any, names: Sequence[str], lang: str) -> str: ...

    def describe_hand(self, view: Any, names: Sequence[str], lang: str) -> str: ...

    def describe_final(self, view: Any, names: Sequence[str], lang: str) -> str: ...


class GameRenderer:
    """A game's renderer with both image and PNG-bytes entry points."""

    def __init__(self, name: str, images: ImageRenderer) -> None:
        self.name = name
        self._images = images

    def board_image(self, view: Any, names: Sequence[str], lang: str = "en") -> Image.Image:
        return self._images.board_image(view, names, lang)

    def hand_image(self, view: Any, names: Sequence[str], lang: str = "en") -> Image.Image:
        return self._images.hand_image(view, names, lang)

    def final_image(self, view: Any, names: Sequence[str], lang: str = "en") -> Image.Image:
        return self._images.final_image(view, names, lang)

    def describe(self, kind: str, view: Any, names: Sequence[str], lang: str = "en") -> str:
        """Alt text for the `kind` ("board", "hand" or "final") image of this view."""
        if kind not in ("board", "hand", "final"):
            raise ValueError(f"no image kind {kind!r}")
        return getattr(self._images, f"describe_{kind}")(view, list(names), lang)

    @property
    def palette(self):
        return self._images.palette

    @property
    def symbols(self):
        return self._images.symbols

    @property
    def places(self) -> Places | None:
        """How the board shows places (None: the game's options name no place)."""
        return getattr(self._images, "places", None)

    def score_rows(self, view: Any) -> list[list[int]]:
        """Each seat's score after each turn the public `view` has seen ([] when the game keeps
        no score history): the lines of the final image's chart, before the final scoring."""
        rows = getattr(self._images, "scores", None)
        return [list(r) for r in rows(view)] if rows is not None else []

    def board(self, view: Any, names: Sequence[str], lang: str = "en") -> bytes:
        return self.encode(self.board_image(view, names, lang))

    def hand(self, view: Any, names: Sequence[str], lang: str = "en") -> bytes:
        return self.encode(self.hand_image(view, names, lang))

    def final(self, view: Any, names: Sequence[str], lang: str = "en") -> bytes:
        return self.encode(self.final_image(view, names, lang))

    def encode(self, img: Image.Image, times: dict[str, float] | None = None) -> bytes:
        """PNG bytes of img; `times`, if given, gets the seconds of its "colours" and "png" steps added
        (wall, and CPU under "colours cpu" and "png cpu")."""
        if getattr(self._images, "palette_png", False) and img.mode == "RGB":
            # a board maps onto its layer's palette (render.kit.encode)
            return palette_png_of(img, self._images, times)
        started, started_cpu = time.perf_counter(), time.thread_time()
        data = to_png(img)
        if times is not None:
            add_times(times, "png", time.perf_counter() - started, time.thread_time() - started_cpu)
        return data

    def __repr__(self) -> str:
        return f"GameRenderer({self.name!r})"


def register(name: str, target: str) -> None:
    """Add a renderer by "module:attribute" (tests register small fixtures this way)."""
    _RENDERERS[name] = target
    get.cache_clear()


def unregister(name: str) -> None:
    _RENDERERS.pop(name, None)
    get.cache_clear()


def names() -> list[str]:
    return list(_RENDERERS)


@lru_cache(maxsize=None)
def get(name: str) -> GameRenderer:
    try:
        target = _RENDERERS[name]
    except KeyError:
        raise UnknownRenderer(name) from None
    return GameRenderer(name, load(target))
