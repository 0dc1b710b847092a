"""Santa Fe images, drawn from views of real games (builder and random bots, fixed seeds).

Every test looks at real pixels: what must show, what must change, and what must never leak.
The renderer is not registered yet (the lead does that with the Discord UI), so the PNG
twins are checked through a GameRenderer built here.
"""
from __future__ import annotations

import math

import pytest
from PIL import Image

from games.santa_fe.map import west
from games.santa_fe.models import Choice, Place
from games.santa_fe.rules import GAME
from render.registry import GameRenderer
from render.santa_fe import RENDERER, style
from render.santa_fe import board as board_mod
from render.santa_fe.board import pip_center, render_board
from render.santa_fe.final import render_final
from render.santa_fe.hand import UNREACHABLE, reach_distances, render_hand
from render.santa_fe.layout import BOARD_H, BOARD_W, END_TRIM, MAP_H, MAP_W, PANEL_Y, board_layout, lonlat_xy
from tests.support.bot_games import bot_steps
from tests.support.render_checks import (assert_hand_refuses_a_spectator_view, assert_pngs,
                                         assert_static_layer_built_once_per_language, close, game_stage_fixtures, png)

NAMES = ["Alice", "山田太郎", "🚂Choo", "Zoë", "Bob"]
PNG_LIMIT = 2 * 1024 * 1024
MAP_BOX = (0, 0, MAP_W, MAP_H)
SIDE_BOX = (0, PANEL_Y + 4, BOARD_W, BOARD_H)
BOARD = west()


def _play(seed: int, n: int, bot: str = "builder", options: dict | None = None) -> list[tuple]:
    """A whole game: [(state, seat, action, next_state), ...]."""
    return bot_steps(GAME, n, seed, bot, options)


game, start, mid, end = game_stage_fixtures(lambda: _play(seed=3, n=4), mid_phase="track")


