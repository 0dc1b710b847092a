"""Text drawing with fallback: Latin and Japanese from the CJK font, emoji in colour.

A string is cut into runs: grapheme clusters that are emoji (including ZWJ sequences,
skin tones, variation selectors, flags and keycaps) are drawn from the colour emoji font
(drawn at the font's only bitmap size, scaled to the text size and cached); everything else goes
to the text font in one call per run, so plain text costs what Pillow costs. A character
neither font has is drawn as the text font's missing-glyph box — never an exception.
"""
from __future__ import annotations

import re
from functools import lru_cache

from PIL import Image, ImageDraw

from render.kit.fonts import coverage, emoji_font, font
from render.kit.linebreak import break_lines
from render.kit.legibility import note_text

ELLIPSIS = "…"

# One emoji cluster: a flag pair, a keycap, or a pictograph with modifiers and ZWJ joins.
_EMOJI_BASE = (
    "\U0001F000-\U0001FAFF"  # pictographs, emoticons, transport, symbols & pictographs ext.
    "\u2600-\u27BF"  # misc symbols and dingbats
    "\u2B00-\u2BFF\u2300-\u23FF\u2190-\u21FF\u2934\u2935\u3030\u303D\u3297\u3299\u00A9\u00AE\u203C\u2049\u2122\u2139"
)
# What may follow a pictograph inside one cluster: the emoji selector, a skin tone, or
# tag characters (subdivision flags such as England are 🏴 + tags + cancel tag).
_MODS = "\ufe0f\U0001F3FB-\U0001F3FF\U000E0020-\U000E007F"
_CLUSTER = re.compile(
    "[\U0001F1E6-\U0001F1FF]{2}"  # regional indicator pair = flag
    "|[0-9#*]\ufe0f?\u20e3"  # keycap
    f"|[{_EMOJI_BASE}][{_MODS}]*"
    f"(?:\u200d[{_EMOJI_BASE}][{_MODS}]*)*"
    "|[\U000E0020-\U000E007F]+"  # stray tags: kept together so they are not drawn as boxes
)
_CHECK_SIMPLE = re.compile(f"[{_EMOJI_BASE}\U0001F1E6-\U0001F1FF\u20e3]")


def _is_text_symbol(cluster: str, bold: bool) -> bool:
    """Symbols such as ✓ ★ → that the text font has, written without the emoji selector,
    are drawn as text (they read better in the sentence's colour)."""
    return len(cluster) == 1 and ord(cluster) in coverage(bold)


def segments(text: str, bold: bool = False) -> list[tuple[bool, str]]:
    """Split into (is_emoji, piece) runs."""
    if not _CHECK_SIMPLE.search(text):
        return [(False, text)] if text else []
    out: list[tuple[bool, str]] = []
    pos = 0
    for m in _CLUSTER.finditer(text):
        cluster = m.group(0)
        if _is_text_symbol(cluster, bold):
            continue
        if m.start() > pos:
            out.append((False, text[pos:m.start()]))
        out.append((True, cluster))
        pos = m.end()
    if pos < len(text):
        out.append((False, text[pos:]))
    merged: list[tuple[bool, str]] = []
    for is_emoji, piece in out:
        if merged and not is_emoji and not merged[-1][0]:
            merged[-1] = (False, merged[-1][1] + piece)
        else:
            merged.append((is_emoji, piece))
    return merged


# An emoji's box (the font's full cell, padding included) is EMOJI_EM x the text size
# tall: its ink is then about as tall as a capital or a kanji, and every emoji gets the
# same scale and advance whatever its shape (a flag is not blown up to a train's height).
EMOJI_EM = 1.05
# Centre of the ideographic em box above the baseline, in em: emoji are centred on it so
# they sit level with kanji and capitals instead of floating in the line's middle.
_IDEO_CENTRE = 0.38
_MISSING = "\u25a1"  # drawn (from the text font) when the emoji font lacks a cluster
_CONTROL = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
# UI symbols that neither bundled font has (Noto Sans CJK lacks the ballot X and ≒),
# swapped for a look-alike it does have instead of a missing-glyph box.
_LOOKALIKES = str.maketrans({"\u2717": "\u00d7", "\u2718": "\u00d7", "\u2715": "\u00d7",
                             "\u2613": "\u00d7", "\u2252": "\u2248", "\u279c": "\u2192"})


def _clean(text) -> str:
    """One printable line: look-alikes for a few missing symbols, newlines/controls as
    spaces (Pillow refuses to measure multi-line text with an anchor) and lone surrogates,
    which cannot be encoded, as U+FFFD. isprintable() is a fast C check that skips the
    regex for ordinary text."""
    text = str(text).translate(_LOOKALIKES)
    if text.isprintable():
        return text
    return _CONTROL.sub(lambda m: "\ufffd" if m.group(0) >= "\ud800" else " ", text)


@lru_cache(maxsize=1024)
def _emoji_image(cluster: str, size: int) -> Image.Image | None:
    """The emoji drawn in colour and scaled to the text size; None if the font lacks it."""
    efont = emoji_font()
    try:
        left, top, right, bottom = efont.getbbox(cluster)
    except (OSError, ValueError):
        return None
    if right <= left or bottom <= top:  # .notdef of a bitmap font: an empty box
        return None
    canvas = Image.new("RGBA", (right, bottom), (0, 0, 0, 0))
    ImageDraw.Draw(canvas).text((0, 0), cluster, font=efont, embedded_color=True)
    if canvas.getbbox() is None:
        return None
    height = max(1, round(size * EMOJI_EM))
    width = max(1, round(right * height / bottom))  # several glyphs if unsupported: wider
    return canvas.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4096)
