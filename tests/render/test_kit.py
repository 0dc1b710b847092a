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


# --- fonts: the subsets hold what the brief promises -------------------------------------

def test_cjk_subset_covers_jis_x_0208_and_ui_symbols():
    from render.kit.make_fonts import jis_x_0208_chars

    jis = jis_x_0208_chars()
    assert len(jis) > 6800  # kana, symbols and both kanji levels were enumerated
    for bold in (False, True):
        missing = {chr(c) for c in jis - coverage(bold)}
        assert missing <= {"≒"}, missing  # Noto Sans CJK itself lacks U+2252
        assert all(ord(c) in coverage(bold) for c in "●▲■★✓±−×÷→①ｱＡ〒ー々")


def test_broken_font_file_names_its_path(tmp_path):
    (tmp_path / fonts.REGULAR).write_bytes(b"not a font at all")
    with pytest.raises(FontMissing) as err:
        fonts.font(20, False, tmp_path)
    assert str(tmp_path / fonts.REGULAR) in str(err.value)
    with pytest.raises(FontMissing):
        fonts.coverage(False, tmp_path)


# --- text ------------------------------------------------------------------------------

def _ink_rows(img, box):
    """(top, bottom) of non-background rows inside box."""
    sub = img.crop(box)
    inner = ink_box(sub)
    return inner[1] + box[1], inner[3] + box[1]


def test_kanji_differ_from_a_font_without_cjk():
    # Pillow's built-in font has no kanji: it draws four identical missing-glyph cells.
    # Ours must draw four different shapes, so the glyphs really come from the CJK font.
    from PIL import ImageDraw
    plain = canvas()
    ImageDraw.Draw(plain).text((10, 10), "山田太郎", font=ImageFont.load_default(40), fill=(0, 0, 0))
    ours = canvas()
    draw_text(ours, (10, 10), "山田太郎", 40, (0, 0, 0))
    plain_box, ours_box = ink_box(plain), ink_box(ours)
    step = (plain_box[2] - plain_box[0]) / 4
    cells = {plain.crop((round(plain_box[0] + i * step), 0, round(plain_box[0] + (i + 1) * step), 120)).tobytes()
             for i in range(4)}
    assert len(cells) == 1
    assert 120 <= ours_box[2] - ours_box[0] <= 170  # four ~40 px kanji
    assert ours.tobytes() != plain.tobytes()


def test_emoji_share_one_scale_and_sit_level_with_kanji():
    assert measure("🇯🇵", 30) == measure("🚂", 30) == measure("👍🏽", 30)
    img = canvas(400, 100)
    draw_text(img, (10, 10), "山🚂", 40, (0, 0, 0))
    kanji = _ink_rows(img, (10, 0, 50, 100))
    train = _ink_rows(img, (52, 0, 120, 100))
    assert abs((kanji[0] + kanji[1]) / 2 - (train[0] + train[1]) / 2) <= 4
    assert abs((kanji[1] - kanji[0]) - (train[1] - train[0])) <= 8  # about as tall


def test_subdivision_flag_is_one_coloured_cluster():
    england = "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"
    assert segments(f"a{england}b") == [(False, "a"), (True, england), (False, "b")]
    img = canvas()
    draw_text(img, (10, 10), england, 48, (0, 0, 0))
    reds = [p for p in img.get_flattened_data() if p[0] > 180 and p[1] < 90 and p[2] < 90]
    assert len(reds) > 30  # St George's cross, not a black flag and a missing-glyph box


def test_unknown_characters_never_crash_and_measure_matches_drawing():
    for text in ["한국어", "\U0001FAE9", "⚑", "line\nbreak\ttab\x00", "x\ud800y", "", "✗ ✓"]:
        img = canvas(600, 80)
        box = draw_text(img, (10, 10), text, 24, (0, 0, 0))
        assert box[2] - box[0] == measure(text, 24)[0]
        if text:
            assert ink_box(img) is not None
    assert measure("a\nb", 20) == measure("a b", 20)


def test_ballot_x_is_drawn_as_a_lookalike_not_a_box():
    a, b = canvas(), canvas()
    draw_text(a, (10, 10), "✗", 40, (0, 0, 0))
    draw_text(b, (10, 10), "□", 40, (0, 0, 0))
    assert a.tobytes() != b.tobytes()


def test_middle_anchor_centres_the_ink_on_y():
    img = canvas(300, 200)
    for text in ("山田", "HELLO", "🚂"):
        img.paste(BG, (0, 0, 300, 200))
        draw_text(img, (150, 100), text, 40, (0, 0, 0), anchor="mm")
        box = ink_box(img)
        assert abs((box[1] + box[3]) / 2 - 100) <= 3, (text, box)
        assert abs((box[0] + box[2]) / 2 - 150) <= 4, (text, box)


