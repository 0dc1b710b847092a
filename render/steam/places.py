"""Where a Steam menu's places are on the board (render.kit.picking), and each option drawn in
place for the pictures that show several at one place.

Places (games/steam/decisions.py, `Pick.place`):
    hex    ("C7",): a hex to build on, a town to urbanize — its outline, the number in its middle;
           with `show` = "<how> <face> <rotation>" a tile laid there (the tile steps).
    city   ("B5",): a city to grow, ("B5", "red"): a cube waiting there — the number on the
           city's emblem, above its cubes.
    route  the route's notation in steps ("B5", "C7", "E7[12]"): the line through its links'
           track from the cube's city to its destination, the number at the destination; with
           `show` = the points per owner (decisions.route_points), a route's own picture: the
           board with that route haloed, its points written under it (`caption`).

Everything is read from the layout the board is drawn with (render/steam/layout.py, and the
cube spots, track paths and halo of render/steam/board.py), so a number sits on what it names.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image

from games.core.choices import Place
from games.core.i18n import translate
from games.steam.derived import board_map, network, put_rails, rails_of, runs, stock_of
from games.steam.building import Build, BuildTurn, Kind, apply_build
from games.steam.delivery import parse_route
from games.steam.models import COLOURS, SteamState, SteamView
from games.steam.tiles import tileset
from render.kit.images import Places
from render.kit.picking import Mark
from render.steam.board import render_map
from render.steam.layout import MapLayout, map_layout

Point = tuple[float, float]


def _layout(view: SteamView) -> MapLayout:
    return map_layout(view.state.options.map)


def size(view: SteamView) -> tuple[int, int]:
    """The map area at the top of the board image: every place is in it (the panel below holds
    none), so a region's compass word names a part of the map."""
    return _layout(view).size


def locate(view: SteamView, place: Place) -> Mark | None:
    state = view.state
    ml = _layout(view)
    m = board_map(state)
    try:
        if place.kind == "route":
            return _route(state, ml, place.at)
        h = m.hex_at(place.at[0])
    except Exception:  # a label this board cannot read names no place on it
        return None
    if m.space(h) is None:
        return None
    centre = ml.center(h)
    if place.kind == "hex":
        return Mark(centre, outline=tuple(ml.hexes.polygon(h)))
    if place.kind == "city" and (len(place.at) == 1 or place.at[1] in COLOURS):
        # On the city's emblem, not ringed: its colour and cubes stay in sight below the number.
        # A cube is numbered there too: a city's cubes lie closer together than two numbers can,
        # so spots on the cubes themselves would cut a map's cubes into many small pictures;
        # the cube's colour is in its words.
        return Mark((centre[0], centre[1] - ml.s * 0.55))
    return None


def _route(state: SteamState, ml: MapLayout, steps: Sequence[str]) -> Mark:
    """The line from the cube's city through each link's track, city to city, to the destination."""
    m = board_map(state)
    places, links = parse_route(network(state), "-".join(steps), m.hex_at)
    traced = runs(state)
    line: list[Point] = [ml.center(places[0])]
    for here, lid in zip(places, links):
        run = traced[lid]
        segments = run.segments if run.ends[0] == here else tuple(reversed(run.segments))
        for h, sides in segments:
            path = ml.track_path(h, tuple(sides))
            if _far(path[0], line[-1]) > _far(path[-1], line[-1]):
                path = path[::-1]
            line += path
    line.append(ml.center(places[-1]))
    return Mark(ml.center(places[-1]), line=tuple(line))


def _far(a: Point, b: Point) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


# --- each option in place -------------------------------------------------------------------
def preview(view: SteamView, names: Sequence[str], lang: str, place: Place) -> Image.Image | None:
    """The map with what `place.show` describes: a tile laid (and ringed as the board rings a
    build), or a route haloed as the board halos a delivery."""
    if not place.show:
        return None
    state = view.state
    if place.kind == "hex":
        laid = _laid(state, place.at[0], place.show)
        return None if laid is None else render_map(laid, lang)
    if place.kind == "route":
        try:
            m = board_map(state)
            _, links = parse_route(network(state), "-".join(place.at), m.hex_at)
        except Exception:
            return None
        shown = state.clone()
        shown.last_builds = []  # the route alone is ringed
        return render_map(shown, lang, route=links)
    return None


def _laid(state: SteamState, label: str, show: str) -> SteamState | None:
    """The state with the tile of `show` ("<how> <face> <rotation>") laid on `label` by the seat
    building now, as the rules would lay it (links taken over, completed or redirected)."""
    try:
        how, face, rotation = show.split()
        m = board_map(state)
        h = m.hex_at(label)
        seat = state.step_order[state.step_pos]
        turn = BuildTurn(seat=seat, turn=state.turn, limit=state.placed + 1, placed=state.placed)
        done = apply_build(m, rails_of(state), stock_of(state), turn, Build(Kind(how), h, face, int(rotation)),
                           tileset())
    except Exception:  # not a placement this board allows: the option is drawn without it
        return None
    laid = state.clone()
    put_rails(laid, done.rails)
    laid.last_builds = [label]
    laid.last_route = []
    return laid


def caption(view: SteamView, names: Sequence[str], lang: str, place: Place) -> str | None:
    """What a route scores, under its picture: "You +2, Bob +1, 1 unowned" (the viewer first, as
    "you", as in the menu's words; the other owners by name, in seat order)."""
    if place.kind != "route" or not place.show:
        return None
    parts = []
    items = [item.partition(":")[::2] for item in place.show.split(",")]
    mine = [i for i in items if view.viewer is not None and i[0] == str(view.viewer)]
    for who, points in mine + [i for i in items if i not in mine]:
        if who == "-":
            if int(points):
                parts.append({"key": "steam.render.pick.unowned", "params": {"count": int(points)}})
        elif view.viewer is not None and int(who) == view.viewer:
            parts.append({"key": "steam.render.pick.you", "params": {"points": int(points)}})
        else:
            parts.append({"key": "steam.render.pick.owner", "params": {"owner_seat": int(who), "points": int(points)}})
    return translate(lang, "steam.render.pick.scores", {"parts": parts}, names) if parts else None


# About a hex round the options (a hex is 2 sizes wide, 47-50 px on either map): a tile's
# picture shows the hex and its neighbours' edges. The floor keeps a picture of close spots
# (a city's cubes) at least about six hexes wide, enough to see where on the map it is.
PLACES = Places(locate=locate, size=size, margin=50, floor=450, preview=preview, caption=caption)
