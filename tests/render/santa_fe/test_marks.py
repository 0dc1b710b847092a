"""Who played which city card, on the Santa Fe board: each seat's marker shape (the score
chart's, in seat order) beside every city it played, tied to it and clear of the names and
the markers, and the same shape before the seat's name in the panel, so a reader who cannot
tell the seat colours apart still matches marks to players.

Shapes are recognised from the rendered pixels: the seat-coloured pixels round a mark are
compared with each of the kit's marker shapes drawn at the same place, and the best match
must be the seat's own shape.
"""
from __future__ import annotations

import math

import pytest
from PIL import Image, ImageDraw

from games.santa_fe.map import west
from games.santa_fe.rules import GAME
from render.kit.chart import draw_marker
from render.santa_fe import style

SF_SEATS = style.SYMBOLS.seats
from render.santa_fe.board import render_board, static_map
from render.santa_fe.layout import CITY_R, MAP_H, PANEL_Y, board_layout
from render.santa_fe.names import LABEL_HALO, NAME_GAP, place_labels
from render.santa_fe.sidebar import LEFT, ROW_MARK_R
from render.santa_fe.tags import TAG_R, TAG_REACH, copies_per_city, played_marks
from tests.support.bot_games import bot_states

NAMES = ["Alice", "山田太郎", "🚂Choo", "Zoë", "Bob"]


def _play(seed: int, options: dict) -> list:
    return bot_states(GAME, 5, seed, "builder", options)


@pytest.fixture(scope="module", params=[{}, {"advanced": True, "buy_track": True}], ids=["basic", "advanced"])
def late(request):
    """A five-player game near its end, when most cards have been played."""
    states = _play(3, request.param)
    return GAME.view([s for s in states if s.phase == "track"][-1], None)


def _interiors(size: int, centre, r: float) -> dict[str, Image.Image]:
    """Per kit shape, how much of each pixel of a size × size square (centre given in it)
    its interior covers, 0-255 (drawn 4× and shrunk)."""
    out = {}
    for shape in SF_SEATS:
        big = Image.new("L", (size * 4, size * 4), 0)
        # the interior only: the dark outline is not the seat's colour
        draw_marker(ImageDraw.Draw(big), shape, (centre[0] * 4, centre[1] * 4), r * 4, fill=255, outline=0, width=8)
        out[shape] = big.resize((size, size), Image.Resampling.BOX)
    return out


def _shape_of(img: Image.Image, centre, r: float, colour) -> tuple[str, float]:
    """The kit shape the seat-coloured pixels round centre make, and how well they fit it
    (intersection over union); "" when they make none.

    Fitting best is not enough (a square and a circle overlap for the most part): a shape
    is recognised only where it differs from each other one: the pixels (mostly) only it
    covers are mostly the seat's colour, the pixels (mostly) only the other covers mostly not."""
    half = round(r * 1.35)
    x0, y0 = round(centre[0]) - half, round(centre[1]) - half
    size = 2 * half + 1
    crop = img.convert("RGB").crop((x0, y0, x0 + size, y0 + size))
    cells = [(x, y) for y in range(size) for x in range(size)]
    seen = {c for c in cells if all(abs(a - b) <= 8 for a, b in zip(crop.getpixel(c), colour))}
    shapes = _interiors(size, (centre[0] - x0, centre[1] - y0), r)

    def only(a: Image.Image, b: Image.Image) -> set:
        return {c for c in cells if a.getpixel(c) > 200 and b.getpixel(c) < 100}

    def mostly(part: set) -> bool:  # a pixel's leeway: edges fall on fractions of a pixel
        return len(part & seen) >= 0.7 * len(part) - 1

    def hardly(part: set) -> bool:  # two pixels' leeway: a triangle's tip pokes past a hexagon's by a pixel
        return len(part & seen) <= 0.3 * len(part) + 2

    best = ("", 0.0)
    for shape, mine in shapes.items():
        full = {c for c in cells if mine.getpixel(c) > 200}
        iou = len(seen & full) / max(1, len(seen | full))
        apart = all(mostly(only(mine, other)) and hardly(only(other, mine))
                    for name, other in shapes.items() if name != shape)
        if apart and iou > best[1]:
            best = (shape, iou)
    return best


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_played_city_shows_its_players_marks(late, lang):
    img = render_board(late, NAMES, lang)
    marks = played_marks(late.players, static_map(lang).slots)
    played = {(city, p.seat) for p in late.players for city in p.played}
    assert len(played) >= 15  # the game is far enough on to crowd the map
    assert {(city, seat) for city, seat, _ in marks} == played
    for city, seat, centre in marks:
        shape, fit = _shape_of(img, centre, TAG_R, style.player_rgb(seat))
        assert shape == SF_SEATS[seat % len(SF_SEATS)] and fit > 0.6, (city, seat, shape, fit)


