"""The palette built once per board (render.kit.encode.BoardPalette): boards of real games map
onto their static layer's palette, keep every colour that carries meaning exactly, come out
at least as close to the drawn image as a fresh octree per image did, and learn what a later
board shows that the palette lacks."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw

from games import registry as games
from render import registry as renderers
from render.kit import encode
from render.kit.encode import BOARD_PALETTE, BoardPalette, few_colours, quantize_keeping
from tests.support.bot_games import bot_states

GAMES = ["ticket_to_ride", "ginga", "santa_fe", "steam", "catan_express"]
NAMES = ["Alice", "山田太郎", "Zoë", "Bob", "Carol", "Dan"]


@pytest.fixture(scope="module")
def played() -> dict[str, list]:
    """A whole game of each, random bots, the most players (so every seat colour shows)."""
    out = {}
    for name in GAMES:
        game = games.get(name)
        out[name] = bot_states(game, game.max_players, 5, "random")
    return out


def late_board(name: str, played) -> tuple[Image.Image, int]:
    states = played[name]
    game = games.get(name)
    view = game.view(states[len(states) * 3 // 4], None)
    return renderers.get(name).board_image(view, NAMES[:game.max_players], "en"), game.max_players


def worst_channel(a: Image.Image, b: Image.Image) -> Image.Image:
    r, g, b_ = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b_)


def where(img: Image.Image, colour) -> Image.Image:
    """"L" mask: 255 where img is exactly `colour`."""
    return worst_channel(img, Image.new("RGB", img.size, colour)).point([255] + [0] * 255)


def decoded(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P"
    return img.convert("RGB")


def mean_error(a: Image.Image, b: Image.Image) -> float:
    h = worst_channel(a, b).histogram()
    return sum(i * n for i, n in enumerate(h)) / sum(h)


@pytest.mark.parametrize("name", GAMES)
def test_meaning_colours_come_through_exactly(name, played):
    img, players = late_board(name, played)
    images = renderers.get(name)._images
    assert isinstance(img.info.get(BOARD_PALETTE), BoardPalette)
    out = decoded(encode.to_png(few_colours(img, images)))
    seats = list(images.palette.players[:players])
    meaning = list(dict.fromkeys([*seats, *images.keep_colours, *images.palette.surfaces.values()]))
    shown = 0
    for i, colour in enumerate(meaning):
        mask = where(img, colour)
        if not mask.getbbox():
            continue  # not on this board
        shown += colour in seats
        # Every pixel drawn in the colour is that colour in the PNG; of two meaning colours a
        # level or two apart (Pillow finds colours by 4-level cells), the later one may show
        # as the earlier one. A seat's colour is never that later one.
        twin = any(max(abs(a - b) for a, b in zip(colour, other)) <= encode.SAME_CELL
                   for other in meaning[:i])
        assert ImageChops.darker(worst_channel(img, out), mask).getextrema()[1] <= (encode.SAME_CELL if twin else 0), \
            (name, colour)
        assert not (twin and colour in seats)
    assert shown == players  # every seat's colour is on the board, exactly


@pytest.mark.parametrize("name", GAMES)
def test_boards_are_closer_to_the_drawing_than_an_octree_per_image(name, played):
    game = games.get(name)
    renderer = renderers.get(name)
    images = renderer._images
    states = played[name]
    for state in states[::max(1, len(states) // 6)]:
        img = renderer.board_image(game.view(state, None), NAMES[:game.max_players], "en")
        mapped = few_colours(img, images)
        if images.keep_colours:
            octree = quantize_keeping(img, images.keep_colours)
        else:
            octree = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        assert mean_error(img, mapped) <= mean_error(img, octree) + 0.05
        assert worst_channel(img, mapped).getextrema()[1] < 96  # nothing comes out as another colour


def test_a_palette_settles_and_then_maps_with_no_octree(played, monkeypatch):
    game = games.get("ticket_to_ride")
    renderer = renderers.get("ticket_to_ride")
    images = renderer._images
    boards = [renderer.board_image(game.view(s, None), NAMES[:5], "ja") for s in played["ticket_to_ride"][:120:4]]
    assert len({id(img.info[BOARD_PALETTE]) for img in boards}) == 1  # one static layer: one palette
    palette = BoardPalette()  # a fresh one: what other tests drew must not count
    for img in boards:
        img.info[BOARD_PALETTE] = palette
    octrees: list[int] = []
    quantize = Image.Image.quantize

    def counting(self, colors=256, method=None, kmeans=0, palette=None, dither=Image.Dither.FLOYDSTEINBERG):
        if palette is None:
            octrees.append(colors)
        return quantize(self, colors, method, kmeans, palette, dither)

    monkeypatch.setattr(Image.Image, "quantize", counting)
    passes = []
    for _ in range(4):  # the same boards again and again: what a palette lacks, it learns once
        octrees.clear()
        learned = palette.learned
        for img in boards:
            png = encode.to_png(few_colours(img, images))
            assert encode.to_png(few_colours(img, images)) == png  # the same board twice: one way
        passes.append((len(octrees), palette.learned - learned))
        if passes[-1] == (0, 0):
            break
    # the early game shows something new on most boards (each card colour, each seat's first
    # route): put in without an octree but for the first board (and a drift or two)
    assert 1 <= passes[0][0] <= 3 and passes[0][1] >= 3, passes
    assert passes[-1] == (0, 0) and len(passes) <= 3, passes


def test_a_colour_a_later_board_brings_is_learned(played):
    renderer = renderers.get("steam")
    images = renderer._images
    img, _ = late_board("steam", played)
    palette = img.info[BOARD_PALETTE]
    few_colours(img, images)
    builds, learned = palette.builds, palette.learned
    new = (255, 0, 255)  # on no Steam picture
    later = img.copy()
    later.info[BOARD_PALETTE] = palette
    ImageDraw.Draw(later).rectangle((40, 40, 240, 100), fill=new)
    out = decoded(encode.to_png(few_colours(later, images)))
    assert out.getpixel((140, 70)) == new  # the board that brought it shows it exactly
    assert new in palette.kept and palette.learned == learned + 1
    assert palette.builds == builds  # put in without an octree
    few_colours(later, images)
    assert palette.learned == learned + 1 and palette.builds == builds  # learned once


def test_a_meaning_colour_keeps_its_place_beside_a_near_colour():
    # Pillow finds a pixel's palette colour through a cache of 4-level cells, by the colour
    # nearest the cell's corner: a big area of a colour five levels off, nearer that corner,
    # would otherwise take the meaning colour's cell, and the meaning colour would vanish.
    near, meant = (98, 98, 98), (103, 103, 103)
    img = Image.new("RGB", (400, 300), near)
    ImageDraw.Draw(img).rectangle((10, 10, 60, 60), fill=meant)
    ImageDraw.Draw(img).rectangle((100, 100, 300, 200), fill=(20, 120, 220))
    out = BoardPalette().apply(img, [meant]).convert("RGB")
    assert out.getpixel((30, 30)) == meant
    assert worst_channel(img, out).getextrema()[1] <= 5


def test_off_colours_counted_one_by_one_are_those_the_whole_sample_counts(monkeypatch, played):
    """_flat_colours counts a few off pixels one by one and many over the whole sample: the same
    colours in the same order either way, the marker colour the whole count uses included."""
    seen = Image.new("RGB", (100, 60), (200, 190, 180))
    worst = Image.new("L", seen.size, 0)
    # off pixels per colour: 20, 12 (the whole count's marker), 12, 9 and 5 (too few to count)
    counts = [((250, 0, 0), 20), ((1, 2, 3), 12), ((10, 20, 30), 12), ((0, 0, 250), 9), ((9, 9, 9), 5)]
    for row, (colour, n) in enumerate(counts):
        ImageDraw.Draw(seen).line((0, row * 5, 99, row * 5), fill=colour)
        ImageDraw.Draw(worst).line((0, row * 5, n - 1, row * 5), fill=40)
    ImageDraw.Draw(worst).line((0, 50, 99, 50), fill=8)  # not off: FLAT_ERROR itself
    assert encode._flat_colours(seen, worst) == [(250, 0, 0), (10, 20, 30), (1, 2, 3), (0, 0, 250)]
    boards = [(seen, worst)]
    for name in ("santa_fe", "steam"):
        img, _ = late_board(name, played)
        seen_b, worst_b, _ = encode._check(img, few_colours(img, renderers.get(name)._images))
        boards.append((seen_b, worst_b))
    for seen_i, worst_i in boards:
        few = encode._flat_colours(seen_i, worst_i)
        monkeypatch.setattr(encode, "FEW_OFF", -1)
        whole = encode._flat_colours(seen_i, worst_i)
        monkeypatch.undo()
        assert few == whole
