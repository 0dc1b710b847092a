"""One meaning per shape on every board: each game's declared symbols (render.kit.symbols) give
no shape two meanings for as many seats as the game seats, and the boards draw the seats' shapes
from those declarations."""
from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image, ImageDraw

from games import registry as games
from render import registry as renderers
from render.kit.chart import MARKERS, SHAPES, draw_marker
from render.kit.legibility import recording_text_sizes
from render.kit.symbols import GLYPHS, Symbols, glyph


def test_a_shape_with_two_meanings_is_caught():
    # Steam's former board: the kit's seat shapes beside the goods' shapes
    goods = {"red": "square", "blue": "circle", "yellow": "triangle", "purple": "diamond", "gray": "hexagon"}
    clashes = Symbols(seats=MARKERS, marks={"goods": goods}).clashes(players=5)
    assert "'square': seat 2, goods red" in clashes and "'diamond': seat 4, goods purple" in clashes
    assert len(clashes) == 4  # circle, square, triangle, diamond; the fifth seat (▼) is alone
    # and Catan Express's former Fastest Driver, a diamond like the fourth seat
    assert Symbols(seats=MARKERS, marks={"award": {"Fastest Driver": "diamond"}}).clashes() == [
        "'diamond': seat 4, award Fastest Driver"]
    assert Symbols(seats=("blob",)).clashes() == ["'blob': not a shape the kit knows"]


@pytest.mark.parametrize("name", renderers.names())
def test_every_board_gives_each_shape_one_meaning(name):
    symbols = renderers.get(name).symbols
    players = games.get(name).max_players
    assert len(set(symbols.seats[:players])) == players  # a shape for every seat
    assert symbols.clashes(players) == [], name


def test_every_shape_is_drawn_differently():
    masks = []
    for shape in SHAPES:
        img = Image.new("L", (48, 48), 0)
        draw_marker(ImageDraw.Draw(img), shape, (24, 24), 14, fill=255, outline=255)
        masks.append(img.tobytes())
    for (a, ma), (b, mb) in combinations(zip(SHAPES, masks), 2):
        assert sum(x != y for x, y in zip(ma, mb)) > 40, (a, b)  # differ in a visible area, not a pixel


def test_boards_draw_the_seats_shapes_they_declare():
    from render.catan_express import style as ce
    from render.santa_fe.tags import seat_shape
    from render.steam import style as steam
    from render.ticket_to_ride.icons import seat_marker

    drawn = {"steam": steam.player_marker, "catan_express": ce.player_marker, "santa_fe": seat_shape,
             "ticket_to_ride": seat_marker}
    for name, shape_of in drawn.items():
        symbols = renderers.get(name).symbols
        assert [shape_of(seat) for seat in range(games.get(name).max_players)] == list(
            symbols.seats[:games.get(name).max_players]), name


def test_the_catan_express_awards_are_written_with_their_own_marks():
    """The sidebar's legend writes the awards' marks, and none is a seat's."""
    from games.catan_express.rules import GAME

    symbols = renderers.get("catan_express").symbols
    state = GAME.setup(6, {}, 5)
    with recording_text_sizes() as texts:
        renderers.get("catan_express").board_image(GAME.view(state, None), [f"P{i}" for i in range(6)], "en")
    legend = next(text for _, text in texts.drawn if "Fastest Driver" in text)
    for award in ("Largest Army", "Fastest Driver"):
        assert glyph(symbols.of("award", award)) in legend
    assert not any(GLYPHS[shape] in legend for shape in symbols.seats if shape in GLYPHS)
