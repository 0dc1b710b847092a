"""Rebuild the bundled fonts in data/fonts from Debian's Noto packages.

Maintainers only; the bot itself never runs this.  Usage:

    apt-get install -y fonts-noto-cjk fonts-noto-color-emoji
    python -m render.kit.make_fonts /usr/share/fonts [--out data/fonts] [--emoji-ppem 72]

SRC_DIR is searched recursively for NotoSansCJK-{Regular,Bold}.ttc (Debian ships
collections; the upstream NotoSansCJKjp-*.otf files work too) and NotoColorEmoji.ttf.

What it does and why:
  * Noto Sans CJK JP is ~16 MB per weight.  We keep only what Japanese/Latin UI text
    and player names need (Latin, punctuation, symbols, kana, JIS X 0208 kanji), which
    brings each weight to a few MB.
  * Noto Color Emoji is ~11 MB of 136x128 PNG bitmaps in a single 109 ppem strike.
    We keep every glyph and the GSUB table (so ZWJ sequences, skin tones, flags and
    keycaps still form one glyph) but downscale the bitmaps to a smaller strike:
    emoji are drawn at text height (14-60 px) so 109 ppem was mostly wasted bytes.
    render.kit.fonts reads the strike size from the font, so it copes with either.
"""
from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "data" / "fonts"
CJK_FAMILY = "Noto Sans CJK JP"
CJK_OUT = {"Regular": "NotoSansCJKjp-Regular-subset.otf", "Bold": "NotoSansCJKjp-Bold-subset.otf"}
EMOJI_OUT = "NotoColorEmoji-subset.ttf"
EMOJI_COLOURS = 128  # palette size per emoji bitmap (FASTOCTREE is the RGBA-capable quantiser)

# Unicode blocks kept besides the JIS X 0208 repertoire (inclusive ranges).
CJK_RANGES = [
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x0100, 0x017F),  # Latin Extended-A
    (0x02B0, 0x02FF),  # spacing modifier letters (ˆ ˜ ˙ ...)
    (0x0300, 0x036F),  # combining diacritics (decomposed accented names)
    (0x0391, 0x03C9),  # Greek (also in JIS rows 6)
    (0x0401, 0x0451),  # Cyrillic (also in JIS rows 7)
    (0x2000, 0x206F),  # General Punctuation (– — ‘ ’ “ ” • … ‰)
    (0x20A0, 0x20CF),  # currency (€ ₩ ...)
    (0x2100, 0x214F),  # letterlike (№ ℃ ™)
    (0x2150, 0x218F),  # number forms (⅓ Ⅰ Ⅱ)
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # math operators (± − × ÷ are elsewhere/here)
    (0x2300, 0x23FF),  # misc technical (⌘ ⏎)
    (0x2460, 0x24FF),  # enclosed alphanumerics (① ②)
    (0x2500, 0x257F),  # box drawing
    (0x2580, 0x259F),  # block elements
    (0x25A0, 0x25FF),  # geometric shapes (● ▲ ■ □ ◆)
    (0x2600, 0x26FF),  # misc symbols (★ ☆ ♠ ♥)
    (0x2700, 0x27BF),  # dingbats (✓ ✗)
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3200, 0x32FF),  # enclosed CJK (㈱ ㊤)
    (0xFF00, 0xFFEF),  # half-width and full-width forms
    (0xFFFD, 0xFFFD),  # replacement character
]


def jis_x_0208_chars() -> set[int]:
    """Every character of JIS X 0208 (levels 1 and 2 kanji, kana, symbols).

    EUC-JP encodes JIS X 0208 as two bytes 0xA1-0xFE each, so decoding every such
    pair enumerates the whole set; undefined cells fail to decode and are skipped.
    """
    out: set[int] = set()
    for hi in range(0xA1, 0xFF):
        for lo in range(0xA1, 0xFF):
            try:
                ch = bytes((hi, lo)).decode("euc_jp")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.add(ord(ch))
    return out


def cjk_unicodes() -> set[int]:
    wanted = jis_x_0208_chars()
    for lo, hi in CJK_RANGES:
        wanted.update(range(lo, hi + 1))
    return wanted


