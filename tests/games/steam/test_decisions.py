"""Steam's menus say what the moves do: the words on each pick are checked against what the
move then does to the game (what a build costs, who a delivery's points go to, what income or
points become), on positions of whole bot games on both maps, basic and standard."""
from __future__ import annotations

from functools import lru_cache

import pytest

from games.core.choices import Place
from games.core.i18n import LANGUAGES, has_key, translate
from games.steam import decisions as d
from games.steam.models import COLOURS
from games.steam.rules import GAME
from games.steam.tiles import tileset
from tests.support.bot_games import bot_steps
from tests.support.protocol_checks import catalog_keys

CONFIGS = [("northeast", False, 4, 21), ("rhine_ruhr", True, 5, 22), ("northeast", True, 3, 23),
           ("rhine_ruhr", False, 4, 24)]


@lru_cache(maxsize=None)
def _states(map_id: str, standard: bool, players: int, seed: int) -> tuple:
    return tuple(s.state for s in bot_steps(GAME, players, seed, "builder", {"map": map_id, "standard": standard}))


def _all_states(phase: str | None = None):
    for config in CONFIGS:
        for state in _states(*config):
            if phase is None or state.phase == phase:
                yield state


def _menu(state):
    seat = GAME.current(state)
    return seat, GAME.decision(state, seat)


