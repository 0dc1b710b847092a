"""Text drawing with fallback: Latin and Japanese from the CJK font, emoji in colour.

A string is cut into runs: grapheme clusters that are emoji (including ZWJ sequences,
skin tones, variation selectors, flags and keycaps) are drawn from the colour emoji font
(rendered at its native size, scaled to the text size and cached); everything else goes
to the text font in one call per run, so plain text costs what Pillow costs. A character
neither font has is drawn as the text font's missing-glyph box — never an exception.
"""
from __future__ import annotations

import re
from functools import lru_cache

from PIL import Image, ImageDraw

from render.kit.fonts import coverage, emoji_font, emoji_strike, font

ELLIPSIS = "…"
_ZWJ, _VS16, _KEYCAP = "\u200d", "\ufe0f", "\u20e3"

# One emoji cluster: a flag pair, a keycap, or a pictograph with modifiers and ZWJ joins.
_EMOJI_BASE = (
    "\U0001F000-\U0001FAFF"  # pictographs, emoticons, transport, symbols & pictographs ext.
    "\u2600-\u27BF"  # misc symbols and dingbats
    "\u2B00-\u2BFF\u2300-\u23FF\u2190-\u21FF\u2934\u2935\u3030\u303D\u3297\u3299\u00A9\u00AE\u203C\u2049\u2122\u2139"
)
_CLUSTER = re.compile(
    "[\U0001F1E6-\U0001F1FF]{2}"  # regional indicator pair = flag
    "|[0-9#*]\ufe0f?\u20e3"  # keycap
    f"|[{_EMOJI_BASE}][\ufe0f\U0001F3FB-\U0001F3FF]*"
    f"(?:\u200d[{_EMOJI_BASE}][\ufe0f\U0001F3FB-\U0001F3FF]*)*"
    "|[\U000E0020-\U000E007F]+"  # tag sequences' tails (subdivision flags) stay attached
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


def _emoji_width(size: int) -> int:
    return round(size * 1.15)


@lru_cache(maxsize=512)
def _emoji_image(cluster: str, size: int) -> Image.Image | None:
    """The emoji drawn in colour, scaled to `size`; None if the emoji font lacks it."""
    efont = emoji_font()
    native = emoji_strike()
    canvas = Image.new("RGBA", (native * 3, native * 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    try:
        draw.text((0, 0), cluster, font=efont, embedded_color=True)
    except (OSError, ValueError):
        return None
    box = canvas.getbbox()
    if box is None:
        return None
    glyph = canvas.crop((0, 0, max(box[2], native), max(box[3], native)))
    if glyph.width > native * 1.6:  # the font drew a sequence as several glyphs
        glyph = canvas.crop(box)
    scale = size / max(glyph.height, 1)
    return glyph.resize((max(1, round(glyph.width * scale)), size), Image.LANCZOS)


def _run_width(piece: str, size: int, bold: bool) -> float:
    return font(size, bold).getlength(piece)


def measure(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """(width, height) of the text as draw_text would draw it; height is the line height."""
    width = 0.0
    for is_emoji, piece in segments(text, bold):
        if is_emoji:
            img = _emoji_image(piece, size)
            width += img.width if img is not None else _emoji_width(size)
        else:
            width += _run_width(piece, size, bold)
    ascent, descent = font(size, bold).getmetrics()
    return round(width), ascent + descent


def fit_size(text: str, max_width: int, start_size: int, min_size: int = 10, bold: bool = False) -> int:
    """The largest size ≤ start_size (and ≥ min_size) at which the text fits max_width."""
    size = start_size
    while size > min_size and measure(text, size, bold)[0] > max_width:
        size -= 1
    return size


def _clusters(text: str) -> list[str]:
    """Grapheme-ish clusters: emoji sequences whole, other characters one by one."""
    out: list[str] = []
    for is_emoji, piece in segments(text):
        out.extend([piece] if is_emoji else list(piece))
    return out


def truncate(text: str, max_width: int, size: int, bold: bool = False) -> str:
    if measure(text, size, bold)[0] <= max_width:
        return text
    clusters = _clusters(text)
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
    """Draw text at xy with a Pillow-style anchor (first letter l/m/r, second a/m/s/d).

    Returns the bounding box (left, top, right, bottom) of the line.
    """
    text = str(text)
    if max_width is not None:
        text = truncate(text, max_width, size, bold)
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
        top = y - (ascent + descent) / 2
    elif v_anchor == "s":
        top = y - ascent
    elif v_anchor == "d":
        top = y - ascent - descent
    else:
        top = y
    runs = segments(text, bold)
    draw = ImageDraw.Draw(img)
    cursor = x
    for is_emoji, piece in runs:
        if is_emoji:
            glyph = _emoji_image(piece, size)
            if glyph is not None:
                gy = round(top + (ascent + descent - glyph.height) / 2)
                if img.mode == "RGBA":
                    img.alpha_composite(glyph, (round(cursor), gy))
                else:
                    img.paste(glyph, (round(cursor), gy), glyph)
                cursor += glyph.width
                continue
            piece = "\u25a1"  # the emoji font lacks it: a plain box keeps the layout honest
        draw.text((cursor, top + ascent), piece, font=fnt, fill=fill, anchor="ls",
                  stroke_width=stroke_width, stroke_fill=stroke_fill)
        cursor += fnt.getlength(piece)
    return (round(x), round(top), round(x + width), round(top + height))
