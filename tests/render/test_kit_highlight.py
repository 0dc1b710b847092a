"""The last-move halo: visible around what it marks, on light and dark maps, and nowhere else."""
from PIL import Image, ImageChops, ImageDraw

from render.kit.highlight import HALO_DARK, HALO_LIGHT, halo_line, halo_lines, halo_spot, thickness
from render.kit.palette import BACKGROUND, PLAYER_COLORS

DARK_MAP = (20, 24, 48)


def changed(before: Image.Image, after: Image.Image):
    return ImageChops.difference(before, after).getbbox()


def test_halo_is_thick_enough_to_read_at_400px():
    band, edge = thickness(1800)
    assert band >= 6 and edge >= 3
    # Shown 400 px wide, the whole halo on one side of the piece is still over 2 px.
    assert (band + edge) * 400 / 1800 >= 2


def test_halo_line_outlines_the_path_and_leaves_far_pixels_alone():
    for bg in (BACKGROUND, DARK_MAP):
        img = Image.new("RGB", (1800, 1000), bg)
        before = img.copy()
        halo_line(img, [(200, 500), (1000, 500)], 14)
        box = changed(before, img)
        assert box is not None
        band, edge = thickness(1800)
        reach = 7 + band + edge
        # Nothing beyond the halo's reach changed.
        assert box[0] >= 200 - reach - 1 and box[2] <= 1000 + reach + 1
        assert box[1] >= 500 - reach - 1 and box[3] <= 500 + reach + 1
        assert img.getpixel((1500, 100)) == bg
        # Across the path: white next to the piece, dark outside it.
        assert img.getpixel((600, 500 - 7 - band // 2)) == HALO_LIGHT
        assert img.getpixel((600, 500 - 7 - band - edge // 2)) == HALO_DARK


def test_piece_drawn_on_top_keeps_its_colour_and_the_halo_shows_around_it():
    img = Image.new("RGB", (1800, 1000), BACKGROUND)
    halo_line(img, [(200, 300), (900, 600)], 14)
    ImageDraw.Draw(img).line([(200, 300), (900, 600)], fill=PLAYER_COLORS[0], width=14)
    assert img.getpixel((550, 450)) == PLAYER_COLORS[0]
    light = sum(1 for p in img.get_flattened_data() if p == HALO_LIGHT)
    dark = sum(1 for p in img.get_flattened_data() if p == HALO_DARK)
    assert light > 2 * 700 * 5 and dark > 2 * 700 * 3


def test_halo_lines_keep_crossing_paths_one_outline():
    img = Image.new("RGB", (600, 600), BACKGROUND)
    halo_lines(img, [[(100, 300), (500, 300)], [(300, 100), (300, 500)]], 10)
    # At the crossing the white bands merge: no dark edge of one path cuts the other.
    band, _ = thickness(600)
    for dx in range(-(5 + band) + 1, 5 + band):
        assert img.getpixel((300 + dx, 300)) == HALO_LIGHT


def test_halo_spot_rings_outside_the_radius_only():
    for bg in (BACKGROUND, DARK_MAP):
        img = Image.new("RGB", (1200, 800), bg)
        before = img.copy()
        halo_spot(img, (600, 400), 60)
        assert img.getpixel((600, 400)) == bg  # the tile inside is not painted over
        assert img.getpixel((600 + 40, 400)) == bg
        band, edge = thickness(1200)
        ring = [img.getpixel((600 + 60 + d, 400)) for d in range(band + edge + 1)]
        assert HALO_LIGHT in ring and HALO_DARK in ring
        box = changed(before, img)
        reach = 60 + band + edge + 1
        assert box[0] >= 600 - reach and box[2] <= 600 + reach + 1
        assert img.getpixel((100, 100)) == bg


def test_halo_works_on_rgba_canvases():
    img = Image.new("RGBA", (400, 400), (0, 0, 0, 0))
    halo_line(img, [(50, 200), (350, 200)], 8)
    halo_spot(img, (200, 100), 30)
    assert img.getpixel((200, 200 - 4 - 2))[3] == 255
    assert img.getpixel((10, 390)) == (0, 0, 0, 0)