def _sample(states: list, k: int = 12) -> list:
    return states[:: max(1, len(states) // k)]


def test_every_word_of_every_menu_is_in_both_catalogs() -> None:
    keys: set[str] = set()
    for state in _sample(list(_all_states()), 200):
        seat, menu = _menu(state)
        if menu.prompt is not None:
            keys |= catalog_keys(menu.prompt)
        for choice in menu.choices:
            for pick in choice.path:
                keys |= {pick.step} | catalog_keys(pick.label) | catalog_keys(pick.detail)
        for amount in menu.amounts:
            keys |= {amount.step} | catalog_keys(amount.label)
    missing = sorted((lang, k) for lang in LANGUAGES for k in keys if not has_key(lang, k))
    assert not missing, missing[:10]
    assert set(d.STEPS) <= keys, set(d.STEPS) - keys


def test_every_event_of_whole_games_is_in_both_catalogs() -> None:
    keys: set[str] = set()
    for config in CONFIGS:
        for step in bot_steps(GAME, config[2], config[3], "random", {"map": config[0], "standard": config[1]}):
            keys |= catalog_keys(GAME.apply(step.state, step.seat, step.action).events)
    missing = sorted((lang, k) for lang in LANGUAGES for k in keys if not has_key(lang, k))
    assert not missing, missing[:10]


def test_auctions_are_an_amount_from_the_minimum_and_a_pass() -> None:
    seen = set()
    for state in _all_states():
        if state.phase not in ("first_auction", "auction"):
            continue
        seat, menu = _menu(state)
        low, high = GAME.bid_range(state, seat)
        step = d.FIRST_BID if state.phase == "first_auction" else d.BID
        assert [c.notation for c in menu.choices] == ["pass"] and menu.choices[0].path[0].step == step
        if low <= high:
            (amount,) = menu.amounts
            assert (amount.step, amount.min, amount.max, amount.template) == (step, low, high, "bid {}")
            assert amount.label.params["minimum"] == low and amount.label.params["maximum"] == high
        else:
            assert menu.amounts == []
        seen.add(state.phase)
    assert seen == {"first_auction", "auction"}


def test_capital_is_an_amount_down_to_the_lowest_income() -> None:
    found = 0
    for state in _all_states("capital"):
        seat, menu = _menu(state)
        (amount,) = menu.amounts
        assert amount.template == "capital {}" and amount.min == 0
        assert amount.max == state.players[seat].income - amount.label.params["lowest"]
        assert amount.label.params["income"] == state.players[seat].income
        found += 1
    assert found


def test_action_tiles_say_number_price_and_what_they_do() -> None:
    basic = standard = declined = 0
    for state in _all_states("actions"):
        seat, menu = _menu(state)
        cash_before = state.players[seat]
        for choice in menu.choices:
            (pick,) = choice.path
            tile = choice.notation.split()[1]
            assert pick.label.params["tile"] == {"key": f"steam.tile.{tile}"}
            if choice.notation.startswith("decline"):
                assert tile in ("city_growth", "urbanize") and not state.options.standard
                declined += 1
                continue
            assert pick.detail is not None and pick.detail.key.startswith(f"steam.tile_help.{tile}")
            if state.options.standard:
                assert pick.label.key == "steam.choice.take_standard"
                standard += 1
                continue
            basic += 1
            after = GAME.apply(state, seat, GAME.parse_action(choice.notation)).state
            paid = after.bank_in - state.bank_in  # what the tile cost, raised cash included
            cost = pick.label.params["cost"]
            assert (cost == {"key": "steam.choice.free"}) == (paid == 0), (choice.notation, cost, paid)
            if paid:
                assert cost["params"]["amount"] == paid
            assert cash_before == state.players[seat]  # the menu's state is untouched
    assert basic and standard and declined


def _builds(limit: int = 40):
    """Build menus of the sampled games, most crowded first."""
    menus = []
    for state in _sample(list(_all_states("build")), 60):
        seat, menu = _menu(state)
        menus.append((state, seat, menu))
    menus.sort(key=lambda x: -len(x[2].choices))
    return menus[:limit]


def test_a_build_is_hex_then_tile_in_place_and_costs_what_it_says() -> None:
    """A hex with few ways offers each tile turned each way as one pick; a hex with more asks for
    the tile, then the way round. Every pick after the hex names the hex and what it lays there."""
    kinds = set()
    shapes = set()
    checked = 0
    for state, seat, menu in _builds():
        places = [c for c in menu.choices if c.notation.split()[0] in ("build", "upgrade", "redirect")]
        legal = {GAME.format_action(a) for a in GAME.placements(state, seat)}
        assert {c.notation for c in places} == legal
        ways = {}
        for c in places:
            ways[c.path[0].value] = ways.get(c.path[0].value, 0) + 1
        for choice in places[:: max(1, len(places) // 15)]:
            how, hex_label, face, rotation = choice.notation.split()
            hex_pick, *rest = choice.path
            assert hex_pick.step == d.BUILD and hex_pick.value == hex_label
            assert hex_pick.place == Place(kind="hex", at=(hex_label,))
            if ways[hex_label] <= d.PLACEMENTS_AT_ONCE:
                (tile_pick,) = rest
                assert tile_pick.step == d.TILE
                assert tile_pick.value == (face if how == "build" else f"{how} {face}") + f" {rotation}"
                face_label, rot_label = tile_pick.label.params["tile"], tile_pick.label.params["way"]
                rot_pick = tile_pick
            else:
                face_pick, rot_pick = rest
                assert (face_pick.step, rot_pick.step) == (d.FACE, d.ROTATION) and rot_pick.value == rotation
                face_label, rot_label = face_pick.label.model_dump(), rot_pick.label.model_dump()
                # the tile step shows the face in place, turned its first legal way
                first = min(int(c.notation.split()[3][1:]) for c in places
                            if c.path[0].value == hex_label and c.path[1].value == face_pick.value)
                assert face_pick.place == Place(kind="hex", at=(hex_label,), show=f"{how} {face} {first}")
            assert rot_pick.place == Place(kind="hex", at=(hex_label,), show=f"{how} {face} {rotation[1:]}")
            shapes.add(len(choice.path))
            assert face_label["key"] == f"steam.choice.face_{how}" and face_label["params"]["face"] == face
            exits = sorted(tileset().faces[face].exits_at(int(rotation[1:])))
            assert rot_label["params"]["sides"] == [{"key": f"steam.side.{s}"} for s in exits]
            assert len(rot_pick.detail.params["exits"]) == len(exits)
            result = GAME.apply(state, seat, GAME.parse_action(choice.notation))
            before, after = state.players[seat], result.state.players[seat]
            raised = sum(e.params["amount"] for e in result.events if e.key == "steam.ev.raised")
            paid = before.cash + raised - after.cash
            assert rot_label["params"]["cost"] == paid, (choice.notation, paid)
            kinds.add(how)
            checked += 1
    assert checked and {"build", "upgrade"} <= kinds, kinds
    assert shapes == {2, 3}, shapes


def test_urbanize_and_growth_are_town_colour_space_and_city_space() -> None:
    urbanized = grown = 0
    for state in _all_states("build"):
        seat = GAME.current(state)
        if not (GAME.urbanizations(state, seat) or GAME.growths(state, seat)):
            continue
        menu = GAME.decision(state, seat)
        for choice in menu.choices:
            kind = choice.notation.split()[0]
            if kind == "urbanize":
                _, town, colour, space = choice.notation.split()
                steps = [p.step for p in choice.path]
                assert steps == [d.BUILD, d.TOWN, d.COLOUR, d.SUPPLY]
                assert [p.value for p in choice.path[1:]] == [town, colour, space]
                urbanized += 1
            elif kind == "grow":
                _, city, space = choice.notation.split()
                assert [p.step for p in choice.path] == [d.BUILD, d.CITY, d.SUPPLY]
                supply = choice.path[2]
                counts = state.supply[int(space) - 1]
                shown = {c["params"]["colour"]["key"]: c["params"]["count"] for c in supply.label.params["cubes"]}
                assert shown == {f"steam.colour.{COLOURS[k]}": n for k, n in enumerate(counts) if n}
                grown += 1
    assert urbanized and grown


def test_a_delivery_is_cube_then_route_with_each_owners_points() -> None:
    checked = 0
    for state in _all_states("deliver"):
        if state.pending:
            continue
        seat, menu = _menu(state)
        for choice in menu.choices:
            if not choice.notation.startswith("deliver"):
                continue
            cube, route = choice.path
            assert (cube.step, route.step) == (d.CUBE, d.ROUTE)
            city, colour = cube.value.split(":")
            assert cube.label.params["count"] == state.cubes[city][COLOURS.index(colour)] >= 1
            after = GAME.apply(state, seat, GAME.parse_action(choice.notation)).state
            scored = {s: p for s, p in after.pending}
            shown = {}
            for owner in route.label.params["owners"]:
                if owner["key"] == "steam.choice.you_points":
                    shown[seat] = owner["params"]["points"]
                elif owner["key"] == "steam.choice.owner_points":
                    shown[owner["params"]["owner_seat"]] = owner["params"]["points"]
            if scored:  # a delivery that scores nobody but unowned links moves straight on
                assert shown == scored, (choice.notation, shown, scored)
            assert route.label.params["links"] == len(after.last_route)
            assert route.label.params["route"].split("→") == after.last_route_places
            checked += 1
        notations = [c.notation for c in menu.choices]
        assert notations[-1] == "pass"
    assert checked


def test_income_or_points_says_what_each_becomes() -> None:
    seen = 0
    for state in _all_states("deliver"):
        if not state.pending:
            continue
        seat, menu = _menu(state)
        assert seat == state.pending[0][0]
        income, points = menu.choices
        assert (income.notation, points.notation) == ("income", "points")
        after_income = GAME.apply(state, seat, GAME.parse_action("income")).state.players[seat]
        after_points = GAME.apply(state, seat, GAME.parse_action("points")).state.players[seat]
        assert income.path[0].label.params["after"] == after_income.income
        assert points.path[0].label.params["after"] == after_points.points
        seen += 1
    assert seen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_route_label_reads_as_places_links_and_owners(lang: str) -> None:
    for state in _all_states("deliver"):
        if state.pending:
            continue
        seat, menu = _menu(state)
        routes = [c.path[1] for c in menu.choices if c.notation.startswith("deliver")]
        if routes:
            text = translate(lang, routes[0].label.key, routes[0].label.params, ["A", "B", "C", "D", "E"])
            assert routes[0].label.params["route"] in text
            assert "{" not in text and "steam." not in text, text
            return
    pytest.fail("no delivery menu in the sampled games")
