"""Nothing is cut off at an image's edge: every game's board, hand and final image, from real games in
both languages, shows only its backgrounds along its outer two pixels (a piece, a cube or a word
there is a shape the canvas clipped). And Steam's goods supply: twelve spaces of up to three cubes
fit the panel's width, every cube inside its space."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import pytest
from PIL import Image

from games import registry as games
from render import registry as renderers
from render.catan_express import style as ce
from render.ginga import style as gt
from render.santa_fe import style as sf
from render.santa_fe.layout import MAP_H as SF_MAP_H
from render.steam import style as steam
from render.steam.sidebar import CUBE_R, supply_layout
from render.steam.layout import BOARD_W
from render.ticket_to_ride import style as ttr
from tests.render.steam.test_render import played
from tests.support.bot_games import bot_states

BOTS = {"ticket_to_ride": "planner", "ginga": "scorer", "santa_fe": "builder", "steam": "builder",
        "catan_express": "builder"}
NAMES = ["Ann", "山田", "Bob", "Cy"]
# What may meet the edge: each image's page, the map's own background where the map runs to the
# edge, the divider under a map. Regions: the whole frame, or only the panel below a map that is a
# crop of a larger land (Santa Fe's West), or only the sidebar beside a sky (Galactic Railway).
ALLOWED = {
    ("steam", "board"): {steam.OFF_MAP, steam.PANEL_BG, steam.DIVIDER},
    ("ticket_to_ride", "board"): {ttr.SIDEBAR_BG, ttr.MAP_BG, ttr.DIVIDER},
    ("catan_express", "board"): {ce.SEA, ce.PANEL_BG, ce.DIVIDER},
    ("ginga", "board"): {gt.PANEL_BG},
    ("santa_fe", "board"): {sf.SIDEBAR_BG, sf.DIVIDER},
    ("ticket_to_ride", "hand"): {ttr.SIDEBAR_BG, ttr.MAP_BG, ttr.PANEL_EDGE},
}
# The margin kept clear: a shape closer than this to the edge is cut off when Discord rounds the
# image's corners or crops a preview, and reads as cut at any size.
EDGE = 6
PAGE = {"steam": steam.PANEL_BG, "ticket_to_ride": ttr.SIDEBAR_BG, "catan_express": ce.PANEL_BG,
        "ginga": gt.PANEL_BG, "santa_fe": sf.SIDEBAR_BG}


def frame(img: Image.Image, left: int = 0, top: int = 0) -> Counter:
    """The colours of the outer EDGE pixels of the region from (left, top) to the image's corner."""
    img = img.convert("RGB")
    w, h = img.size
    px = img.load()
    out: Counter = Counter()
    for y in (*range(top, top + EDGE), *range(h - EDGE, h)):
        out.update(px[x, y] for x in range(left, w))
    for x in (*range(left, left + EDGE), *range(w - EDGE, w)):
        out.update(px[x, y] for y in range(top, h))
    return out


def region(name: str, kind: str) -> tuple[int, int]:
    if kind == "board" and name == "santa_fe":
        return 0, SF_MAP_H + 3
    if kind == "board" and name == "ginga":
        return gt.BOARD + 4, 0
    return 0, 0


@lru_cache(maxsize=None)
def states(name: str):
    s = bot_states(games.get(name), len(NAMES), 3, BOTS[name])
    return [*s[::max(1, len(s) // 5)], s[-1]]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", list(BOTS))
def test_nothing_is_cut_off_at_the_edges(name, lang):
    game, r = games.get(name), renderers.get(name)
    images = [("board", r.board_image(game.view(s, None), NAMES, lang)) for s in states(name)]
    images.append(("final", r.final_image(game.view(states(name)[-1], None), NAMES, lang)))
    middle = states(name)[len(states(name)) // 2]
    if name != "santa_fe":  # Santa Fe's hand holds a crop of the West's map: the land runs off it
        images += [("hand", r.hand_image(game.view(middle, seat), NAMES, lang)) for seat in range(len(NAMES))]
    if name == "steam":  # a Rhine-Ruhr game whose last supply spaces hold three cubes each
        images += [("board", r.board_image(game.view(s, None), NAMES, lang)) for s in _full_supply()]
    for kind, img in images:
        seen = frame(img, *region(name, kind))
        stray = set(seen) - ALLOWED.get((name, kind), {PAGE[name]})
        assert not stray, (name, kind, sorted(stray)[:5])


def _full_supply():
    game = played("rhine_ruhr", 4, 18, False)
    return [s for s in game if len(s.supply) == 12 and sum(s.supply[-1]) == 3][:2]


def test_every_goods_supply_space_holds_its_cubes():
    state = played("rhine_ruhr", 4, 18, False)[0].clone()
    state.supply = [[1, 1, 1, 0, 0] for _ in range(12)]  # three cubes on every space: the widest row
    for (x0, y0, x1, y1), cubes in supply_layout(state, 0):
        assert 0 <= x0 and x1 <= BOARD_W
        assert len(cubes) == 3
        for _, (cx, cy) in cubes:
            assert x0 < cx - CUBE_R - 2 and cx + CUBE_R + 2 < x1 and y0 < cy - CUBE_R and cy + CUBE_R < y1
        centres = [c for _, c in cubes]
        assert all(b[0] - a[0] >= 2 * CUBE_R for a, b in zip(centres, centres[1:]))  # side by side, not stacked
