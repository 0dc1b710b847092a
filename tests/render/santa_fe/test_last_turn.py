"""Santa Fe images as players see them: colours every reader can tell apart, the whole last
turn on the map and in words, type that reads 400 px wide, alt text, and a final image with
the score over time and each played city's points."""
import math

import pytest

from games.core.i18n import translate
from games.santa_fe.map import west
from games.santa_fe.rules import GAME
from render.kit.highlight import HALO_LIGHT
from render.kit.legibility import min_font_px, recording_text_sizes
from render.kit.images import Palette
from render.kit.vision import problems
from render.santa_fe import PALETTE, RAILROADS, RENDERER, style
from render.santa_fe.alt import describe_board, describe_final, describe_hand
from render.santa_fe.board import _build_static, last_tile_spaces, render_board, static_map
from render.santa_fe.tags import played_marks
from render.santa_fe.final import detail_lines, render_final
from render.santa_fe.hand import render_hand
from render.santa_fe.layout import BOARD_W, board_layout
from render.santa_fe.sidebar import last_turn_lines
from tests.support.bot_games import bot_states

NAMES = ["Alice", "山田太郎", "Carol", "Dave"]


def _play(seed: int, n: int = 4, options: dict | None = None) -> list:
    return bot_states(GAME, n, seed, "builder", options)


@pytest.fixture(scope="module")
def states():
    return _play(5)


def test_palette_and_railroads_pass_the_colour_vision_check():
    assert RENDERER.palette is PALETTE
    assert problems(PALETTE) == []
    assert problems(RAILROADS) == []  # GN and UP no longer both olive


def test_a_double_turn_keeps_both_tiles_and_both_events(states):
    doubles = [s for s in states if s.phase in ("track", "draw", "exchange") and len(s.turn_tiles) == 2]
    assert doubles, "this game should have a double turn"
    s = doubles[0]
    view = GAME.view(s, None)
    assert len(last_tile_spaces(view)) == 2
    assert sum(e.key.startswith("santa_fe.ev.placed") for e in view.turn_events) == 2
    assert view.turn_seat == s.turn_key[0]


def test_scores_are_kept_after_every_turn_and_end_on_the_totals(states):
    end = GAME.view(states[-1], None)
    assert len(end.scores) > 20
    totals = {r.seat: r.total for r in end.result.players}
    assert end.scores[-1] == [totals[i] for i in range(end.n)]


def test_the_last_tiles_wear_the_halo(states):
    layout = board_layout()
    k = next(i for i in range(1, len(states)) if states[i].turn_tiles and states[i].phase == "track")
    view = GAME.view(states[k], None)
    img = render_board(view, NAMES, "en")
    sid, index = last_tile_spaces(view)[-1]
    space = layout.sections[sid].spaces[index]
    # just beside the tile, across it: white halo band
    nx, ny = -math.sin(space.angle), math.cos(space.angle)
    xy = (round(space.center[0] + nx * 10), round(space.center[1] + ny * 10))
    assert img.getpixel(xy) == HALO_LIGHT
    before = render_board(GAME.view(states[k - 1], None), NAMES, "en") if not states[k - 1].turn_tiles else None
    if before is not None:
        assert before.getpixel(xy) != HALO_LIGHT


def test_who_played_which_city_is_on_the_map(states):
    view = GAME.view(states[-1], None)
    img = render_board(view, NAMES, "en")
    marks = {(city, seat): xy for city, seat, xy in played_marks(view.players, static_map("en").slots)}
    for p in view.players:
        for city in p.played:
            x, y = marks[city, p.seat]
            assert img.getpixel((round(x), round(y))) == style.player_rgb(p.seat)