def test_drawing_on_rgba_and_off_the_edge():
    img = Image.new("RGBA", (200, 60), (0, 0, 0, 0))
    draw_text(img, (-30, -10), "🚂🚂 山 🚂", 40, (255, 0, 0, 255))
    draw_text(img, (180, 40), "🎉🎉🎉", 40, (255, 0, 0, 255))
    alpha = img.getchannel("A")
    assert alpha.getbbox() is not None
    assert alpha.getpixel((199, 59)) == 0 or alpha.getbbox()[2] <= 200  # clipped, not crashed
    assert img.getpixel((150, 5))[3] == 0  # untouched pixels stay transparent


def test_truncation_keeps_emoji_sequences_whole():
    cut = truncate("ab👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", 110, 30)
    body = cut[:-1]
    assert cut.endswith("…") and measure(cut, 30)[0] <= 110
    assert body.count("\u200d") == 3 * body.count("👦")  # no family was cut in half


# --- palette, shapes, chart, encoding -----------------------------------------------------

def test_palette_colours_are_distinct_and_text_is_readable():
    from render.kit import palette
    seats = [palette.player_color(i) for i in range(6)]
    assert len(set(seats)) == 6
    for rgb in seats:
        assert palette.contrast_ratio(rgb, palette.contrast_text(rgb)) >= 3.5, rgb
    assert palette.contrast_text((255, 255, 255)) != palette.contrast_text((0, 0, 0))


def test_rotated_rect_follows_the_angle():
    import math
    from render.kit.shapes import draw_rotated_rect
    img = canvas(200, 200)
    draw_rotated_rect(img, (100, 100), 80, 10, math.radians(90), (200, 0, 0))
    assert img.getpixel((100, 100)) == (200, 0, 0)
    assert img.getpixel((100, 135)) == (200, 0, 0)  # runs vertically ...
    assert img.getpixel((135, 100)) == BG  # ... not horizontally


def test_card_glyph_and_pill():
    from render.kit.shapes import card_glyph, pill
    img = canvas(300, 200)
    box = card_glyph(img, (50, 50), 60, 90, (30, 100, 210), label="blue", count=7)
    assert img.getpixel((55, 130)) == (30, 100, 210)
    from render.kit.palette import INK
    corner = img.crop((95, 35, 125, 65)).get_flattened_data()
    assert sum(p == INK for p in corner) > 100  # the badge straddles the top-right corner
    assert box == (50, 50, 110, 140)
    p = pill(img, (150, 10), "山田 🚂", 20, (0, 148, 80), anchor="ma")
    assert p[0] < 150 < p[2] and img.getpixel((p[0] + 4, (p[1] + p[3]) // 2)) == (0, 148, 80)


def test_score_chart_from_dicts_draws_losses_left_in_the_given_colour():
    from render.kit.chart import score_chart
    lost = (150, 0, 150)
    img = score_chart([{"name": "山田 🚂", "color": (0, 0, 200), "parts": {"routes": 20, "failed": -10}},
                       {"name": "Bob", "color": (200, 0, 0), "parts": {"routes": 5}}],
                      {"routes": "Routes", "failed": "Failed"}, (700, 300), title="Score",
                      category_colors={"failed": lost})
    xs_lost = [x for y in range(img.height) for x in range(img.width) if img.getpixel((x, y)) == lost]
    xs_gain = [x for y in range(img.height) for x in range(img.width) if img.getpixel((x, y)) == CATEGORY_COLORS[0]]
    legend_end = 200  # the legend swatches sit at the top left
    assert xs_gain and [x for x in xs_lost if x > legend_end]
    assert max(x for x in xs_lost if x > legend_end) < min(x for x in xs_gain if x > legend_end)


def test_palette_png_is_smaller_and_close(tmp_path):
    import io
    img = canvas(400, 200)
    draw_text(img, (5, 5), "鉄道 🚂 Railyard", 40, (0, 0, 0))
    lossless, small = to_png(img), to_png(img, palette=True)
    decoded = Image.open(io.BytesIO(small))
    assert decoded.mode == "P" and len(small) < len(lossless)
    diff = ImageChops_difference(decoded.convert("RGB"), img)
    assert max(diff.getextrema()[i][1] for i in range(3)) < 64


def test_layer_cache_image_returns_copies():
    cache = LayerCache()
    first = cache.image("k", lambda: canvas(10, 10))
    first.putpixel((0, 0), (0, 0, 0))
    assert cache.image("k", lambda: canvas(10, 10)).getpixel((0, 0)) == BG


def ImageChops_difference(a, b):
    from PIL import ImageChops
    return ImageChops.difference(a, b)
