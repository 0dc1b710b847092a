"""What a game's marks ask of the kit's pick pictures (render.kit.picking) beyond a spot and a
line: a note beside the number, a line traced round what it must not hide, dark badges on a
board of white discs, and one numbering (reading order) for every image that numbers a step."""
from __future__ import annotations

from PIL import Image, ImageDraw

from render.kit import picking
from render.kit.legibility import recording_text_sizes
from render.kit.picking import INK, PAPER, Mark

RED = (200, 30, 30)
LAND = (230, 220, 190)


def _board() -> Image.Image:
    """A plain board with one red bar (the thing a traced line must keep in sight)."""
    img = Image.new("RGB", (600, 400), LAND)
    ImageDraw.Draw(img).rectangle((100, 195, 500, 205), fill=RED)
    return img


def test_a_line_that_keeps_what_is_under_it_is_a_casing_round_it():
    line = ((100.0, 200.0), (500.0, 200.0))
    solid = picking.pick_picture(_board(), [Mark((300, 200), line=line), Mark((300, 300))], [1, 2], margin=40)
    kept = picking.pick_picture(_board(), [Mark((300, 200), line=line, keep=12), Mark((300, 300))], [1, 2],
                                margin=40)
    scale = kept.image.width / (kept.box[2] - kept.box[0])

    def at(x: float, y: float) -> tuple[int, int]:
        return round((x - kept.box[0]) * scale), round((y - kept.box[1]) * scale)

    assert solid.image.getpixel(at(200, 200)) == PAPER  # a solid line covers the bar
    assert kept.image.getpixel(at(200, 200)) == RED  # a casing leaves it in sight
    above = [kept.image.getpixel(at(200, 200 - d)) for d in range(5, 40)]
    assert PAPER in above and INK in above  # white and near-black round it


def test_a_note_sits_beside_its_badge_legibly():
    marks = [Mark((200, 200), note="$2"), Mark((400, 200))]
    with recording_text_sizes() as sizes:
        pic = picking.pick_picture(_board(), marks, [1, 2], margin=40)
    drawn = dict((text, size) for size, text in sizes.drawn)
    assert "$2" in drawn and drawn["$2"] * 400 / pic.image.width >= picking.NOTE_AT_400
    assert "$2" not in {str(b.number) for b in pic.badges}


def test_dark_badges_are_near_black_with_white_digits():
    marks = [Mark((200, 200)), Mark((400, 200))]
    light = picking.pick_picture(_board(), marks, [1, 2], margin=40)
    dark = picking.pick_picture(_board(), marks, [1, 2], margin=40, dark=True)
    for pic, face in ((light, PAPER), (dark, INK)):
        b = pic.badges[0]
        r = picking.badge_size(pic.image.width)[0] / 2
        # inside the badge, beside its digit
        assert pic.image.getpixel((round(b.centre[0] - r * 0.55), round(b.centre[1]))) == face


def test_numbered_regions_run_in_reading_order():
    # three rows, each read left to right, given in scrambled order
    spots = [(500, 300), (100, 100), (300, 300), (300, 100), (100, 300), (500, 100)]
    regions = picking.numbered([Mark(s) for s in spots], floor=2000, margin=20)
    assert regions == [[1, 3, 5, 4, 2, 0]]
    assert picking.reading_order(spots) == [1, 3, 5, 4, 2, 0]


def test_a_pick_pictures_alt_text_names_its_numbers():
    from render.pick import alt_text

    assert "2" in alt_text("en", [2, 7, 5]) and "7" in alt_text("en", [2, 7, 5])
    assert "7" in alt_text("ja", [2, 7, 5])


def test_dark_badges_come_with_dark_lines():
    line = ((100.0, 200.0), (500.0, 200.0))
    marks = [Mark((300, 200), line=line), Mark((300, 300))]
    for dark, core in ((False, PAPER), (True, INK)):
        pic = picking.pick_picture(_board(), marks, [1, 2], margin=40, dark=dark)
        scale = pic.image.width / (pic.box[2] - pic.box[0])
        assert pic.image.getpixel((round((150 - pic.box[0]) * scale), round((200 - pic.box[1]) * scale))) == core
