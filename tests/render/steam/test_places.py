"""Steam's places on the map (games/steam/decisions.py `Pick.place`, render/steam/places.py): over
whole bot games on both maps, every place a menu offers is found on the board where the thing
is, every step groups into regions of at most 25, a tile shown in place is the tile the rules
would lay, a route's line and points are the delivery's; and the pick pictures read at 400 px."""
from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

import pytest
from PIL import Image, ImageChops

from games.core.i18n import translate
from games.steam import decisions as d
from games.steam.derived import board_map
from games.steam.rules import GAME
from render import pick
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes
from render.kit.picking import OPTIONS_AT_MOST, badge_size
from render.steam import RENDERER
from render.steam.board import render_map
from render.steam.layout import MIN_TEXT, map_layout
from render.steam.places import PLACES, _laid, caption
from tests.support.bot_games import bot_steps

NAMES = ["Alexandra", "山田太郎", "Bob", "佐々木 みなみ", "Christopher"]
CONFIGS = [("northeast", False, 4, 21), ("rhine_ruhr", True, 5, 22), ("northeast", True, 3, 23)]


@lru_cache(maxsize=None)
def _moments(config: tuple) -> tuple:
    """(state, seat) of every build and delivery move of a whole bot game."""
    map_id, standard, players, seed = config
    return tuple((s.state, s.seat) for s in bot_steps(GAME, players, seed, "builder",
                                                      {"map": map_id, "standard": standard})
                 if s.state.phase in ("build", "deliver"))


