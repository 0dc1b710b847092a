"""A board's legend explains every colour the board gives a meaning: each colour of its palette's
marks (goods, black edges, unowned links, rivers; the railroads) is drawn in its key, the legend
under the map or the panel's chips."""
from __future__ import annotations

import pytest
from PIL import Image

from games import registry as games
from render import registry as renderers
from render.santa_fe.layout import MAP_H as SF_MAP_H
from render.steam import style as steam
from render.steam.sidebar import LEFT, RIGHT, TEXT, legend_height, legend_items
from tests.render.steam.test_render import NAMES, played


def colours_in(img: Image.Image) -> set:
    return {rgb for _, rgb in img.convert("RGB").getcolors(1 << 20)}


def steam_legend(img: Image.Image, lang: str) -> Image.Image:
    """The legend: the rows under the goods supply, at the foot of the panel."""
    h = legend_height(legend_items(lang), TEXT, RIGHT - LEFT) + 12
    return img.crop((0, img.height - h, img.width, img.height))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_steams_legend_shows_every_colour_with_a_meaning(lang):
    state = played("northeast", 4, 1)[40]
    img = renderers.get("steam").board_image(games.get("steam").view(state, None), NAMES[:4], lang)
    shown = colours_in(steam_legend(img, lang))
    marks = renderers.get("steam").palette.marks
    wanted = {f"{kind} {name}": rgb for kind, m in marks.items() for name, rgb in m.colours.items()}
    wanted["hills"] = steam.HILLS  # they cost more to build on
    missing = [name for name, rgb in wanted.items() if tuple(rgb) not in shown]
    assert missing == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_santa_fes_panel_shows_every_railroads_colour(lang):
    from tests.support.bot_games import bot_states

    state = bot_states(games.get("santa_fe"), 4, 3, "builder")[40]
    img = renderers.get("santa_fe").board_image(games.get("santa_fe").view(state, None), NAMES[:4], lang)
    shown = colours_in(img.crop((0, SF_MAP_H, img.width, img.height)))
    railroads = renderers.get("santa_fe").palette.marks["railroad"].colours
    assert [code for code, rgb in railroads.items() if tuple(rgb) not in shown] == []