def test_the_last_turn_box_keeps_the_end_when_short(states):
    end = GAME.view(states[-1], None)
    full = last_turn_lines(end, NAMES, "en", 300, 100)
    over = translate("en", end.turn_events[-1].key, end.turn_events[-1].params, NAMES)
    assert end.end_reason and over.endswith(full[-1])  # the game's end is the last line
    assert len(full) > 3
    short = last_turn_lines(end, NAMES, "en", 300, 3)
    assert len(short) == 3 and short[-1] == full[-1] and "…" in " ".join(short)
    assert short[0] == full[0]  # the turn's first move, which names its player


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_board_text_reads_at_400_px(states, lang):
    view = GAME.view(states[len(states) // 2], None)
    with recording_text_sizes() as sizes:
        _build_static(lang)
        render_board(view, NAMES, lang)
    assert sizes.smallest()[0] >= min_font_px(BOARD_W), sizes.smallest()


def test_city_values_are_drawn_as_text_big_enough_to_read_at_400_px():
    """The value in every city marker decides where players build: it goes through the kit's
    text (so the legibility check sees it) at the board's smallest readable size."""
    board = west()
    with recording_text_sizes() as sizes:
        _build_static("en")
    smallest = min_font_px(BOARD_W)
    for value in sorted({v for v in board.values if v}):
        drawn = [size for size, text in sizes.drawn if text == str(value)]
        markers = sum(1 for v in board.values if v == value)
        assert len(drawn) >= markers, (value, drawn)  # one per city marker (and the legend's 5)
        assert min(drawn) >= smallest, (value, drawn)


def test_hand_cards_name_each_railroad_beside_its_distance(states):
    """On each city card every railroad's chip carries its code, not only its colour."""
    k = next(i for i, s in enumerate(states) if s.phase == "track" and i > 30)
    seat = 1
    view = GAME.view(states[k], seat)
    with recording_text_sizes() as sizes:
        img = render_hand(view, NAMES, "en")
    cards = len(view.players[seat].hand)
    assert cards
    for r in range(len(west().railroads)):
        assert sum(1 for _, text in sizes.drawn if text == style.rr_code(r)) >= cards
    assert sizes.smallest()[0] >= min_font_px(img.width)


def test_hand_map_rings_stay_apart_for_every_reader():
    """The hand map rings the cities in hand and the cities played: two marks that must differ
    in every colour vision, and neither a seat colour (which could look like the other)."""
    rings = Palette(players=[style.HIGHLIGHT, style.PLAYED_RING], surfaces={"land": style.LAND})
    assert problems(rings) == []
    assert style.PLAYED_RING not in style.PLAYER_COLORS


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hand_and_final_alt_text(states, lang):
    k = next(i for i, s in enumerate(states) if s.phase == "track" and i > 30)
    view = GAME.view(states[k], 1)
    hand = describe_hand(view, NAMES, lang)
    assert NAMES[1] in hand and f"${view.players[1].money}" in hand
    board = west()
    for city in view.players[1].hand:
        assert board.city_label(city, lang) in hand
    end = GAME.view(states[-1], None)
    final = describe_final(end, NAMES, lang)
    assert len(final) <= 1024
    top = end.result.players[0]
    assert NAMES[top.seat] in final and str(top.total) in final
    assert detail_lines(end, top.seat, lang)[0] in final  # the winner's first city and its points


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_alt_text_names_the_waited_on_player_the_scores_and_the_last_move(states, lang):
    k = next(i for i, s in enumerate(states) if s.phase == "track" and s.turn_tiles and i > 30)
    view = GAME.view(states[k], None)
    text = describe_board(view, NAMES, lang)
    assert len(text) <= 1024
    assert NAMES[view.current] in text
    for p in view.players:
        assert f"${p.money}" in text and str(p.score) in text
    last = [e for e in view.turn_events if e.key.startswith("santa_fe.ev.placed")][-1]
    assert translate(lang, last.key, last.params, NAMES) in text
    final = describe_final(GAME.view(states[-1], None), NAMES, lang)
    assert len(final) <= 1024 and all(n in final for n in NAMES)
    # who played which city card, for every player who played one
    board = west()
    for p in view.players:
        if p.played:
            assert board.city_label(p.played[0], lang) in text


def test_final_image_adds_the_timeline_and_each_played_city(states):
    view = GAME.view(states[-1], None)
    img = render_final(view, NAMES, "en")
    assert img.height > 1200
    for p in view.players:
        lines = detail_lines(view, p.seat, "en")
        assert len(lines) == len(p.played)


def test_advanced_game_renders(states):
    adv = _play(9, 3, {"advanced": True, "buy_track": True})
    for s in (adv[len(adv) // 2], adv[-1]):
        assert render_board(GAME.view(s, None), NAMES, "ja").size == (1270, 1350)
    assert adv[-1].scores[-1] == [r.total for r in sorted(GAME.result(adv[-1]).players, key=lambda r: r.seat)]


def test_a_game_stored_before_scores_were_kept_still_gets_its_final_image(states):
    """States saved before the last-turn fields existed load with their defaults; the final
    image still draws, its chart ending on the totals."""
    old = states[-1].model_copy(update={"scores": [], "turn_key": [], "turn_events": [], "turn_tiles": []})
    view = GAME.view(old, None)
    assert view.turn_seat is None and view.scores == []
    assert render_final(view, NAMES, "en").width == render_final(GAME.view(states[-1], None), NAMES, "en").width
    assert render_board(view, NAMES, "ja").size == (1270, 1350)
