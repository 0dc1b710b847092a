"""Galactic Railway images, drawn from views of real games (scorer bots, fixed seeds).

Every test looks at real pixels: what must show (tiles, the frame, the scoring loop in the
player's colour, the cell names), what must change, and that the images are the same
whoever's view they are drawn from.
"""
from __future__ import annotations

import io

import pytest
from PIL import Image

from games.ginga.board import second_cell
from games.ginga.rules import GAME
from render import registry
from render.ginga import board as board_mod
from render.ginga import style
from render.ginga.board import BOARD, HEIGHT, WIDTH, Grid, render_board
from render.ginga.final import render_final
from render.ginga.hand import render_hand
from tests.support.bot_games import bot_states

NAMES = ["Alice", "山田太郎", "🚂Choo", "Zoë"]


def _play(seed: int, n: int = 3) -> list:
    return bot_states(GAME, n, seed, "scorer")


@pytest.fixture(scope="module")
def states():
    return _play(3)


@pytest.fixture(scope="module")
def loop_state(states):
    return next(s for s in reversed(states) if s.step != "over" and any(p.loop_points >= 8 for p in s.latest))


def _rgb(img: Image.Image, xy) -> tuple[int, int, int]:
    return img.getpixel((int(xy[0]), int(xy[1])))[:3]


