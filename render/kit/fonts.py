"""The bundled fonts (data/fonts): a CJK-capable sans for text, a colour font for emoji.

Both are OFL-licensed Noto subsets (see data/fonts/README.md). Loading is cached; a missing
or broken file raises FontMissing naming the path, instead of Pillow's bare OSError.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parents[2] / "data" / "fonts"
REGULAR = "NotoSansCJKjp-Regular-subset.otf"
BOLD = "NotoSansCJKjp-Bold-subset.otf"
EMOJI = "NotoColorEmoji-subset.ttf"


class FontMissing(RuntimeError):
    pass


def _path(name: str, directory: Path | None = None) -> Path:
    return (directory or FONT_DIR) / name


def _open(path: Path, size: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(str(path), size)
    except OSError as exc:
        raise FontMissing(f"font file {path} is missing or unreadable ({exc}); "
                          "see data/fonts/README.md to rebuild it") from exc


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False, directory: Path | None = None) -> ImageFont.FreeTypeFont:
    return _open(_path(BOLD if bold else REGULAR, directory), size)


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