def _sample(config: tuple, k: int) -> list:
    found = _moments(config)
    return list(found[:: max(1, len(found) // k)])


def _stops(decision) -> list:
    """Every stop of a menu a person can reach (its first step and each step after a pick)."""
    out, todo, seen = [], [[]], set()
    while todo:
        picks = todo.pop()
        stop = decision.walk(picks)
        if stop.move is not None or stop.group is not None or tuple(stop.picks) in seen:
            continue
        seen.add(tuple(stop.picks))
        out.append(stop)
        todo += [list(stop.picks) + [option.value] for option in stop.options]
    return out


def _inside(p, box) -> bool:
    return -1e-6 <= p[0] <= box[0] + 1e-6 and -1e-6 <= p[1] <= box[1] + 1e-6


def _in_polygon(p, polygon) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{'std' if c[1] else 'basic'}-{c[2]}p")
def test_every_place_of_every_menu_is_on_the_board_where_the_thing_is(config) -> None:
    kinds: Counter = Counter()
    largest = most_regions = 0
    for n, (state, seat) in enumerate(_sample(config, 40)):
        view = GAME.view(state, seat)
        decision = GAME.decision(state, seat)
        m = board_map(state)
        ml = map_layout(state.options.map)
        size = PLACES.size(view)
        if n == 0:  # the map area at the top of the board image
            board = RENDERER.board_image(view, NAMES, "en")
            assert size[0] == board.width and size[1] < board.height
        routes = {c.path[-1].place: c.notation for c in decision.choices if c.path[-1].step == d.ROUTE}
        for stop in _stops(decision):
            places = [o.place for o in stop.options if o.place is not None]
            if not places:
                continue
            marks = pick.locate("steam", view, places)
            assert all(mk is not None for mk in marks), (stop.step, places)
            for place, mark in zip(places, marks):
                kinds[(place.kind, len(place.at) if place.kind == "city" else 1, bool(place.show))] += 1
                assert all(_inside(p, size) for p in mark.points()), (place, mark)
                h = m.hex_at(place.at[0])
                polygon = ml.hexes.polygon(h)
                if place.kind == "hex":
                    assert mark.spot == ml.center(h) and list(mark.outline) == list(polygon)
                elif place.kind == "city":
                    assert h in m.cities or place.at[0] in state.new_cities
                    assert _in_polygon(mark.spot, list(polygon)), (place, mark.spot)
                    if len(place.at) == 2:  # a cube of that colour waits there
                        assert state.cubes[place.at[0]][("red", "blue", "yellow", "purple", "gray").index(
                            place.at[1])] > 0
                else:  # a route: from the cube's city along the delivery's links to its destination
                    after = GAME.apply(state, seat, GAME.parse_action(routes[place])).state
                    first, last = after.last_route_places[0], after.last_route_places[-1]
                    assert mark.line[0] == ml.center(m.hex_at(first)) == ml.center(h)
                    assert mark.line[-1] == mark.spot == ml.center(m.hex_at(last))
                    line = set(mark.line)
                    for rec in after.links:
                        if rec.id in after.last_route:
                            for label, sides in rec.segments:
                                path = ml.track_path(m.hex_at(label), tuple(sides))
                                assert path[len(path) // 2] in line, (routes[place], label)
            regions = pick.plan("steam", marks)
            assert sorted(i for r in regions for i in r) == list(range(len(marks)))
            assert all(1 <= len(r) <= OPTIONS_AT_MOST for r in regions), [len(r) for r in regions]
            largest = max(largest, len(places))
            most_regions = max(most_regions, len(regions))
    print(f"{config}: places {dict(kinds)}, largest step {largest}, most regions {most_regions}")
    assert kinds[("hex", 1, False)] and kinds[("hex", 1, True)] and kinds[("route", 1, True)], kinds
    assert kinds[("city", 2, False)], kinds  # cubes


def test_a_tile_shown_in_place_is_the_tile_the_rules_lay() -> None:
    checked = 0
    for state, seat in _sample(CONFIGS[0], 30):
        if state.phase != "build":
            continue
        decision = GAME.decision(state, seat)
        places = [c for c in decision.choices if c.notation.split()[0] in ("build", "upgrade", "redirect")]
        for choice in places[:: max(1, len(places) // 4)]:
            place = choice.path[-1].place
            laid = _laid(state, place.at[0], place.show)
            made = GAME.apply(state, seat, GAME.parse_action(choice.notation)).state
            assert (laid.tiles, laid.links) == (made.tiles, made.links), choice.notation
            checked += 1
    assert checked >= 10


def test_the_preview_lays_the_tile_on_its_hex_and_halos_the_route() -> None:
    state, seat = next((s, seat) for s, seat in _moments(CONFIGS[0])
                       if s.phase == "build" and s.turn >= 3 and GAME.placements(s, seat))
    view = GAME.view(state, seat)
    ml = map_layout(state.options.map)
    plain = render_map(state)
    choice = next(c for c in GAME.decision(state, seat).choices if c.notation.startswith("build"))
    place = choice.path[-1].place
    shown = PLACES.preview(view, NAMES, "en", place)
    x0, y0, x1, y1 = ml.hexes.bounds([board_map(state).hex_at(place.at[0])])
    inner = (round(x0 + 10), round(y0 + 10), round(x1 - 10), round(y1 - 10))
    changed = ImageChops.difference(plain.crop(inner), shown.crop(inner)).getbbox()
    assert changed is not None, "the tile is drawn on its hex"
    # a route's own picture halos that route's links (white under the track, as the board halos
    # the latest delivery)
    state, seat = next((s, seat) for s, seat in _moments(CONFIGS[0])
                       if s.phase == "deliver" and not s.pending and GAME.deliveries(s, seat))
    view = GAME.view(state, seat)
    route = next(c.path[-1].place for c in GAME.decision(state, seat).choices if c.notation.startswith("deliver"))
    mark = PLACES.locate(view, route)
    xs, ys = [p[0] for p in mark.line], [p[1] for p in mark.line]
    box = (round(min(xs)) - 20, round(min(ys)) - 20, round(max(xs)) + 20, round(max(ys)) + 20)

    def white(img: Image.Image) -> int:
        return dict((c, n) for n, c in img.crop(box).getcolors(1 << 24)).get((255, 255, 255), 0)

    assert white(PLACES.preview(view, NAMES, "en", route)) > white(render_map(state)) + 200


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_routes_caption_says_what_each_owner_scores(lang: str) -> None:
    seen = 0
    for state, seat in _sample(CONFIGS[1], 60):
        if state.phase != "deliver" or state.pending:
            continue
        view = GAME.view(state, seat)
        for choice in GAME.decision(state, seat).choices:
            if not choice.notation.startswith("deliver"):
                continue
            label = choice.path[-1].label.params
            expected = []
            for owner in label["owners"]:
                if owner["key"] == "steam.choice.you_points":
                    expected.append(translate(lang, "steam.render.pick.you", owner["params"]))
                elif owner["key"] == "steam.choice.owner_points":
                    expected.append(translate(lang, "steam.render.pick.owner", owner["params"], NAMES))
                else:
                    expected.append(translate(lang, "steam.render.pick.unowned", owner["params"]))
            sep = "、" if lang == "ja" else ", "
            assert caption(view, NAMES, lang, choice.path[-1].place) == sep.join(expected), choice.notation
            seen += 1
    assert seen


# --- the pictures, as players see them ------------------------------------------------------
def _steps_to_draw() -> dict[str, tuple]:
    """One step of each kind from the games: (view, options) by name."""
    found: dict[str, tuple] = {}
    for config in CONFIGS:
        for state, seat in _moments(config):
            decision = GAME.decision(state, seat)
            view = GAME.view(state, seat)
            for stop in _stops(decision) if len(found) < 8 else []:
                placed = [o for o in stop.options if o.place is not None]
                name = {d.BUILD: "hexes", d.TILE: "tiles", d.FACE: "faces", d.ROTATION: "rotations",
                        d.TOWN: "towns", d.CITY: "cities", d.CUBE: "cubes", d.ROUTE: "routes"}.get(stop.step)
                if name is None or len(placed) < 2 or name in found:
                    continue
                if name in ("tiles", "routes") and len(placed) < 3:
                    continue
                found[name] = (view, placed)
    return found


@lru_cache(maxsize=None)
def _drawable() -> dict[str, tuple]:
    return _steps_to_draw()


@pytest.mark.slow  # whole games played to find a menu of every kind
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", ["hexes", "tiles", "faces", "rotations", "towns", "cities", "cubes", "routes"])
def test_pick_pictures_read_at_400_px(name: str, lang: str) -> None:
    view, options = _drawable()[name]
    places = [o.place for o in options]
    regions = pick.plan("steam", pick.locate("steam", view, places))
    region = max(regions, key=len)
    with recording_text_sizes() as sizes:
        made = pick.picture("steam", view, NAMES, lang, [places[i] for i in region], list(range(1, len(region) + 1)))
    width = made.image.width
    assert sizes.smallest_at(width) >= MIN_TEXT_PX_AT_400, (name, sizes.smallest())
    assert sorted(b.number for b in made.badges) == list(range(1, len(region) + 1))
    diameter = badge_size(width)[0]
    for i, a in enumerate(made.badges):
        for b in made.badges[i + 1:]:
            assert math.dist(a.centre, b.centre) >= diameter * 0.9, (name, a, b)
    assert made.image.height <= width * 1.6, (name, made.image.size)
    if name in ("tiles", "faces", "rotations"):
        # a tile's options side by side, each its hex and neighbours enlarged: the board's own
        # smallest text is larger than on the whole board
        cols = 2 if len(region) <= 4 else 3 if len(region) <= 9 else 4
        x0, _, x1, _ = made.box
        shown = (width / cols) / (x1 - x0) * 400 / width
        assert MIN_TEXT * shown >= MIN_TEXT_PX_AT_400, (name, shown)