def find_source(src_dir: Path, names: list[str]) -> Path:
    for name in names:
        hits = sorted(src_dir.rglob(name))
        if hits:
            return hits[0]
    raise SystemExit(f"none of {names} found under {src_dir}")


def load_cjk_face(path: Path) -> TTFont:
    """Return the JP face, whether the source is a .ttc collection or a single .otf."""
    if path.suffix.lower() == ".ttc":
        for face in TTCollection(str(path), recalcTimestamp=False).fonts:
            if face["name"].getDebugName(1) == CJK_FAMILY:
                return face
        raise SystemExit(f"{path} has no '{CJK_FAMILY}' face")
    return TTFont(str(path), recalcTimestamp=False)


def subset_cjk(src: Path, dst: Path) -> None:
    font = load_cjk_face(src)
    opts = subset.Options()
    opts.name_IDs = ["*"]          # keep copyright/licence/version strings (OFL asks for them)
    opts.name_languages = ["*"]
    opts.notdef_outline = True     # uncovered chars show a box instead of nothing
    opts.recalc_bounds = True
    opts.drop_tables += ["vhea", "vmtx", "VORG"]  # we never lay out vertical text
    # Only the features raqm applies to horizontal text by default.  The full set
    # (aalt, jp78, locl for SC/TC/KR, vert, ...) drags in ~8000 alternate glyphs and
    # doubles the file; hinting is kept because it sharpens 12-16 px text.
    opts.layout_features = ["ccmp", "kern", "mark", "mkmk", "liga", "calt"]
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=cjk_unicodes())
    sub.subset(font)
    font.save(str(dst))


def downscale_emoji(src: Path, dst: Path, ppem: int) -> None:
    """Copy the emoji font, shrinking its single CBDT strike to `ppem`.

    Every glyph and the GSUB table are kept as they are, so sequences still map to
    one glyph.  Bitmaps are resized (Pillow resizes RGBA premultiplied, so edges do
    not darken) and re-quantised to a palette PNG, like the originals.

    Measured on 300 random glyphs (bytes relative to the originals): LANCZOS/128
    colours 0.78, BICUBIC 0.67, BOX 0.61 -- LANCZOS ringing adds colours that
    compress badly, and BOX (area averaging) is a clean filter for a 1.5x shrink.
    No dithering: dither noise costs ~30% more and is invisible at text sizes.
    """
    font = TTFont(str(src), recalcTimestamp=False)
    strike = font["CBLC"].strikes[0].bitmapSizeTable
    scale = ppem / strike.ppemY
    for glyph in font["CBDT"].strikeData[0].values():
        m = glyph.metrics
        w, h = max(1, round(m.width * scale)), max(1, round(m.height * scale))
        img = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        img = img.resize((w, h), Image.Resampling.BOX)
        img = img.quantize(EMOJI_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        buf = io.BytesIO()
        img.save(buf, "PNG", optimize=True)
        glyph.imageData = buf.getvalue()
        m.width, m.height = w, h
        m.BearingX = round(m.BearingX * scale)
        m.BearingY = round(m.BearingY * scale)
        m.Advance = round(m.Advance * scale)
    strike.ppemX = strike.ppemY = ppem
    for line in (strike.hori, strike.vert):
        line.ascender = round(line.ascender * scale)
        line.descender = round(line.descender * scale)
        line.widthMax = round(line.widthMax * scale)
    font.save(str(dst))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src_dir", type=Path, help="directory holding the Noto fonts (searched recursively)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--emoji-ppem", type=int, default=72, help="strike size of the shrunk emoji font")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    for weight, out_name in CJK_OUT.items():
        src = find_source(args.src_dir, [f"NotoSansCJK-{weight}.ttc", f"NotoSansCJKjp-{weight}.otf"])
        subset_cjk(src, args.out / out_name)
        print(f"{out_name}: {(args.out / out_name).stat().st_size} bytes (from {src})")

    src = find_source(args.src_dir, ["NotoColorEmoji.ttf"])
    downscale_emoji(src, args.out / EMOJI_OUT, args.emoji_ppem)
    print(f"{EMOJI_OUT}: {(args.out / EMOJI_OUT).stat().st_size} bytes (from {src})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
