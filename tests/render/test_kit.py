"""The shared drawing kit: real fonts, real images."""
import colorsys
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from render.kit import fonts
from render.kit.chart import CATEGORY_COLORS, stacked_bar_chart
from render.kit.encode import LayerCache, to_png
from render.kit.fonts import FONT_DIR, FontMissing, coverage
from render.kit.text import draw_text, fit_size, measure, segments, truncate

BG = (255, 255, 255)


def canvas(w=600, h=120):
    return Image.new("RGB", (w, h), BG)


def ink_box(img):
    diff = Image.new("RGB", img.size, BG)
    from PIL import ImageChops
    return ImageChops.difference(img, diff).getbbox()


def test_every_font_file_opens_and_covers_japanese_and_latin():
    files = sorted(FONT_DIR.glob("*.otf")) + sorted(FONT_DIR.glob("*.ttf"))
    assert len(files) == 3
    for bold in (False, True):
        cmap = coverage(bold)
        assert all(ord(c) in cmap for c in "あア漢字鉄道Aé…–")
    assert fonts.emoji_font().size == fonts.emoji_strike()
    assert (FONT_DIR / "LICENSE-OFL.txt").read_text(encoding="utf-8").count("Open Font License") >= 1


def test_japanese_is_drawn_with_real_glyphs_not_boxes():
    real, boxes = canvas(), canvas()
    draw_text(real, (10, 10), "山田太郎", 40, (0, 0, 0))
    draw_text(boxes, (10, 10), "\uffff\uffff\uffff\uffff", 40, (0, 0, 0))  # not in any font
    assert ink_box(real) is not None
    assert real.tobytes() != boxes.tobytes()
    # The four kanji are distinct shapes: their ink differs cell by cell.
    cells = [real.crop((10 + i * 40, 10, 50 + i * 40, 60)).tobytes() for i in range(4)]
    assert len(set(cells)) == 4


def test_emoji_is_drawn_in_colour():
    img = canvas()
    draw_text(img, (10, 10), "🚂", 48, (0, 0, 0))
    box = ink_box(img)
    assert box is not None
    saturated = 0
    for r, g, b in img.crop(box).get_flattened_data():
        _, s, v = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)
        saturated += s > 0.5 and v > 0.3
    assert saturated > 50


def test_emoji_sequences_stay_one_cluster():
    runs = segments("a👨‍👩‍👧b🇯🇵c👍🏽")
    assert runs == [(False, "a"), (True, "👨\u200d👩\u200d👧"), (False, "b"), (True, "🇯🇵"), (False, "c"), (True, "👍🏽")]
    # A flag is one glyph, narrower than two regional-indicator letters side by side.
    assert measure("🇯🇵", 40)[0] < 2 * measure("🇯", 40)[0]


def test_text_symbols_the_font_has_stay_text():
    assert segments("✓ done") == [(False, "✓ done")]


def test_truncation_fits_and_ends_with_an_ellipsis():
    name = "とても長い名前のプレイヤー🚂🚂🚂 with a long tail"
    cut = truncate(name, 200, 30)
    assert cut.endswith("…") and measure(cut, 30)[0] <= 200
    img = canvas(400)
    box = draw_text(img, (0, 10), name, 30, (0, 0, 0), max_width=200)
    assert box[2] - box[0] <= 200
    assert truncate("short", 200, 30) == "short"


def test_anchors_place_text_left_middle_right():
    boxes = {}
    for anchor in ("la", "ma", "ra"):
        img = canvas()
        draw_text(img, (300, 20), "Railyard", 30, (0, 0, 0), anchor=anchor)
        boxes[anchor] = ink_box(img)
    assert boxes["la"][0] >= 299 and boxes["ra"][2] <= 301
    assert boxes["la"][0] > boxes["ma"][0] > boxes["ra"][0]


def test_fit_size_shrinks_until_it_fits():
    size = fit_size("Sault St. Marie – Oklahoma City", 200, 40, min_size=8)
    assert size < 40 and measure("Sault St. Marie – Oklahoma City", size)[0] <= 200
    assert fit_size("A", 200, 40) == 40


def test_missing_font_directory_names_the_path(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(FontMissing) as err:
        fonts.font(20, False, missing)
    assert str(missing) in str(err.value)


def test_chart_puts_losses_left_of_zero_and_gains_right():
    img = stacked_bar_chart([("Alice", [30, 0, -12, 10], (200, 0, 0))], ["a", "b", "c", "d"], (800, 300))
    rows = [y for y in range(img.height) if img.getpixel((img.width // 2, y)) == CATEGORY_COLORS[0]]
    assert rows, "the positive bar is drawn"
    y = rows[len(rows) // 2]
    xs_fail = [x for x in range(img.width) if img.getpixel((x, y)) == CATEGORY_COLORS[2]]
    xs_gain = [x for x in range(img.width) if img.getpixel((x, y)) == CATEGORY_COLORS[0]]
    assert xs_fail and xs_gain and max(xs_fail) < min(xs_gain)
    xs_long = [x for x in range(img.width) if img.getpixel((x, y)) == CATEGORY_COLORS[3]]
    assert min(xs_long) > max(xs_gain)  # stacked after the routes segment


def test_png_encoding_round_trips_and_layer_cache_builds_once():
    img = canvas()
    draw_text(img, (5, 5), "鉄道 🚂", 30, (0, 0, 0))
    data = to_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert Image.open(__import__("io").BytesIO(data)).convert("RGB").tobytes() == img.tobytes()
    builds = []
    cache = LayerCache(maxsize=2)
    for key in ("a", "a", "b", "a", "c", "b"):
        cache.get(key, lambda k=key: builds.append(k) or canvas())
    assert builds == ["a", "b", "c", "b"] and len(cache) == 2