def _run_width(piece: str, size: int, bold: bool) -> float:
    # Names and labels repeat on every render, so their widths are worth remembering.
    return font(size, bold).getlength(piece)


def _piece_width(is_emoji: bool, piece: str, size: int, bold: bool) -> float:
    if is_emoji:
        glyph = _emoji_image(piece, size)
        if glyph is not None:
            return glyph.width
        piece = _MISSING
    return _run_width(piece, size, bold)


def measure(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """(width, height) of the text as draw_text would draw it; height is the line height."""
    text = _clean(text)
    width = sum(_piece_width(is_emoji, piece, size, bold) for is_emoji, piece in segments(text, bold))
    ascent, descent = font(size, bold).getmetrics()
    return round(width), ascent + descent


def fit_size(text: str, max_width: int, start_size: int, min_size: int = 10, bold: bool = False) -> int:
    """The largest size ≤ start_size (and ≥ min_size) at which the text fits max_width."""
    size = start_size
    while size > min_size and measure(text, size, bold)[0] > max_width:
        size -= 1
    return size


def _clusters(text: str, bold: bool = False) -> list[str]:
    """Grapheme-ish clusters: emoji sequences whole, other characters one by one."""
    out: list[str] = []
    for is_emoji, piece in segments(text, bold):
        out.extend([piece] if is_emoji else list(piece))
    return out


def truncate(text: str, max_width: int, size: int, bold: bool = False) -> str:
    """The text, or its longest prefix (whole clusters) + "…" that fits max_width."""
    text = _clean(text)
    if measure(text, size, bold)[0] <= max_width:
        return text
    clusters = _clusters(text, bold)
    low, high = 0, len(clusters)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if measure("".join(clusters[:mid]).rstrip() + ELLIPSIS, size, bold)[0] <= max_width:
            low = mid
        else:
            high = mid - 1
    return "".join(clusters[:low]).rstrip() + ELLIPSIS


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
    stroke_width: int = 0,
    stroke_fill=None,
) -> tuple[int, int, int, int]:
    """Draw text at xy with a Pillow-style anchor (first letter l/m/r, second a/m/s/d:
    top of the line box / visual middle / baseline / bottom of the line box).

    Returns the bounding box (left, top, right, bottom) of the line.
    """
    text = _clean(text)
    if max_width is not None:
        text = truncate(text, max_width, size, bold)
    note_text(size, text)
    fnt = font(size, bold)
    width, height = measure(text, size, bold)
    ascent, descent = fnt.getmetrics()
    x, y = xy
    h_anchor, v_anchor = (anchor + "a")[:2] if len(anchor) >= 2 else (anchor, "a")
    if h_anchor == "m":
        x -= width / 2
    elif h_anchor == "r":
        x -= width
    # Work out the top of the line box from the vertical anchor.
    if v_anchor == "m":
        # The visual middle: kanji, capitals and emoji are centred on y (Pillow's "m", the
        # middle of ascender..descender, sits ~0.06 em high and text then looks low).
        top = y + _IDEO_CENTRE * size - ascent
    elif v_anchor == "s":
        top = y - ascent
    elif v_anchor == "d":
        top = y - ascent - descent
    else:
        top = y
    runs = segments(text, bold)
    draw = ImageDraw.Draw(img)
    baseline = top + ascent
    cursor = x
    for is_emoji, piece in runs:
        if is_emoji:
            glyph = _emoji_image(piece, size)
            if glyph is not None:
                gy = round(baseline - _IDEO_CENTRE * size - glyph.height / 2)
                _composite(img, glyph, round(cursor), gy)
                cursor += glyph.width
                continue
            piece = _MISSING  # the emoji font lacks it: a plain box keeps the layout honest
        draw.text((cursor, baseline), piece, font=fnt, fill=fill, anchor="ls",
                  stroke_width=stroke_width, stroke_fill=stroke_fill)
        cursor += _run_width(piece, size, bold)
    return (round(x), round(top), round(x + width), round(top + height))


def _composite(img: Image.Image, glyph: Image.Image, x: int, y: int) -> None:
    """Blend an RGBA glyph onto img at (x, y), even partly outside the image."""
    if img.mode != "RGBA":
        img.paste(glyph, (x, y), glyph)  # paste clips on its own
        return
    # alpha_composite keeps the canvas's own alpha right but refuses negative offsets.
    if x < 0 or y < 0:
        glyph = glyph.crop((max(0, -x), max(0, -y), glyph.width, glyph.height))
        x, y = max(0, x), max(0, y)
    if glyph.width and glyph.height and x < img.width and y < img.height:
        img.alpha_composite(glyph, (x, y))


def signed(points: int) -> str:
    """Points with a real minus sign (U+2212) when negative."""
    return f"\u2212{-points}" if points < 0 else str(points)


def wrap(text: str, size: int, width: int, lang: str, bold: bool = False) -> list[str]:
    """Break text into lines no wider than `width` (as drawn at `size`): at spaces in English;
    in Japanese between phrases, following the kinsoku rules of render.kit.linebreak."""
    return break_lines(text, lambda line: measure(line, size, bold)[0] <= width, lang)
