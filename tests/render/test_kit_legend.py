"""Legend: symbols drawn by the caller, labels beside them, rows wrapped to a width."""
from PIL import Image, ImageChops

from render.kit.legend import draw_legend, legend_height
from render.kit.legibility import recording_text_sizes

BG = (250, 248, 242)
MARK = (200, 30, 30)


def square(draw, box):
    draw.rectangle(box, fill=MARK)


def marks(img):
    return [(x, y) for y in range(img.height) for x in range(img.width) if img.getpixel((x, y)) == MARK]


def test_items_flow_in_one_row_when_they_fit_and_wrap_when_not():
    items = [(square, "Station"), (square, "Frame"), (square, "駅のネットワーク")]
    wide = Image.new("RGB", (1200, 200), BG)
    h_wide = draw_legend(wide, (10, 10), items, 22)
    narrow = Image.new("RGB", (1200, 200), BG)
    h_narrow = draw_legend(narrow, (10, 10), items, 22, max_width=260)
    assert h_narrow > h_wide == legend_height(items, 22)
    assert h_narrow == legend_height(items, 22, 260)
    assert len({y for _, y in marks(wide)}) < len({y for _, y in marks(narrow)})  # symbols on more rows
    ink = ImageChops.difference(narrow, Image.new("RGB", narrow.size, BG)).getbbox()
    assert ink[2] <= 10 + 260 and ink[3] <= 10 + h_narrow  # within the width and the height returned


def test_labels_are_drawn_at_the_size_asked_and_long_ones_shortened():
    img = Image.new("RGB", (400, 100), BG)
    with recording_text_sizes() as sizes:
        draw_legend(img, (0, 0), [(square, "a very long label " * 5)], 20, max_width=300)
    (size, text), = sizes.drawn
    assert size == 20 and text.endswith("…")
    assert draw_legend(img, (0, 0), [], 20) == 0