def _near(a, b, tol: int = 40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("when", [0, 1, 5, -8, -1])
def test_board_renders_at_every_stage(states, when, lang):
    img = render_board(GAME.view(states[when], None), NAMES[:3], lang)
    assert img.size == (WIDTH, HEIGHT) and img.mode == "RGB"
    assert len(img.getcolors(1 << 20)) > 20


def test_every_tile_is_drawn_where_the_view_says(states):
    view = GAME.view(states[-1], None).model_copy(update={"latest": []})
    img = render_board(view, NAMES[:3])
    grid = Grid.of(view)
    covered = set()
    for t in view.tiles:
        px, py = grid.origin(t.x, t.y)
        # a corner of each cell of the tile shows the ivory tile face, never the sky
        assert _near(_rgb(img, (px + grid.cell * 0.12, py + grid.cell * 0.12)), style.TILE, 30)
        covered |= {(t.x, t.y), second_cell(t.x, t.y, t.orient)}
    for x in range(grid.x0, grid.x1 + 1):  # and every other cell shown is an empty night-sky cell
        for y in range(grid.y0, grid.y1 + 1):
            if (x, y) not in covered:
                cx, cy = grid.centre(x, y)
                assert _near(_rgb(img, (cx, cy)), style.SKY_CELL, 12)


def test_the_scoring_loop_is_drawn_in_the_players_colour_with_its_points(loop_state):
    view = GAME.view(loop_state, None)
    img = render_board(view, NAMES[:3])
    grid = Grid.of(view)
    scored = next(p for p in view.latest if p.loop_points)
    colour = style.player_rgb(scored.seat)
    hits = 0
    for x, y in scored.loop:
        px, py = grid.centre(x, y)
        hits += _near(_rgb(img, (px, py)), style.mix(colour, (255, 255, 255), 0.0), 90)
    assert hits >= len(scored.loop) * 0.8
    # the same board without the latest turn's marks shows no loop there
    plain = render_board(view.model_copy(update={"latest": []}), NAMES[:3])
    cx, cy = grid.centre(*scored.loop[0])
    assert _rgb(plain, (cx, cy)) != _rgb(img, (cx, cy))


def test_the_frame_turns_gold_once_eight_columns_are_taken(states):
    fixed = next(s for s in states if GAME.view(s, None).frame.fixed_x)
    view = GAME.view(fixed, None)
    img = render_board(view, NAMES[:3])
    grid = Grid.of(view)
    left, top = grid.origin(grid.x0, grid.y0)
    _, bottom = grid.origin(grid.x0, grid.y1 + 1)
    left -= max(3, grid.cell // 14) // 2 + 1  # the line runs just outside the cells
    golden = sum(_near(_rgb(img, (left, y)), style.FRAME, 50) for y in range(top + 5, bottom - 5, 7))
    assert golden > 0.8 * len(range(top + 5, bottom - 5, 7))
    early = GAME.view(states[2], None)
    img2 = render_board(early, NAMES[:3])
    g2 = Grid.of(early)
    l2, t2 = g2.origin(g2.x0, g2.y0)
    _, b2 = g2.origin(g2.x0, g2.y1 + 1)
    assert not any(_near(_rgb(img2, (l2, y)), style.FRAME, 30) for y in range(t2 + 5, b2 - 5, 7))


def test_the_shown_area_follows_the_tiles_and_names_stay_fixed(states):
    first = Grid.of(GAME.view(states[0], None))
    assert (first.x0, first.y0, first.x1, first.y1) == (5, 5, 9, 9)  # around H8
    late = Grid.of(GAME.view(states[-1], None))
    assert late.cols <= 8 + 4 and late.rows <= 8 + 4 and late.cell >= 50


def test_board_is_the_same_from_every_seat(states):
    s = states[len(states) // 2]
    spectator = render_board(GAME.view(s, None), NAMES[:3]).tobytes()
    for seat in range(3):
        assert render_board(GAME.view(s, seat), NAMES[:3]).tobytes() == spectator


def test_japanese_and_emoji_names(states):
    s = states[len(states) // 2]
    a = render_board(GAME.view(s, None), ["Alice", "Bob", "Carl"])
    b = render_board(GAME.view(s, None), NAMES[:3], "ja")
    box = (BOARD, 0, WIDTH, HEIGHT)
    assert a.crop(box).tobytes() != b.crop(box).tobytes()
    assert a.crop((0, 0, BOARD, HEIGHT)).tobytes() == b.crop((0, 0, BOARD, HEIGHT)).tobytes()


def test_hand_image_for_the_player_to_move_and_for_the_others(states):
    s = states[len(states) // 2]
    mover = render_hand(GAME.view(s, s.current), NAMES[:3])
    other = render_hand(GAME.view(s, (s.current + 1) % 3), NAMES[:3], "ja")
    assert mover.width == other.width and mover.height > 300
    with pytest.raises(ValueError):
        render_hand(GAME.view(s, None), NAMES[:3])
    later = next(x for x in states[len(states) // 2 + 1:] if x.current == s.current and x.hands != s.hands)
    assert render_hand(GAME.view(later, s.current), NAMES[:3]).tobytes() != mover.tobytes()


def test_final_image_and_its_refusal_while_running(states):
    img = render_final(GAME.view(states[-1], None), NAMES[:3], "ja")
    assert img.width == 1100 and img.height > 400
    with pytest.raises(ValueError):
        render_final(GAME.view(states[3], None), NAMES[:3])


def test_registry_gives_small_palette_pngs(states, loop_state):
    r = registry.get("ginga")
    for png in (r.board(GAME.view(loop_state, None), NAMES[:3]), r.hand(GAME.view(loop_state, loop_state.current), NAMES[:3]),
                r.final(GAME.view(states[-1], None), NAMES[:3])):
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 1024 * 1024
        assert Image.open(io.BytesIO(png)).mode == "P"


def test_the_table_layer_is_cached_per_shown_area(states):
    board_mod._LAYERS.clear()
    view = GAME.view(states[-3], None)
    render_board(view, NAMES[:3])
    render_board(view, NAMES[:3], "ja")
    assert len(board_mod._LAYERS) == 1
    render_board(GAME.view(states[0], None), NAMES[:3])
    assert len(board_mod._LAYERS) == 2


def test_four_players_fit_in_the_sidebar():
    states = _play(8, 4)
    img = render_board(GAME.view(states[len(states) // 2], None), NAMES)
    assert img.size == (WIDTH, HEIGHT)