def test_a_mark_appears_when_its_card_is_played():
    """Before a city card is revealed its seat's mark is not on the map; once played it is."""
    states = _play(7, {})
    k = next(i for i in range(1, len(states)) if any(len(p.played) > len(q.played) for p, q in
                                                     zip(states[i].players, states[i - 1].players)))
    before, after = GAME.view(states[k - 1], None), GAME.view(states[k], None)
    slots = static_map("en").slots
    fresh = [(c, s, xy) for c, s, xy in played_marks(after.players, slots)
             if (c, s) not in {(c2, s2) for c2, s2, _ in played_marks(before.players, slots)}]
    assert fresh
    old = render_board(before, NAMES, "en")
    new = render_board(after, NAMES, "en")
    for city, seat, centre in fresh:
        assert _shape_of(new, centre, TAG_R, style.player_rgb(seat))[1] > 0.6
        assert _shape_of(old, centre, TAG_R, style.player_rgb(seat))[1] < 0.2


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_slots_sit_by_their_city_clear_of_markers_names_and_each_other(lang):
    board = west()
    cities = board_layout().cities
    slots = static_map(lang).slots
    assert set(slots) == set(board.city_cards)
    assert all(len(s) == copies_per_city() for s in slots.values())
    names = [box for _, box in place_labels(board_layout(), lang).values()]
    every = [(city, xy) for city, s in slots.items() for xy in s]
    for city, (x, y) in every:
        own = math.dist((x, y), cities[city])
        assert own < CITY_R + 2 * TAG_REACH + 12, (city, own)  # beside its city...
        for other, point in enumerate(cities):  # ...nearer it than any other, on no marker
            assert math.dist((x, y), point) > CITY_R + TAG_R, (city, other)
            if other != city:
                assert math.dist((x, y), point) > own, (city, other)
        for box in names:  # on no name's letters (a box's margin and halo are only room)
            inside_x = box[0] + LABEL_HALO + NAME_GAP - TAG_R < x < box[2] - LABEL_HALO - NAME_GAP + TAG_R
            inside_y = box[1] + LABEL_HALO - TAG_R < y < box[3] - LABEL_HALO + TAG_R
            assert not (inside_x and inside_y), (city, board.city_label(city, lang), box)
        assert 0 < y < MAP_H
    for i, (_, a) in enumerate(every):
        for _, b in every[i + 1:]:
            assert math.dist(a, b) >= 2 * TAG_R, (a, b)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_panel_shows_each_seats_mark_before_its_name(late, lang):
    img = render_board(late, NAMES, lang).convert("RGB")
    # The marks stand in a column at the panel's left edge; find each seat's by its colour.
    x = LEFT + 16
    for p in late.players:
        colour = style.player_rgb(p.seat)
        ys = [y for y in range(PANEL_Y + 100, img.height)
              if all(abs(a - b) <= 4 for a, b in zip(img.getpixel((x, y)), colour))]
        assert ys, p.seat
        runs = [[ys[0]]]  # the mark is the longest run (the active row's frame is the seat's colour too)
        for y in ys[1:]:
            if y == runs[-1][-1] + 1:
                runs[-1].append(y)
            else:
                runs.append([y])
        run = max(runs, key=len)
        mid = (run[0] + run[-1]) / 2  # a triangle's middle is not its centre: look round it
        shape, fit = max((_shape_of(img, (x, mid + dy), ROW_MARK_R, colour) for dy in range(-4, 5)),
                         key=lambda found: found[1])
        assert shape == SF_SEATS[p.seat % len(SF_SEATS)] and fit > 0.6, (p.seat, shape, fit)