@pytest.fixture(scope="module")
def choosing(game):
    """Mid-game secret choice: seat 1 has chosen, someone else has not."""
    states = game[1]
    return next(s for s in states[len(states) // 2:] if s.phase == "choose" and s.players[1].choice is not None
                and any(p.choice is None for p in s.players))


def _count(img: Image.Image, colour, tol: int = 6) -> int:
    return sum(1 for px in img.get_flattened_data() if close(px, colour, tol))


# --- the board --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("when", ["start", "mid", "end"])
def test_board_renders_at_every_stage(request, when, lang):
    state = request.getfixturevalue(when)
    img = render_board(GAME.view(state, None), NAMES, lang)
    assert img.size == (BOARD_W, BOARD_H) == (1270, 1350)
    assert img.mode == "RGB"
    assert len(img.crop(MAP_BOX).getcolors(1 << 20)) > 100  # land, sea, rivers, ranges, track, names


@pytest.mark.parametrize("n,bot,options", [(2, "random", {}), (3, "builder", {"advanced": True}),
                                           (5, "builder", {"buy_track": True}), (5, "random", {"advanced": True})])
def test_every_player_count_and_option_renders(n, bot, options):
    steps = _play(seed=20 + n, n=n, bot=bot, options=options)
    states = [s for s, *_ in steps] + [steps[-1][3]]
    names = NAMES[:n]
    for state in (states[0], states[len(states) // 3], states[2 * len(states) // 3], states[-1]):
        assert render_board(GAME.view(state, None), names, "en").size == (1270, 1350)
        for seat in range(n):
            assert render_hand(GAME.view(state, seat), names, "ja").width == 1000
    assert render_final(GAME.view(states[-1], None), names, "en").width == 1100


def test_the_map_reads_as_the_west(start):
    """Sea west of the coast, land inland, and rivers and ranges drawn in their inks."""
    img = render_board(GAME.view(start, None), NAMES, "en")
    sea = lonlat_xy(BOARD, -125.2, 38.0)  # off the coast of California
    gulf = lonlat_xy(BOARD, -90.0, 26.5)
    land = lonlat_xy(BOARD, -101.0, 44.5)  # the Dakotas: no city, no range
    assert close(img.getpixel(tuple(map(round, sea))), style.WATER, 4)
    assert close(img.getpixel(tuple(map(round, gulf))), style.WATER, 4)
    assert close(img.getpixel(tuple(map(round, land))), style.LAND, 4)
    area = img.crop(MAP_BOX)
    assert _count(area, style.RIVER, 10) > 3000  # nine rivers
    assert _count(area, style.RANGE_RIDGE, 10) > 1500  # the peaks along six ranges
    assert _count(area, style.RANGE_SHADE, 4) > 20000  # and their shaded bands
    # the sea and the lake stop at the map's edge: the sidebar is clean
    assert _count(img.crop(SIDE_BOX), style.WATER, 4) == 0


def test_cities_have_room_and_stay_on_land():
    """Pushed apart from real geography, every space is long enough to see and no city lies
    in the sea."""
    layout = board_layout()
    for shape in layout.sections:
        for space in shape.spaces:
            assert space.length >= 20, BOARD.sections[shape.section].code
    for i, (x, y) in enumerate(layout.cities):
        assert 20 < x < MAP_W - 20 and 20 < y < BOARD_H - 20
        for j in range(i + 1, len(layout.cities)):
            assert math.dist((x, y), layout.cities[j]) > 2 * END_TRIM - 2, (BOARD.cities[i].name,
                                                                             BOARD.cities[j].name)
    from render.santa_fe.layout import _in_polygon, sea_polygons

    water = sea_polygons(layout)  # the sea, the gulf, the bay and the lake as drawn
    assert len(water) >= 4
    for i, p in enumerate(layout.cities):
        assert not any(_in_polygon(p, poly) for poly in water), BOARD.cities[i].name
    # San Francisco stays west of Oakland, Seattle north of Tacoma
    idx = BOARD.city_index
    assert layout.cities[idx["San Francisco"]][0] < layout.cities[idx["Oakland"]][0]
    assert layout.cities[idx["Seattle"]][1] < layout.cities[idx["Tacoma"]][1]


def test_placed_tile_takes_the_railroads_colour(game):
    steps, _ = game
    layout = board_layout()
    seen = set()
    for before, seat, action, after in steps:
        if not isinstance(action, Place) or action.rr in seen:
            continue
        seen.add(action.rr)
        sid = action.section
        k = before.sec_built[sid]
        index = layout.space_index(sid, k, action.end)
        space = layout.sections[sid].spaces[index]
        # beside the railroad's code printed in the middle of the tile
        along = space.length * 0.38
        xy = (round(space.center[0] + math.cos(space.angle) * along),
              round(space.center[1] + math.sin(space.angle) * along))
        a = render_board(GAME.view(before, None), NAMES, "en")
        b = render_board(GAME.view(after, None), NAMES, "en")
        assert close(b.getpixel(xy), style.rr_rgb(action.rr), 12), (BOARD.railroads[action.rr].code, b.getpixel(xy))
        assert a.getpixel(xy) != b.getpixel(xy)
        # an untouched empty space elsewhere did not change
        other = next(s for s in layout.sections if after.sec_built[s.section] == 0 and s.section != sid
                     and BOARD.twin[sid] != s.section)
        oxy = tuple(round(v) for v in other.spaces[0].center)
        assert a.getpixel(oxy) == b.getpixel(oxy)
    assert seen == set(range(len(BOARD.railroads))), "every railroad should be built in this game"


def test_white_tiles_have_a_dark_outline(end):
    """Southern Pacific is white: its tiles carry a dark edge so they show on light land."""
    layout = board_layout()
    sp = BOARD.rr_index["sp"]
    sid = next(s for s, r in enumerate(end.sec_rr) if r == sp)
    space = layout.sections[sid].spaces[layout.space_index(sid, 0, end.sec_from[sid])]
    img = render_board(GAME.view(end, None), NAMES, "en")
    xs = [x for x, _ in space.corners(16)]
    ys = [y for _, y in space.corners(16)]
    crop = img.crop((int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1))
    dark = sum(1 for px in crop.get_flattened_data() if max(px) < 60)
    white = sum(1 for px in crop.get_flattened_data() if close(px, style.rr_rgb(sp), 10))
    assert dark > 20 and white > 20


def test_line_heads_and_reach_pips(mid):
    view = GAME.view(mid, None)
    img = render_board(view, NAMES, "en")
    layout = board_layout()
    # a line head inside a section: an arrow in the railroad's colour on the next space
    r, (city, sid, built, end) = next((r, h) for r, heads in enumerate(view.lines) for h in heads if h[1] >= 0)
    space = layout.sections[sid].spaces[layout.space_index(sid, built, end)]
    box = tuple(int(v) for v in (space.center[0] - 6, space.center[1] - 6, space.center[0] + 7, space.center[1] + 7))
    assert _count(img.crop(box), style.rr_rgb(r), 12) > 8
    # railroads reaching a city: a pip in each one's colour; none for a railroad that does not
    def pip_pixels(image, c, rr):
        x, y = pip_center(c, rr)
        return _count(image.crop((round(x) - 4, round(y) - 4, round(x) + 5, round(y) + 5)), style.rr_rgb(rr), 30)

    for c, mask in enumerate(view.connected):
        for rr in range(len(BOARD.railroads)):
            if mask >> rr & 1:
                assert pip_pixels(img, c, rr) >= 6, (BOARD.cities[c].name, rr)
    unreached = next(c for c, mask in enumerate(view.connected) if mask == 0)
    blank = render_board(view.model_copy(update={"connected": [0] * len(view.connected)}), NAMES, "en")
    for rr in range(len(BOARD.railroads)):
        xy = tuple(round(v) for v in pip_center(unreached, rr))
        assert img.getpixel(xy) == blank.getpixel(xy)
    reached = next(c for c, mask in enumerate(view.connected) if mask)
    rr = next(k for k in range(5) if view.connected[reached] >> k & 1)
    xy = tuple(round(v) for v in pip_center(reached, rr))
    assert img.getpixel(xy) != blank.getpixel(xy)


def test_sidebar_shows_whose_turn(mid):
    view = GAME.view(mid, None)
    other = (view.current + 1) % view.n
    a = render_board(view, NAMES, "en")
    b = render_board(view.model_copy(update={"current": other, "active": [other]}), NAMES, "en")
    assert a.crop(MAP_BOX).tobytes() == b.crop(MAP_BOX).tobytes()
    assert a.crop(SIDE_BOX).tobytes() != b.crop(SIDE_BOX).tobytes()
    banner = (60, PANEL_Y + 14)
    assert close(a.getpixel(banner), style.player_rgb(view.current), 8)
    assert close(b.getpixel(banner), style.player_rgb(other), 8)


def test_secret_choice_shows_who_has_chosen(choosing):
    """During the secret choice the sidebar says who has chosen (green) and who not (amber)."""
    view = GAME.view(choosing, None)
    img = render_board(view, NAMES, "en")
    side = img.crop(SIDE_BOX)
    chosen = sum(p.chosen for p in view.players)
    assert 0 < chosen < view.n
    assert _count(side, style.DONE, 4) > 300 * chosen
    assert _count(side, style.CHOOSING_BG, 4) > 300 * (view.n - chosen)
    players = [p.model_copy(update={"chosen": True}) for p in view.players]
    all_done = render_board(view.model_copy(update={"players": players, "active": []}), NAMES, "en")
    assert _count(all_done.crop(SIDE_BOX), style.CHOOSING_BG, 4) < _count(side, style.CHOOSING_BG, 4)


def _hide_differently(state, seat: int):
    """The same state except for `seat`'s secret: another card in hand and another choice."""
    other = state.clone()
    p = other.players[seat]
    spare = next(c for c in range(len(BOARD.cities)) if BOARD.values[c] and c not in p.hand)
    p.hand = sorted(p.hand[1:] + [spare])
    p.choice = Choice(card=spare, spur=p.choice.spur if p.choice else False)
    return other


def test_spectator_board_cannot_show_a_hand_or_a_secret_choice(choosing):
    seat = 1
    other = _hide_differently(choosing, seat)
    public_a, public_b = GAME.view(choosing, None), GAME.view(other, None)
    assert public_a.players[seat].hand is None and public_a.players[seat].choice is None
    assert png(render_board(public_a, NAMES, "en")) == png(render_board(public_b, NAMES, "en"))
    # the board uses only public fields: a player's own view draws exactly the public board
    private = GAME.view(choosing, seat)
    assert private.players[seat].choice is not None
    assert png(render_board(private, NAMES, "ja")) == png(render_board(public_a, NAMES, "ja"))


def test_japanese_and_emoji_names(mid):
    view = GAME.view(mid, None)
    img = render_board(view, NAMES, "ja")
    ref = render_board(view, ["Alice", "山田太郎", "XChoo", "Zoë"], "ja")
    a, b = img.crop(SIDE_BOX), ref.crop(SIDE_BOX)
    changed = [pa for pa, pb in zip(a.get_flattened_data(), b.get_flattened_data()) if pa != pb]
    colourful = [p for p in changed if max(p) - min(p) > 90]
    assert len(colourful) > 20, "the emoji should be drawn in colour, not as a box or in black"
    other = render_board(view, ["Alice", "Yamada", "🚂Choo", "Zoë"], "ja")
    assert other.crop(SIDE_BOX).tobytes() != a.tobytes()
    # Japanese city names on the map: the ja map differs from the en map
    assert render_board(view, NAMES, "en").crop(MAP_BOX).tobytes() != img.crop(MAP_BOX).tobytes()


# --- the hand -------------------------------------------------------------------------------------------------
def test_hand_image_changes_with_the_hand(choosing):
    seat = 1
    other = _hide_differently(choosing, seat)
    a = render_hand(GAME.view(choosing, seat), NAMES, "en")
    b = render_hand(GAME.view(other, seat), NAMES, "en")
    assert a.width == 1000 and a.height > 600
    assert a.tobytes() != b.tobytes()


def test_hand_shows_the_secret_choice_only_to_its_owner(choosing):
    seat = 1
    view = GAME.view(choosing, seat)
    with_choice = render_hand(view, NAMES, "en")
    players = list(view.players)
    players[seat] = players[seat].model_copy(update={"choice": None, "chosen": False})
    without = render_hand(view.model_copy(update={"players": players}), NAMES, "en")
    assert _count(with_choice, style.DONE, 4) > _count(without, style.DONE, 4) + 5000  # the green banner
    assert _count(without, style.CHOOSING_BG, 4) > 5000  # "choose your card" instead


def test_hand_refuses_a_spectator_view(mid):
    assert_hand_refuses_a_spectator_view(GAME, render_hand, mid, NAMES)


def test_reach_distances_follow_the_track(start, end):
    view = GAME.view(start, None)
    d = reach_distances(view)
    idx = BOARD.city_index
    sf, up = BOARD.rr_index["sf"], BOARD.rr_index["up"]
    assert d[sf][idx["Chicago"]] == 0 and d[up][idx["Chicago"]] == 0
    assert d[up][idx["Omaha"]] == BOARD.distances[idx["Chicago"]][idx["Omaha"]]
    late = GAME.view(end, None)
    d = reach_distances(late)
    for r in range(len(BOARD.railroads)):
        for c in range(len(BOARD.cities)):
            if late.connected[c] >> r & 1:
                assert d[r][c] == 0
            elif late.supply[r] == 0 and not any(p.bought[r] for p in late.players):
                assert d[r][c] == UNREACHABLE  # no tiles left: nothing more is in reach


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hand_at_the_start_and_the_end(start, end, lang):
    for state in (start, end):
        for seat in range(state.n):
            img = render_hand(GAME.view(state, seat), NAMES, lang)
            assert img.width == 1000 and img.height > 600


# --- the end ------------------------------------------------------------------------------------------------------
def test_final_image_with_the_result(end):
    view = GAME.view(end, None)
    assert view.result is not None
    for lang in ("en", "ja"):
        img = render_final(view, NAMES, lang)
        assert img.width == 1100 and img.height >= 600
        colours = set(img.get_flattened_data())
        for p in view.result.players:  # every player appears in their colour
            assert any(close(c, style.player_rgb(p.seat), 6) for c in colours)
    # money and city cards are both drawn as bar segments
    from render.santa_fe.final import CATEGORY_COLOURS

    img = render_final(view, NAMES, "en")
    for colour in CATEGORY_COLOURS.values():
        assert _count(img, colour, 4) > 2000


def test_final_refuses_a_running_game(mid):
    with pytest.raises(ValueError):
        render_final(GAME.view(mid, None), NAMES, "en")


# --- encoding, caching, size --------------------------------------------------------------------------------------
def test_pngs_under_2mb(mid, end):
    r = GameRenderer("santa_fe", RENDERER)
    assert_pngs([
        (r.board(GAME.view(end, None), NAMES, "ja"), (1270, 1350)),
        (r.board(GAME.view(mid, None), NAMES, "en"), (1270, 1350)),
        (r.hand(GAME.view(mid, 0), NAMES, "en"), None),
        (r.final(GAME.view(end, None), NAMES, "en"), None),
    ], PNG_LIMIT)


def test_static_layer_is_built_once_per_language(mid):
    assert_static_layer_built_once_per_language(board_mod, GAME, mid, NAMES)
