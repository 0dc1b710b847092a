"""Colour-vision check: the kit's simulation catches what dichromats cannot tell apart, seats
that are shades of one colour, and colours that mean something else on a board (goods,
railroads, terrains, card colours) too close to a seat or to each other; every game's palette
passes it, for as many seats as the game seats."""
from __future__ import annotations

import pytest

from games import registry as games
from render import registry as renderers
from render.kit.images import Marks, Palette
from render.kit.palette import BACKGROUND, PLAYER_COLORS
from render.kit.vision import (MIN_CATEGORY_VS_PLAYER, MIN_MARK, MIN_PLAYER_VS_PLAYER, MIN_PLAYER_VS_SURFACE, NAMES,
                               colour_name, distance, problems, seen)

RED, GREEN = (255, 0, 0), (0, 160, 0)


def test_pure_red_and_green_seats_fail_for_deuteranopes_only():
    found = problems(Palette(players=[RED, GREEN]))
    assert found and all("deuteranopia" in line or "protanopia" in line for line in found)
    assert any("deuteranopia" in line for line in found)
    assert distance(RED, GREEN) > 2 * MIN_PLAYER_VS_PLAYER  # plainly different in normal vision


def test_simulation_moves_colours_a_dichromat_confuses_and_keeps_greys():
    red = seen(RED, "deutan").convert("srgb").coords()
    assert abs(red[0] - red[1]) < 0.15  # red turns olive: red and green channels alike
    grey = seen((128, 128, 128), "protan").convert("srgb").coords()
    assert all(abs(c - 128 / 255) < 0.02 for c in grey)


def test_a_well_spread_palette_passes():
    good = [(20, 20, 20), (250, 220, 60), (60, 120, 220), (240, 240, 240)]
    assert problems(Palette(players=good)) == []


def test_surfaces_and_categories_are_checked_too():
    seats = [(20, 20, 20), (250, 220, 60)]
    on_black = problems(Palette(players=seats, surfaces={"night map": (30, 30, 34)}))
    assert on_black and all("surface 'night map'" in line for line in on_black)
    assert all(float(line.split("ΔE00 ")[1].split()[0]) < MIN_PLAYER_VS_SURFACE for line in on_black)
    mimic = problems(Palette(players=seats, categories=[(245, 215, 65)]))
    assert mimic and all(line.startswith("category vs player") for line in mimic)
    assert all(float(line.split("ΔE00 ")[1].split()[0]) < MIN_CATEGORY_VS_PLAYER for line in mimic)


def test_kit_seat_colours_pass_against_each_other_and_the_page():
    assert len(PLAYER_COLORS) == 6
    assert problems(Palette(players=PLAYER_COLORS, surfaces={"background": BACKGROUND})) == []


def test_a_mark_that_looks_like_a_seat_is_caught():
    # Steam's red city and its former dark-brown seat: one olive for a red-green reader
    red_city, brown_seat = (180, 20, 30), (120, 64, 20)
    found = problems(Palette(players=[brown_seat, (30, 30, 34)], marks={"goods": Marks({"red": red_city})}))
    assert found and all(line.startswith("goods vs player") and "seat 1" in line for line in found)
    assert {line.split(" in ")[-1] for line in found} == {"deuteranopia", "protanopia"}
    assert distance(red_city, brown_seat) >= MIN_MARK  # not a problem in normal vision
    # the seats' own colours among the marks (Ticket to Ride's trains are card colours) are allowed
    assert problems(Palette(players=[red_city], marks={"card": Marks({"red": red_city}, of_players=True)})) == []


def test_marks_of_one_kind_must_differ_by_their_own_bar():
    pasture, fields = (206, 230, 176), (244, 228, 166)  # Catan Express's former terrains
    found = problems(Palette(players=[(20, 20, 20)], marks={"terrain": Marks({"pasture": pasture, "fields": fields})}))
    assert any(line.startswith("terrain vs terrain") and "protanopia" in line for line in found)
    goods = {"a": (20, 70, 170), "b": (110, 60, 200)}
    assert problems(Palette(players=[(250, 250, 250)], marks={"goods": Marks(goods)})) != problems(
        Palette(players=[(250, 250, 250)], marks={"goods": Marks(goods, apart=MIN_PLAYER_VS_PLAYER)}))


def test_colour_names_follow_the_basic_terms():
    for name, code in NAMES.items():
        rgb = tuple(int(code[i:i + 2], 16) for i in (1, 3, 5))
        assert colour_name(rgb) == name
    assert [colour_name(c) for c in [(20, 20, 24), (128, 128, 128), (250, 250, 250), (120, 64, 20)]] == [
        "black", "grey", "white", "brown"]


def test_three_shades_of_blue_are_one_colour_name():
    # Catan Express's former 6-player seats: sky blue, teal and navy among them
    seats = [(153, 0, 0), (92, 161, 230), (230, 115, 0), (28, 28, 32), (0, 128, 128), (0, 32, 128)]
    found = problems(Palette(players=seats))
    assert found == ["player names: seats 2, 6 are all blue"]
    assert [colour_name(c) for c in PLAYER_COLORS] == ["red", "blue", "green", "yellow", "black", "purple"]


@pytest.mark.parametrize("name", renderers.names())
def test_every_game_palette_passes(name: str):
    palette = renderers.get(name).palette
    assert len(palette.players) >= games.get(name).max_players  # a colour for every seat, six included
    found = problems(palette)
    assert found == [], f"{name}: " + "; ".join(found)


def test_the_colours_boards_draw_with_a_meaning_are_the_checked_ones():
    """Goods, railroads, terrains, resources and card colours: the palettes hold the very colours
    the boards draw."""
    from render.catan_express import style as ce
    from render.santa_fe import style as sf
    from render.steam import style as steam
    from render.ticket_to_ride import style as ttr

    marks = {name: renderers.get(name).palette.marks for name in renderers.names()}
    assert marks["steam"]["goods"].colours == steam.GOODS
    assert marks["steam"]["map"].colours == {"black edge": steam.BLACK_EDGE, "unowned link": steam.UNOWNED,
                                             "river": steam.RIVER}
    assert sorted(marks["santa_fe"]["railroad"].colours.values()) == sorted(sf.rr_rgb(r) for r in range(5))
    assert marks["catan_express"]["terrain"].colours == ce.TERRAIN
    assert marks["catan_express"]["resource"].colours == ce.RESOURCE
    assert marks["ticket_to_ride"]["card colour"].colours == ttr.CARD_COLORS
    assert marks["ginga"] == {}  # a tile game: nothing but the seats is told by its colour
