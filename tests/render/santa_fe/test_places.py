"""Santa Fe's sections picked on the map: every section and end option of every track-laying
decision of whole bot-played games (basic and advanced) is a place the board image locates:
its number on the space its tile would take (halfway along an empty section open at both
ends), the spaces still to build traced from there, and in the advanced game the cost the menu
states printed beside it. The pick pictures are legible at 400 px, on dark badges."""
from __future__ import annotations

import math

import pytest

from games.santa_fe.map import west
from games.santa_fe.rules import GAME
from render.kit.picking import INK
from render.santa_fe.layout import board_layout
from tests.support.bot_games import bot_steps
from tests.support.place_steps import check_located, check_pictures_legible, check_regions, place_steps

NAMES = ["Alice", "山田太郎", "🚂Choo", "Zoë", "Bob"]
BOARD = west()


def BOARD_XY(city: str):
    return board_layout().cities[BOARD.city_index[city]]


@pytest.fixture(scope="module", params=[(4, 3, False), (3, 9, False), (4, 7, True), (5, 8, True)],
                ids=lambda p: f"{p[0]}p-seed{p[1]}-{'advanced' if p[2] else 'basic'}")
def steps(request):
    players, seed, advanced = request.param
    out = []
    for step in bot_steps(GAME, players, seed, "builder", {"advanced": advanced}):
        state = step.state
        if state.phase != "track":
            continue
        seat = step.seat
        view = GAME.view(state, seat)
        for found in place_steps(GAME, state, seat):
            out.append((state, seat, view, found))
    return out


def _cost_in(label) -> int:
    """The cost a placement's label states (0: free, or the basic game)."""
    cost = label.params.get("cost")
    if isinstance(cost, dict) and cost.get("key") == "santa_fe.choice.cost":
        return cost["params"]["cost"]
    return 0


def test_every_section_option_is_located_on_its_next_space(steps):
    layout = board_layout()
    checked = both = noted = most = 0
    for state, seat, view, step in steps:
        marks = check_located("santa_fe", view, step.options)
        check_regions("santa_fe", marks)
        most = max(most, len(marks))
        placed = [o for o in step.options if o.place is not None]
        assert all(o.place.kind == "section" for o in placed)
        assert len(placed) == len(step.options) or step.options[0].step == "santa_fe.step.railroad"
        for option, mark in zip(placed, marks):
            sid = BOARD.section_by_code[option.place.at[0].lower()]
            spaces = layout.sections[sid].spaces
            built = state.sec_built[sid]
            if len(option.place.at) == 2:  # laid from a settled end: on that tile's space
                end = BOARD.ends[sid].index(BOARD.city_index[option.place.at[1]])
                space = spaces[layout.space_index(sid, built, end)]
                assert math.dist(mark.spot, space.center) <= (space.length / 4 if len(spaces) == 1 else 0) + 1e-6
                far = spaces[-1] if end == 0 else spaces[0]
                assert math.dist(mark.line[-2], far.center) < 1e-6  # traced to the far end
                cost = _cost_in(option.label)
                assert mark.note == (f"${cost}" if cost else None), (option.value, mark.note)
                noted += bool(cost)
            else:  # open at both ends: halfway along, the whole section traced
                assert built == 0 and len(mark.line) == len(spaces) + 2
                assert math.dist(mark.spot, layout.sections[sid].spaces[len(spaces) // 2].center) <= 40
                both += 1
            assert mark.keep > 0  # traced round, its river and mountain marks left in sight
            checked += 1
    assert checked > 100 and most >= 5 and both > 0


def test_the_end_step_numbers_each_end_of_one_section(steps):
    layout = board_layout()
    ends = 0
    for state, seat, view, step in steps:
        if step.options[0].step != "santa_fe.step.end":
            continue
        marks = check_located("santa_fe", view, step.options)
        (code,) = {o.place.at[0] for o in step.options}
        spaces = layout.sections[BOARD.section_by_code[code.lower()]].spaces
        a, b = (BOARD.cities[c].name for c in BOARD.ends[BOARD.section_by_code[code.lower()]])
        spots = {o.place.at[1]: m.spot for o, m in zip(step.options, marks)}
        # each number at its own end
        assert math.dist(spots[a], BOARD_XY(a)) < math.dist(spots[b], BOARD_XY(a))
        assert math.dist(spots[b], BOARD_XY(b)) < math.dist(spots[a], BOARD_XY(b))
        if len(spaces) > 1:
            assert spots == {a: spaces[0].center, b: spaces[-1].center}
        ends += 1
    assert ends > 0


def test_costs_are_noted_in_the_advanced_game_only(steps):
    notes = [m.note for state, seat, view, step in steps
             for m in check_located("santa_fe", view, step.options) if m.note]
    advanced = any(state.options.advanced for state, *_ in steps)
    assert bool(notes) == advanced
    assert all(n.startswith("$") for n in notes)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_pick_pictures_are_legible_at_400_px_with_dark_badges(steps, lang):
    drawn = 0
    for state, seat, view, step in steps[::max(1, len(steps) // 5)]:
        for pic in check_pictures_legible("santa_fe", view, step.options, NAMES[:view.n], lang):
            for badge in pic.badges:  # dark: a pick number is never taken for a city's value
                r = pic.image.width * 22 / 400 / 2
                assert pic.image.getpixel((round(badge.centre[0] - r * 0.6), round(badge.centre[1]))) == INK
            drawn += 1
    assert drawn >= 4
