"""Galactic Railway's placements picked on the table: every placement of every decision of
whole bot-played games is a pair of cells the board image locates, in the quarter of half L's
cell towards half R; the pick pictures are legible at 400 px; and the hand image's tables
number a tile's placements exactly as the pick picture of that tile's step does."""
from __future__ import annotations

import pytest

from games.ginga.board import parse_cell
from games.ginga.decisions import where
from games.ginga.rules import GAME
from games.core.i18n import translate
from render import pick
from render.ginga import hand as hand_mod
from render.ginga import placements
from render.ginga.board import Grid
from render.ginga.places import menu_numbers
from render.kit.legibility import recording_text_sizes
from tests.support.bot_games import bot_states
from tests.support.place_steps import check_located, check_pictures_legible, check_regions, place_steps

NAMES = ["Alice", "山田太郎", "Bob", "Zoë"]


@pytest.fixture(scope="module", params=[(2, 3), (3, 8), (4, 5)], ids=lambda p: f"{p[0]}p-seed{p[1]}")
def states(request):
    players, seed = request.param
    return bot_states(GAME, players, seed, "scorer")


def _steps(states):
    for state in states:
        if state.step == "over":
            continue
        seat = state.current
        view = GAME.view(state, seat)
        for step in place_steps(GAME, state, seat):
            yield state, seat, view, step


def test_every_placement_is_located_in_its_quarter_and_steps_stay_within_25(states):
    checked = most = 0
    for state, seat, view, step in _steps(states):
        marks = check_located("ginga", view, step.options)
        check_regions("ginga", marks)
        grid = Grid.of(view)
        for option, mark in zip(step.options, marks):
            (lx, ly), (rx, ry) = (parse_cell(c) for c in option.place.at)
            x0, y0 = grid.origin(lx, ly)
            sx, sy = mark.spot
            assert x0 < sx < x0 + grid.cell and y0 < sy < y0 + grid.cell, option.value  # in half L's cell
            cx, cy = grid.centre(lx, ly)
            # on the side of half R (its quarter touches that edge) ...
            assert (sx - cx) * (rx - lx) > 0 or (sy - cy) * (ry - ly) > 0, option.value
            # ... and its line points into half R's cell
            ex, ey = mark.line[-1]
            rx0, ry0 = grid.origin(rx, ry)
            assert rx0 <= ex <= rx0 + grid.cell and ry0 <= ey <= ry0 + grid.cell, option.value
            checked += 1
        most = max(most, len(step.options))
    assert checked > 200 and most > 10


def test_the_hand_numbers_are_the_pick_pictures_numbers(states):
    compared = 0
    for state, seat, view, step in _steps(states):
        tile = step.picks[0]
        mine = [o for o in view.options if o.tile == tile]
        marks = pick.locate("ginga", view, [o.place for o in step.options])
        regions = pick.plan("ginga", marks)
        hand = dict(zip((where(o.cells) for o in mine), menu_numbers(view, mine)))
        assert set(hand) == {o.place for o in step.options}
        if len(regions) > 1:  # numbered per region in the menu: the hand shows no numbers then
            assert set(hand.values()) == {None}
            continue
        assert hand == {step.options[i].place: k + 1 for k, i in enumerate(regions[0])}
        compared += 1
    assert compared > 20


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_pick_pictures_are_legible_at_400_px(states, lang):
    drawn = 0
    steps = list(_steps(states))
    for state, seat, view, step in steps[::max(1, len(steps) // 6)]:
        drawn += len(check_pictures_legible("ginga", view, step.options, NAMES[:view.n], lang))
    assert drawn >= 5


def test_a_tile_the_menu_splits_into_parts_has_no_numbers_in_the_hand():
    state = bot_states(GAME, 2, 3, "scorer")[9]  # T32, 30 places: two regions in the menu
    view = GAME.view(state, state.current)
    mine = [o for o in view.options if o.tile == "T32"]
    marks = pick.locate("ginga", view, [where(o.cells) for o in mine])
    assert len(mine) > 25 and len(pick.plan("ginga", marks)) == 2
    assert menu_numbers(view, mine) == [None] * len(mine)
    with recording_text_sizes() as sizes:
        hand_mod.render_hand(view, NAMES[:2])
    badges = [text for size, text in sizes.drawn if text.isdigit() and size != placements.NAME_SIZE]
    assert badges == ["1", "2"]  # the legend's two badges; the rest are row names
    assert translate("en", "ginga.render.numbers_parts").split(":")[0].split()[-1] in " ".join(t for _, t in sizes.drawn)
