"""Ticket to Ride's routes picked on the map: every claimable route of every decision of whole
bot-played games is a place named by its cities (a double route's halves told apart) that the
board image locates, its number on the route's middle car and its cars traced round; the
picture is shown only when more than 10 routes are offered, legible at 400 px."""
from __future__ import annotations

import math

import pytest

from bot.discord.chooser import NAMED_AT_MOST, on_board
from games.ticket_to_ride.decisions import ROUTE
from games.ticket_to_ride.rules import GAME
from render.ticket_to_ride.board import marked_car
from render.ticket_to_ride.layout import CAR_W, MAP_Y, board_layout
from tests.support.bot_games import bot_steps
from tests.support.place_steps import check_located, check_pictures_legible, check_regions, place_steps

NAMES = ["Alice", "山田太郎", "🚂Choo", "Zoë", "Bob"]
BOARD = GAME.board


@pytest.fixture(scope="module", params=[(2, 5), (4, 3), (5, 9)], ids=lambda p: f"{p[0]}p-seed{p[1]}")
def steps(request):
    players, seed = request.param
    out = []
    for step in bot_steps(GAME, players, seed, "planner")[::2]:  # every other turn: walking menus is slow
        state = step.state
        view = GAME.view(state, step.seat)
        for found in place_steps(GAME, state, step.seat):
            out.append((state, step.seat, view, found))
    return out


def test_every_claimable_route_is_a_named_place_on_its_middle_car(steps):
    layout = board_layout()
    checked = pictured = 0
    for state, seat, view, step in steps:
        assert step.picks == ("claim",) and all(o.step == ROUTE for o in step.options)
        marks = check_located("ticket_to_ride", view, step.options)
        regions = check_regions("ticket_to_ride", marks)
        assert len({o.place.at for o in step.options}) == len(step.options)  # double halves apart
        for option, mark in zip(step.options, marks):
            route = BOARD.routes[int(option.value)]
            assert option.place.kind == "route" and option.place.named
            assert option.place.at[:2] == (route.a, route.b)
            assert (len(option.place.at) == 3) == (route.id in BOARD.twin)
            x, y = marked_car(route.id).center
            assert mark.spot == (x, y + MAP_Y)
            cars = layout.routes[route.id].cars
            assert len(mark.line) == len(cars) + 2 and mark.keep >= CAR_W  # the cars, left in sight
            assert math.dist(mark.line[1], (cars[0].center[0], cars[0].center[1] + MAP_Y)) < 1e-6
            checked += 1
        # the cities name the routes: a picture only when they are many
        assert on_board(step.options) == (len(step.options) > NAMED_AT_MOST)
        pictured += on_board(step.options)
        assert len(regions) <= 4, [len(r) for r in regions]
    assert checked > 200 and pictured > 5 and any(len(s[3].options) <= NAMED_AT_MOST for s in steps)


def test_the_two_halves_of_a_double_route_get_different_spots():
    for first, second in BOARD.twin.items():
        if first < second:
            a, b = marked_car(first).center, marked_car(second).center
            assert math.dist(a, b) >= 15, (BOARD.routes[first].code, a, b)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_pick_pictures_are_legible_at_400_px(steps, lang):
    drawn = 0
    pictured = [s for s in steps if on_board(s[3].options)]
    for state, seat, view, step in pictured[::max(1, len(pictured) // 3)]:
        drawn += len(check_pictures_legible("ticket_to_ride", view, step.options, NAMES[:view.n], lang))
    assert drawn >= 4
