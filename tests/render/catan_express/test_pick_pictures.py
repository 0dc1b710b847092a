"""Catan Express's pick pictures (render/catan_express/picks.py through render.pick): legible
when Discord shows them 400 px wide, badges apart, and cropped from a map that prints no
intersection numbers of its own, so that every number on a white plate is an option's.

The pictures are those a person is shown: every region of the first settlement on the main
board (3 and 6 players) and on the 6-player islands (the most intersections), and the steps of
bot-played games that name places (a rail's intersection and spoke, a ferry's edge, the robber's
hex, the locomotive's way).
"""
from __future__ import annotations

import itertools
import math
import random

import pytest

from bot.discord import picking as discord_picking
from games.catan_express.bots import BOTS
from games.catan_express.rules import GAME
from render import pick as pick_render
from render.catan_express import board as board_mod
from render.catan_express.picks import size
from render.catan_express.sizes import MIN_TEXT
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes, smallest_at
from render.kit.picking import PICTURE_WIDTH, badge_size
from tests.games.catan_express.test_places import stops_of

NAMES = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]


def pictures_of(view, options, lang: str = "en") -> list:
    """Every region's picture of a step, numbered as the chooser numbers it."""
    lay = discord_picking.layout("catan_express", view, options)
    assert lay is not None
    out = []
    for r, region in enumerate(lay.regions):
        numbers = lay.numbers(r)
        places = [options[i].place for i in region]
        with recording_text_sizes() as sizes:
            made = pick_render.picture("catan_express", view, NAMES[:view.state.n], lang, places,
                                       [numbers[i] for i in region])
        out.append((made, sizes, len(region)))
    return out


def check_legible(made, sizes, count: int) -> None:
    width = made.image.width
    assert width == PICTURE_WIDTH
    assert made.image.height <= width * 1.2 + 1
    # the badges' digits and any text drawn on the picture: at least the floor at 400 px
    assert sizes.smallest_at(width) >= MIN_TEXT_PX_AT_400, sizes.smallest()
    # the map's own words are MIN_TEXT on the map: the crop never shrinks them below the floor
    x0, _, x1, _ = made.box
    assert smallest_at(MIN_TEXT * width / (x1 - x0), width) >= MIN_TEXT_PX_AT_400
    diameter, _ = badge_size(width)
    assert len(made.badges) == count
    for a, b in itertools.combinations(made.badges, 2):
        assert math.dist(a.centre, b.centre) >= diameter * 0.9, (a, b)
    for b in made.badges:
        assert diameter / 2 - 1 <= b.centre[0] <= width - diameter / 2 + 1
        assert diameter / 2 - 1 <= b.centre[1] <= made.image.height - diameter / 2 + 1


@pytest.mark.parametrize("players,map_id,regions", [(3, "main", 3), (6, "main", 4), (6, "islands", 5)])
def test_the_first_settlement_by_region_is_legible_at_400(players: int, map_id: str, regions: int) -> None:
    state = GAME.setup(players, {"map": map_id}, 2)
    decision = GAME.decision(state, state.current)
    options = decision.first_step()
    assert len(options) == len(GAME.geo(state).intersections)
    shown = pictures_of(GAME.view(state, state.current), options)
    assert len(shown) == regions
    for made, sizes, count in shown:
        check_legible(made, sizes, count)


@pytest.mark.parametrize("players,map_id,seed", [(5, "main", 3), (6, "islands", 5)])
def test_the_places_of_a_game_are_legible_at_400(players: int, map_id: str, seed: int) -> None:
    """One picture of each kind of step a bot game meets, in English and Japanese."""
    rng = random.Random(seed)
    state = GAME.setup(players, {"map": map_id}, seed)
    lineup = ["builder"] * players
    lineup[seed % players] = "random"
    done: set[tuple[str, str, str]] = set()
    moves = 0
    while state.phase != "over" and moves < 20_000:
        seat = min(GAME.active_players(state))
        for stop in stops_of(GAME.decision(state, seat)):
            placed = [o for o in stop.options if o.place is not None]
            kind = (state.phase, stop.step, stop.picks[0] if stop.picks else "")
            if len(placed) < 2 or kind in done:
                continue
            done.add(kind)
            lang = "ja" if len(done) % 2 else "en"
            for made, sizes, count in pictures_of(GAME.view(state, seat), stop.options, lang):
                check_legible(made, sizes, count)
        state = GAME.apply(state, seat, BOTS[lineup[seat]].choose(GAME, state, seat, rng)).state
        moves += 1
    steps = {step for _, step, _ in done}
    assert {"catan_express.step.point", "catan_express.step.centre", "catan_express.step.hex", "catan_express.step.next"} <= steps, steps


def test_the_map_of_a_pick_picture_prints_no_numbers_of_places() -> None:
    """The board prints every intersection's number on a white plate and on the buildings,
    and each stop's order on a blue one; a pick picture's badges are numbers on plates too:
    the map they are cropped from prints none of those, so a number on a plate is always an
    option's."""
    rng = random.Random(3)
    state = GAME.setup(4, {"map": "main"}, 3)
    while len(state.stops) < 2:  # into the race: buildings and stops on the map
        seat = min(GAME.active_players(state))
        state = GAME.apply(state, seat, BOTS["builder"].choose(GAME, state, seat, rng)).state
    view = GAME.view(state, None)
    numbers = {str(n) for n in GAME.geo(state).intersections}

    def plates(numbered: bool) -> set[str]:
        board_mod._STATIC.clear()
        board_mod.building_patch.cache_clear()
        board_mod.stop_badge.cache_clear()
        with recording_text_sizes() as sizes:
            board_mod.render_map(view, "en", numbered=numbered)
        return {text for px, text in sizes.drawn if px == MIN_TEXT and text in numbers}

    assert plates(True) == numbers  # the board's plates, buildings and stops
    assert plates(False) == set()
    pick_map = board_mod.pick_map(view, NAMES[:4], "en")
    assert pick_map.size == size(view) == board_mod.render_map(view, "en").size
    # and the pictures are cropped from that map: on a second-round settlement's pictures,
    # with the first round's buildings on the map, the only numbers on plates are the badges'
    state = GAME.setup(4, {"map": "main"}, 3)
    while not (state.setup_pos == state.n and not state.setup_rail):
        seat = min(GAME.active_players(state))
        state = GAME.apply(state, seat, BOTS["builder"].choose(GAME, state, seat, rng)).state
    assert len(state.buildings) == 4
    board_mod._STATIC.clear()
    board_mod.building_patch.cache_clear()
    board_mod.stop_badge.cache_clear()
    shown = pictures_of(GAME.view(state, state.current), GAME.decision(state, state.current).first_step())
    assert len(shown) > 1
    texts = [(px, text) for _, sizes, _ in shown for px, text in sizes.drawn]
    assert any(text == "C3" for _, text in texts)  # the map was drawn while recording
    drawn = {text for px, text in texts if px == MIN_TEXT and text in numbers}
    assert drawn == set(), drawn
    board_mod._STATIC.clear()
