"""City names on the Santa Fe board, move after move of real games: drawn over everything, never
on another name, a marker or a played-card mark, inside the map, and off the placed tiles where
their city leaves room (a name printed over a tile cuts the railroad in two).

The tiles are worked out here from the view with the board's layout, not from the renderer's
masks, so a name that lands on a tile shows up whatever the renderer believed.
"""
from __future__ import annotations

import math
from functools import lru_cache

import pytest
from PIL import Image

from games.santa_fe.map import west
from games.santa_fe.rules import GAME
from render.kit.geometry import boxes_meet, grow
from render.santa_fe import board as sf_board
from render.santa_fe import names as sf_names
from render.santa_fe.layout import CITY_R, MAP_H, MAP_W, board_layout
from render.santa_fe.tags import TAG_R, played_marks
from tests.support.bot_games import bot_states

GAMES = [(4, 3, {}), (4, 5, {}), (5, 8, {"advanced": True, "buy_track": True})]
EVERY = 20  # boards sampled: every 20th position of each game, and its last
NAMES = ["Alice", "山田太郎", "🚂Choo", "Zoë", "Bob"]


@lru_cache(maxsize=None)
def views(players: int, seed: int, options: tuple) -> list:
    states = bot_states(GAME, players, seed, "builder", dict(options))
    return [GAME.view(s, None) for s in [*states[::EVERY], states[-1]]]


def every_view():
    for players, seed, options in GAMES:
        yield from views(players, seed, tuple(options.items()))


def tiles_mask(view) -> Image.Image:
    """Every placed tile's opaque pixels (mode "L", 255 there)."""
    layout = board_layout()
    out = Image.new("L", (MAP_W, MAP_H), 0)
    for sid, built in enumerate(view.sec_built):
        for k in range(max(built, 0)):
            patch, at = sf_board.tile_patch(sid, layout.space_index(sid, k, view.sec_from[sid]), view.sec_rr[sid])
            out.paste(255, at, patch.getchannel("A").point(lambda v: 255 if v > 128 else 0))
    return out


def text_box(box):
    """The part of a name's box its letters and halo cover (the gap at both ends left out)."""
    return (box[0] + sf_names.NAME_GAP, box[1], box[2] - sf_names.NAME_GAP, box[3])


def over_tiles(mask: Image.Image, box) -> int:
    return mask.crop(text_box(box)).histogram()[255]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_names_keep_apart_inside_the_map_and_off_markers_and_marks(lang):
    moved = 0
    cities = board_layout().cities
    for view in every_view():
        boxes = sf_board.name_boxes(view, lang)
        assert set(boxes) == set(range(len(west().cities)))
        marks = played_marks(view.players, sf_board.static_map(lang).slots)
        items = list(boxes.items())
        for i, (city, box) in enumerate(items):
            name = west().city_label(city, lang)
            assert 0 <= box[0] and 0 <= box[1] and box[2] <= MAP_W and box[3] <= MAP_H, name
            for other, other_box in items[i + 1:]:
                assert not boxes_meet(text_box(box), text_box(other_box)), (name, west().city_label(other, lang))
            inner = grow(text_box(box), -sf_names.LABEL_HALO)
            # The empty map's own spots grant a marker's rim where no other spot is left (the bay
            # of San Francisco, the coast by Los Angeles in Japanese); a name a board moves never
            # takes one.
            away = box != sf_names.preferred(lang)[city][1]
            moved += away
            for k, (x, y) in enumerate(cities if away else ()):
                dx = max(inner[0] - x, 0, x - inner[2])
                dy = max(inner[1] - y, 0, y - inner[3])
                assert math.hypot(dx, dy) >= CITY_R - 1, (name, west().city_label(k, lang))
            for mark_city, seat, (x, y) in marks:
                dx = max(inner[0] - x, 0, x - inner[2])
                dy = max(inner[1] - y, 0, y - inner[3])
                assert math.hypot(dx, dy) >= TAG_R * 0.8, (name, west().city_label(mark_city, lang), seat)
    assert moved > 50  # the boards did move names


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_names_are_drawn_over_everything(lang):
    for view in views(4, 3, ())[-3:]:
        img = sf_board.render_board(view, NAMES[:len(view.players)], lang).convert("RGB")
        for city, box in sf_board.name_boxes(view, lang).items():
            patch = sf_names.name_patch(city, lang)
            crop = img.crop((box[0], box[1], box[0] + patch.width, box[1] + patch.height))
            solid = Image.new("RGB", patch.size)
            solid.paste(patch.convert("RGB"))
            alpha = patch.getchannel("A").load()
            px, pc = solid.load(), crop.load()
            assert all(pc[x, y] == px[x, y] for y in range(patch.height) for x in range(patch.width)
                       if alpha[x, y] == 255), west().city_label(city, lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_names_move_off_the_tiles_where_their_city_leaves_room(lang):
    """Names over a tile on the sampled boards, placed per board against placed once with the
    empty map: 118 against 242 in English, 185 against 282 in Japanese (the Utah corner is walled
    in by track late in a game, and its long Japanese names must lie on some)."""
    now = before = 0
    for view in every_view():
        mask = tiles_mask(view)
        preferred = sf_names.preferred(lang)
        for city, box in sf_board.name_boxes(view, lang).items():
            now += over_tiles(mask, box) > 20
            before += over_tiles(mask, preferred[city][1]) > 20
    assert before > 0
    assert now <= 0.75 * before, (now, before)


def test_new_orleans_leaves_the_track_into_the_city():
    """The fault players saw: New Orleans's name lay on the tiles into the city."""
    board = west()
    nola = next(c for c in range(len(board.cities)) if board.city_label(c, "en") == "New Orleans")
    before = sf_names.preferred("ja")[nola][1]
    into = 0
    for view in every_view():
        mask = tiles_mask(view)
        if over_tiles(mask, before) > 20:
            into += 1
            assert over_tiles(mask, sf_board.name_boxes(view, "ja")[nola]) <= 20
    assert into  # the games built there


def test_salt_lake_city_and_cheyenne_are_never_read_as_one_line():
    """The fault players saw: the Japanese names of Salt Lake City and Cheyenne stood on one
    line with only a tile between them ("ソルトレイクシティ [KP] シャイアン"). The board sets
    Salt Lake City's on two lines (map.json's board_ja); no board puts the two side by side."""
    board = west()
    city = {board.city_label(c, "en"): c for c in range(len(board.cities))}
    slc, chy = city["Salt Lake City"], city["Cheyenne"]
    assert board.board_lines(slc, "ja") == ["ソルトレイク", "シティ"] and board.board_lines(slc, "en") == ["Salt Lake City"]
    em = sf_names.LABEL_SIZE  # a character's width apart at least, or not on one line

    def one_line(a, b) -> bool:
        middle_a, middle_b = (a[1] + a[3]) / 2, (b[1] + b[3]) / 2
        return (b[1] < middle_a < b[3] or a[1] < middle_b < a[3]) and boxes_meet(grow(a, em), b)

    for view in every_view():
        boxes = sf_board.name_boxes(view, "ja")
        assert not one_line(boxes[slc], boxes[chy])
