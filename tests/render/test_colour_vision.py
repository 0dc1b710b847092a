"""Colour-vision check: the kit's simulation catches what dichromats cannot tell apart, and
every game's palette passes it."""
from __future__ import annotations

import pytest

from render import registry as renderers
from render.kit.images import Palette
from render.kit.palette import BACKGROUND, PLAYER_COLORS
from render.kit.vision import (MIN_CATEGORY_VS_PLAYER, MIN_PLAYER_VS_PLAYER, MIN_PLAYER_VS_SURFACE, distance,
                               problems, seen)

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


@pytest.mark.parametrize("name", renderers.names())
def test_every_game_palette_passes(name: str):
    palette = renderers.get(name).palette
    assert len(palette.players) >= 2
    found = problems(palette)
    assert found == [], f"{name}: " + "; ".join(found)
