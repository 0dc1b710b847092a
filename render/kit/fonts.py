"""The bundled fonts (data/fonts): a CJK-capable sans for text, a colour font for emoji.

Both are OFL-licensed Noto subsets (see data/fonts/README.md). Loading is cached; a missing
or broken file raises FontMissing naming the path, instead of Pillow's bare OSError.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parents[2] / "data" / "fonts"
REGULAR = "NotoSansCJKjp-Regular-subset.otf"
BOLD = "NotoSansCJKjp-Bold-subset.otf"
EMOJI = "NotoColorEmoji-subset.ttf"


class FontMissing(RuntimeError):
    pass


def _path(name: str, directory: Path | None = None) -> Path:
    return (directory or FONT_DIR) / name


MASKS_KEPT = 1024  # per font (a size and weight): a board's labels, numbers and names, several times over


class KeptMasks(ImageFont.FreeTypeFont):
    """A text font that keeps the glyph masks it renders. A board draws the same names, labels
    and numbers at the same places move after move, and rendering them (FreeType) was the
    largest part of drawing its panels; a mask kept is the very bitmap FreeType gave for the
    same text, size, stroke, anchor and sub-pixel start, so the pixels drawn are the same."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: OrderedDict[tuple, tuple[Any, tuple[int, int]]] = OrderedDict()
        self._lock = threading.Lock()  # boards are drawn in threads too (render/pool.py)

    def getmask2(self, text: Any, mode: str = "", direction: str | None = None, features: list[str] | None = None,
                 language: str | None = None, stroke_width: float = 0, anchor: str | None = None, ink: int = 0,
                 start: tuple[float, float] | None = None, *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        if mode == "RGBA" or args:  # colour glyphs are painted in place by the caller: never shared
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    *args, **kwargs)
        key = (text, mode, direction, tuple(features or ()), language, stroke_width, anchor, ink, start,
               tuple(sorted(kwargs.items())))
        with self._lock:
            found = self._masks.get(key)
            if found is not None:
                self._masks.move_to_end(key)
                return found
        found = super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                 **kwargs)
        with self._lock:
            self._masks[key] = found
            if len(self._masks) > MASKS_KEPT:
                self._masks.popitem(last=False)
        return found


def _open(path: Path, size: int, keep_masks: bool = False) -> ImageFont.FreeTypeFont:
    try:
        if keep_masks:
            return KeptMasks(str(path), size)
        return ImageFont.truetype(str(path), size)
    except OSError as exc:
        raise FontMissing(f"font file {path} is missing or unreadable ({exc}); "
                          "see data/fonts/README.md to rebuild it") from exc


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False, directory: Path | None = None) -> ImageFont.FreeTypeFont:
    return _open(_path(BOLD if bold else REGULAR, directory), size, keep_masks=True)


@lru_cache(maxsize=2)
def emoji_strike(directory: Path | None = None) -> int:
    """The pixel size of the emoji font's bitmap strike: a colour bitmap font can only be
    opened at that size (the bundled one is shrunk to 72 px; Noto's original is 109)."""
    from fontTools.ttLib import TTFont

    path = _path(EMOJI, directory)
    try:
        with TTFont(str(path), lazy=True) as tt:
            return int(tt["CBLC"].strikes[0].bitmapSizeTable.ppemY)
    except Exception as exc:  # noqa: BLE001
        raise FontMissing(f"font file {path} is missing or unreadable ({exc})") from exc


@lru_cache(maxsize=2)
def emoji_font(directory: Path | None = None) -> ImageFont.FreeTypeFont:
    return _open(_path(EMOJI, directory), emoji_strike(directory))


@lru_cache(maxsize=4)
def coverage(bold: bool = False, directory: Path | None = None) -> frozenset[int]:
    """Code points the text font can draw (read once from its cmap)."""
    from fontTools.ttLib import TTFont

    path = _path(BOLD if bold else REGULAR, directory)
    try:
        with TTFont(str(path), lazy=True) as tt:
            return frozenset(tt.getBestCmap())
    except Exception as exc:  # noqa: BLE001 - any parse failure means the file is unusable
        raise FontMissing(f"font file {path} is missing or unreadable ({exc})") from exc
