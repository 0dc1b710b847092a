"""Steam's decisions as menus (games/core/choices.py).

Everything in Steam is public (ST-15) and only one seat moves at a time, so no menu is secret
and every key is None: any move may change what the seat can do (a bid raises the minimum, a
delivery takes a cube, a build takes a tile from the stock).

* Turn-order auctions (the basic game's first turn, ST-11; the standard game's every turn,
  ST-12): an Amount from the minimum bid to what the seat may bid, and Pass. The two auctions
  ask different questions (a position now, or the whole order), so each has its own step.
* Capital (ST-12): an Amount of $5 steps, 0 up to the income track's floor.
* Action tiles: one step, the tiles left with number, name, price (basic game) and what each
  does; in the basic game City Growth and Urbanize may also be taken declined (ST-11).
* Building (ST-1 … ST-7): hex → tile laid in place, listing only legal placements the seat
  can pay for. A hex says its place's name, how many ways it can be built and from what price.
  A hex with few ways (PLACEMENTS_AT_ONCE) then offers each tile turned each legal way as one
  pick; one with more (a town, where many town tiles fit) asks for the face, then the rotation.
  A face says whether it is a build, an upgrade (ST-6) or a redirect (ST-5), its kind and how
  many are left; a rotation says its exits, its price and what each exit faces. Urbanize is
  town → colour → supply space, City Growth city → supply space, and Done ends the turn.
* Deliveries (ST-8, ST-9): cube (city and colour, with how many wait there) → route, each
  route labelled with its places, its number of links and who scores what; the locomotive
  upgrade and Pass are single picks beside the cubes.

Places (`Pick.place`, picked on pictures of the map: render/steam/places.py): a hex to build
on and a town to urbanize are hexes; a tile, face or rotation is its hex with what it lays there
(`show` "<how> <face> <rotation>", each drawn in place side by side); a city to grow is a city, a
cube its city and colour (both named by their words: a picture only when many); a route is the
steps of its notation, with what it scores per owner (`show`, `route_points`), each route
drawn on its own with its points.
* Income or points (ST-9): two picks for the seat whose answer is awaited, each saying what
  the points become.

The build and delivery menus ask the pure modules once (legal builds with their prices, the
deliveries with their routes) and turn the answers into both the notations and the words, so
a menu costs one search, not two.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core.choices import VALUE_MAX, Amount, Choice, Decision, Pick
from games.core.choices import Place as Where
from games.core.events import Event
from games.core.unchecked import made
from games.steam import economy
from games.steam.derived import board_map, city_colours, map_of, stock_of
from games.steam.components import components
from games.steam.delivery import COLOUR_ORDER
from games.steam.income import income_track
from games.steam.models import COLOURS, Deliver, Done, Pass, Place, Score, SteamState, Take, Upgrade
from games.steam.notation import colour_words, format_action, tile_words
from games.steam.tiles import tileset

FIRST_BID = "steam.step.first_bid"
BID = "steam.step.bid"
CAPITAL = "steam.step.capital"
ACTION = "steam.step.action"
BUILD = "steam.step.build"
FACE = "steam.step.face"
ROTATION = "steam.step.rotation"
TILE = "steam.step.tile"
TOWN = "steam.step.town"
COLOUR = "steam.step.colour"
SUPPLY = "steam.step.supply"
CITY = "steam.step.city"
CUBE = "steam.step.cube"
ROUTE = "steam.step.route"
SCORE = "steam.step.score"
STEPS = (FIRST_BID, BID, CAPITAL, ACTION, BUILD, FACE, ROTATION, TILE, TOWN, COLOUR, SUPPLY, CITY, CUBE, ROUTE, SCORE)


def decision(game: Any, state: SteamState, seat: int, head: bool = False) -> Decision:
    """The seat's menu; `head`: only as much of it as its first step shows (Game.menu_head): a
    build turn's placements two a hex at most."""
    prompt = game.prompt(state, seat)
    if seat not in game.active_players(state):
        return Decision(seat=seat, prompt=prompt)
    phase = state.phase
    if phase in ("first_auction", "auction"):
        return _auction(game, state, seat, prompt)
    if phase == "capital":
        maximum = game.capital_max(state, seat)
        income = state.players[seat].income
        label = Event(key="steam.choice.capital", params={"maximum": maximum, "income": income,
                                                         "lowest": income_track().lowest})
        return Decision(seat=seat, prompt=prompt, amounts=[
            Amount(step=CAPITAL, label=label, min=0, max=maximum, template="capital {}")])
    if phase == "actions":
        return Decision(seat=seat, prompt=prompt, choices=_action_choices(game, state, seat))
    if phase == "build":
        return Decision(seat=seat, prompt=prompt, choices=_build_choices(game, state, seat, 2 if head else None))
    if phase == "deliver":
        if state.pending:
            return Decision(seat=seat, prompt=prompt, choices=_score_choices(state, seat))
        return Decision(seat=seat, prompt=prompt, choices=_delivery_choices(game, state, seat))
    return Decision(seat=seat, prompt=prompt)


def _pick(step: str, value: str, key: str, detail: Event | None = None, icon: str | None = None,
          place: Where | None = None, **params: Any) -> Pick:
    return Pick(step=step, value=value, label=Event(key=key, params=params), detail=detail, icon=icon, place=place)


def _one(action: Any, pick: Pick, *more: Pick) -> Choice:
    # a late build menu makes a thousand choices from picks already made: made without validation
    return made(Choice, {"notation": format_action(action), "path": (pick, *more)}, _CHOICE_GIVEN)


_CHOICE_GIVEN = {"notation", "path"}


# --- turn-order auctions (ST-11, ST-12) ---------------------------------------------------------
def _auction(game: Any, state: SteamState, seat: int, prompt: Event | None) -> Decision:
    low, high = game.bid_range(state, seat)
    auction = state.auction or {}
    first = state.phase == "first_auction"
    step = FIRST_BID if first else BID
    amounts = []
    if low <= high:
        if first:
            label = Event(key="steam.choice.first_bid", params={
                "position": len(auction.get("placed") or ()) + 1, "minimum": low, "maximum": high})
        else:
            label = Event(key="steam.choice.bid", params={"minimum": low, "maximum": high})
        amounts.append(Amount(step=step, label=label, min=low, max=high, template="bid {}"))
    if first:
        detail = Event(key="steam.choice.pass_first_detail",
                       params={"position": len(auction.get("placed") or ()) + 1})
        label = Event(key="steam.act.pass_bid")
    elif auction.get("holder") == seat and not auction.get("free_pass_used"):
        label, detail = Event(key="steam.choice.free_pass"), Event(key="steam.choice.free_pass_detail")
    else:
        spaces = list(auction.get("spaces") or ())
        last_free = max((i for i, s in enumerate(spaces) if s is None), default=0)
        label = Event(key="steam.act.pass_bid")
        detail = Event(key="steam.choice.pass_detail", params={"position": last_free + 1})
    choices = [_one(Pass(), Pick(step=step, value="pass", label=label, detail=detail, icon="pass"))]
    return Decision(seat=seat, prompt=prompt, choices=choices, amounts=amounts)


# --- action tiles -----------------------------------------------------------------------------
def _action_choices(game: Any, state: SteamState, seat: int) -> list[Choice]:
    p = state.players[seat]
    standard = state.options.standard
    out = []
    for action in game.action_choices(state, seat):
        assert isinstance(action, Take)
        tile = components().action(action.tile)
        standard_help = standard and action.tile == "turn_order"  # a free pass instead of going first
        help_ = Event(key=f"steam.tile_help.{action.tile}{'_standard' if standard_help else ''}")
        if action.decline:
            pick = _pick(ACTION, f"decline_{action.tile}", "steam.choice.decline", icon="decline",
                         detail=Event(key="steam.choice.decline_detail"), number=tile.number,
                         tile=tile_words(action.tile))
        elif standard:
            pick = _pick(ACTION, action.tile, "steam.choice.take_standard", detail=help_, icon=action.tile,
                         number=tile.number, tile=tile_words(action.tile))
        else:
            amount = economy.action_cost(action.tile, p.locomotive)
            cost = {"key": "steam.choice.price", "params": {"amount": amount}} if amount else {"key": "steam.choice.free"}
            pick = _pick(ACTION, action.tile, "steam.choice.take", detail=help_, icon=action.tile,
                         number=tile.number, tile=tile_words(action.tile), cost=cost)
        out.append(_one(action, pick))
    return out


# --- building -------------------------------------------------------------------------------
SIDE_KEYS = tuple(f"steam.side.{d}" for d in range(6))
# A hex with at most this many legal placements offers them all at once, each tile turned each
# legal way as one pick (a picture shows every one laid in place, side by side: four across at
# most, each still large enough to follow its track); a hex with more (a town, where many town
# tiles fit) asks for the tile first, then the way round.
PLACEMENTS_AT_ONCE = 12


def _place_words(state: SteamState, label: str) -> dict[str, Any] | str:
    """A hex label with its place's name in the reader's language, if it has a place."""
    m = board_map(state)
    return m.words(m.hex_at(label), "steam.choice.hex_place")


@lru_cache(maxsize=None)
def _exits(face_id: str, rotation: int) -> tuple[int, ...]:
    """A face's exit sides at a rotation (tile geometry never changes)."""
    return tuple(sorted(tileset().faces[face_id].exits_at(rotation)))


@lru_cache(maxsize=8192)
def _reaches_on(map_id: str, label: str, exits: tuple[int, ...],
                new_cities: tuple[tuple[str, str], ...]) -> list[dict[str, Any]]:
    """What each exit of a tile on `label` faces — a city, a town, or the next hex — on a map
    with these new cities, those beside `label` at least (read-only: shared by every pick that
    uses it)."""
    m = map_of(map_id)
    colours = {h: s.city.value for h, s in m.cities.items()}
    colours.update({m.hex_at(k): v for k, v in new_cities})
    h = m.hex_at(label)
    out = []
    for side in exits:
        n = h.neighbor(side)
        where = {"key": SIDE_KEYS[side]}
        if n in colours:
            out.append({"key": "steam.choice.exit_city", "params": {
                "side": where, "place": dict(m.places[n].name) if n in m.places else m.label(n),
                "colour": colour_words(colours[n])}})
        elif n in m.places:
            out.append({"key": "steam.choice.exit_town", "params": {"side": where, "place": dict(m.places[n].name)}})
        else:
            out.append({"key": "steam.choice.exit_hex", "params": {"side": where, "hex": m.label(n)}})
    return out


def _build_choices(game: Any, state: SteamState, seat: int, most: int | None = None) -> list[Choice]:
    """The build turn's choices; `most`: at most this many a first pick (a hex, urbanizing), in
    the same order (what the menu's first step shows is then the same, Game.menu_head)."""
    ts = tileset()
    stock = stock_of(state)
    priced = game.priced_placements(state, seat)
    m = board_map(state)
    new_at = {m.hex_at(label): (label, colour) for label, colour in state.new_cities.items()}
    map_id = state.options.map
    by_hex: dict[str, list[tuple[Place, int]]] = {}
    for place, cost in priced:
        by_hex.setdefault(place.hex, []).append((place, cost))
    choices: list[Choice] = []
    for label in sorted(by_hex, key=_hex_order):
        options = by_hex[label]
        # a pick names what each exit faces: only a new city beside the hex changes it, so a new
        # city elsewhere leaves this hex's picks as they were made (they are kept, _rotation_pick)
        new_cities = tuple(sorted(new_at[n] for n in m.hex_at(label).neighbors() if n in new_at))
        kinds = sorted({p.how for p, _ in options}, key=("build", "upgrade", "redirect").index)
        hex_pick = _pick(BUILD, label, "steam.choice.hex", icon=kinds[0], hex=_place_words(state, label),
                         detail=Event(key="steam.choice.hex_detail", params={
                             "count": len(options), "cheapest": min(c for _, c in options),
                             "kinds": [{"key": f"steam.choice.kind_{k}"} for k in kinds]}),
                         place=Where(kind="hex", at=(label,)))
        by_face: dict[tuple[str, str], list[tuple[Place, int]]] = {}
        for place, cost in options:
            by_face.setdefault((place.how, place.face), []).append((place, cost))
        at_once = len(options) <= PLACEMENTS_AT_ONCE
        stop = len(choices) + most if most is not None else None
        for (how, face_id), ways in by_face.items():
            if stop is not None and len(choices) >= stop:
                break
            ways = sorted(ways, key=lambda w: w[0].rotation)
            ways = ways[:stop - len(choices)] if stop is not None else ways
            if at_once:
                for place, cost in ways:
                    pick = _placement_pick(map_id, label, face_id, place.rotation, cost, how, new_cities)
                    choices.append(_one(place, hex_pick, pick))
                continue
            face = ts.faces[face_id]
            # the tile step shows each face in place, turned its first legal way
            face_pick = _pick(FACE, _face_value(how, face_id), f"steam.choice.face_{how}", icon=how, face=face_id,
                              name=dict(face.name), exits=len(_exits(face_id, 0)),
                              detail=Event(key="steam.choice.face_detail", params={
                                  "count": len(ways), "cheapest": min(c for _, c in ways),
                                  "left": stock.available(face_id)}),
                              place=_tile_place(label, how, face_id, ways[0][0].rotation))
            for place, cost in ways:
                rot_pick = _rotation_pick(map_id, label, face_id, place.rotation, cost, how, new_cities)
                choices.append(_one(place, hex_pick, face_pick, rot_pick))
    choices += _urbanize_choices(game, state, seat, most)
    choices += _growth_choices(game, state, seat, most)
    if game.may_finish_building(state, seat):
        left = game._build_turn(state, seat)
        choices.append(_one(Done(), _pick(BUILD, "done", "steam.choice.done", icon="done",
                                          detail=Event(key="steam.choice.done_detail",
                                                       params={"placed": left.placed, "limit": left.limit}))))
    return choices


def _face_value(how: str, face_id: str) -> str:
    return face_id if how == "build" else f"{how} {face_id}"


def _tile_place(label: str, how: str, face_id: str, rotation: int) -> Where:
    """The hex, with the tile a pick would lay there ("<how> <face> <rotation>"), so a picture
    can draw each option in place (render/steam/places.py reads it back)."""
    return Where(kind="hex", at=(label,), show=f"{how} {face_id} {rotation}")


@lru_cache(maxsize=16384)
def _rotation_pick(map_id: str, label: str, face_id: str, rotation: int, cost: int, how: str,
                   new_cities: tuple[tuple[str, str], ...]) -> Pick:
    """The last step of a build: a rotation with its price and what each exit faces. A board
    changes a few hexes a move, so the same picks recur from menu to menu: they are made once
    (picks are immutable) instead of thousands of times per menu."""
    exits = _exits(face_id, rotation)
    return _pick(ROTATION, f"r{rotation}", "steam.choice.rotation", icon=how, rotation=rotation, cost=cost,
                 sides=[{"key": SIDE_KEYS[s]} for s in exits],
                 detail=Event(key="steam.choice.reaches",
                              params={"exits": _reaches_on(map_id, label, exits, new_cities)}),
                 place=_tile_place(label, how, face_id, rotation))


@lru_cache(maxsize=16384)
def _placement_pick(map_id: str, label: str, face_id: str, rotation: int, cost: int, how: str,
                    new_cities: tuple[tuple[str, str], ...]) -> Pick:
    """A tile and its rotation in one pick (a hex with few ways, PLACEMENTS_AT_ONCE): its words
    are the tile's and the rotation's, and its picture the tile laid that way."""
    way = _rotation_pick(map_id, label, face_id, rotation, cost, how, new_cities)
    tile = Event(key=f"steam.choice.face_{how}", params={"face": face_id, "name": dict(tileset().faces[face_id].name)})
    return Pick(step=TILE, value=f"{_face_value(how, face_id)} r{rotation}", icon=how, place=way.place,
                label=Event(key="steam.choice.placement", params={
                    "tile": tile.model_dump(mode="json", exclude={"to"}),
                    "way": way.label.model_dump(mode="json", exclude={"to"})}),
                detail=way.detail)


def _hex_order(label: str) -> tuple[int, str, int]:
    """Hexes in reading order of their labels: column letters, then row number."""
    letters = label.rstrip("0123456789")
    return (len(letters), letters, int(label[len(letters):]))


def _supply_pick(state: SteamState, space: int) -> Pick:
    if space == 0:
        return _pick(SUPPLY, "0", "steam.choice.supply_none", icon="supply")
    counts = state.supply[space - 1]
    return _pick(SUPPLY, str(space), "steam.choice.supply", icon="supply", space=space,
                 cubes=_cube_words(counts))


def _cube_words(counts: list[int]) -> list[dict[str, Any]]:
    return [{"key": "steam.choice.cubes_of", "params": {"count": k, "colour": colour_words(COLOURS[i])}}
            for i, k in enumerate(counts) if k]


def _urbanize_choices(game: Any, state: SteamState, seat: int, most: int | None = None) -> list[Choice]:
    moves = game.urbanizations(state, seat)[:most]  # they all start with the one pick "urbanize"
    if not moves:
        return []
    first = _pick(BUILD, "urbanize", "steam.choice.urbanize", icon="urbanize",
                  detail=Event(key="steam.tile_help.urbanize"))
    # towns × colours × supply spaces: each pick is made once and shared by the paths through it
    # a town's name is not on the board (only cities' are): its picture says where it is
    towns = {t: _pick(TOWN, t, "steam.choice.town", icon="town", hex=_place_words(state, t),
                      place=Where(kind="hex", at=(t,)))
             for t in dict.fromkeys(a.hex for a in moves)}
    colours = {c: _pick(COLOUR, c, "steam.choice.new_city", icon=c, colour=colour_words(c),
                        detail=Event(key="steam.choice.new_city_left", params={"count": state.new_city_tiles.get(c, 0)}))
               for c in dict.fromkeys(a.colour for a in moves)}
    spaces = {k: _supply_pick(state, k) for k in dict.fromkeys(a.space for a in moves)}
    return [_one(a, first, towns[a.hex], colours[a.colour], spaces[a.space]) for a in moves]


def _growth_choices(game: Any, state: SteamState, seat: int, most: int | None = None) -> list[Choice]:
    moves = game.growths(state, seat)[:most]  # they all start with the one pick "grow"
    if not moves:
        return []
    m = board_map(state)
    colours = city_colours(state)
    first = _pick(BUILD, "grow", "steam.choice.grow", icon="city_growth",
                  detail=Event(key="steam.choice.growth_left", params={"count": state.growth_left}))
    spaces = {k: _supply_pick(state, k) for k in dict.fromkeys(a.space for a in moves)}
    cities = {}
    for label in dict.fromkeys(a.hex for a in moves):
        colour = colours[m.hex_at(label)].value
        cubes = _cube_words(state.cubes.get(label, [0] * len(COLOURS))) or [{"key": "steam.choice.no_cubes"}]
        cities[label] = _pick(CITY, label, "steam.choice.city", icon=colour, hex=_place_words(state, label),
                              colour=colour_words(colour),
                              detail=Event(key="steam.choice.city_cubes", params={"cubes": cubes}),
                              place=Where(kind="city", at=(label,), named=True))
    return [_one(a, first, cities[a.hex], spaces[a.space]) for a in moves]


# --- deliveries (ST-8, ST-9) ----------------------------------------------------------------
def _delivery_choices(game: Any, state: SteamState, seat: int) -> list[Choice]:
    m = board_map(state)
    p = state.players[seat]
    found = game.deliveries(state, seat)
    by_cube: dict[tuple[Any, Any], list[Any]] = {}
    for d in found:
        by_cube.setdefault((d.source, d.colour), []).append(d)
    choices: list[Choice] = []
    for (source, colour), routes in sorted(by_cube.items(), key=lambda kv: (kv[0][0], COLOUR_ORDER.index(kv[0][1]))):
        label = m.label(source)
        waiting = state.cubes.get(label, [0] * len(COLOURS))[COLOURS.index(colour.value)]
        best = max(d.points_of(seat) for d in routes)
        # a cube is where it waits: its city, and among the city's cubes one of its colour
        cube = _pick(CUBE, f"{label}:{colour.value}", "steam.choice.cube", icon=colour.value,
                     colour=colour_words(colour.value), hex=_place_words(state, label), count=waiting,
                     detail=Event(key="steam.choice.cube_detail", params={"count": len(routes), "best": best}),
                     place=Where(kind="city", at=(label, colour.value), named=True))
        texts = [game._route_text(state, d) for d in routes]
        for i, (d, text) in enumerate(sorted(zip(routes, texts), key=lambda dt: (-dt[0].points_of(seat),
                                                                                 len(dt[0].links), dt[1]))):
            value = text if len(text) <= VALUE_MAX else f"#{i}"
            owners = [({"key": "steam.choice.you_points", "params": {"points": pts}} if s == seat else
                       {"key": "steam.choice.owner_points", "params": {"owner_seat": s, "points": pts}})
                      for s, pts in sorted(d.points, key=lambda sp: (sp[0] != seat, sp[0]))]
            unowned = len(d.links) - sum(pts for _, pts in d.points)
            if unowned:
                owners.append({"key": "steam.choice.unowned", "params": {"count": unowned}})
            route = _pick(ROUTE, value, "steam.choice.route", icon=colour.value,
                          route="→".join(m.label(h) for h in d.places), links=len(d.links), owners=owners,
                          detail=Event(key="steam.choice.route_detail", params={
                              "places": [dict(m.places[h].name) if h in m.places else m.label(h) for h in d.places]}),
                          place=Where(kind="route", at=tuple(text.split("-")), show=route_points(d, unowned)))
            choices.append(_one(Deliver(colour=colour.value, route=text), cube, route))
    if not p.loco_upgraded and p.locomotive < components().locomotive["max"]:
        choices.append(_one(Upgrade(), _pick(CUBE, "locomotive", "steam.choice.locomotive", icon="locomotive",
                                             level=p.locomotive + 1,
                                             detail=Event(key="steam.choice.locomotive_detail"))))
    choices.append(_one(Pass(), _pick(CUBE, "pass", "steam.act.pass_delivery", icon="pass",
                                      detail=Event(key="steam.choice.pass_delivery_detail",
                                                   params={"round": state.deliver_round}))))
    return choices


def route_points(d: Any, unowned: int) -> str:
    """What a delivery scores, as a route's picture writes it: "<seat>:<points>" per owner in
    seat order, then "-:<links>" for the unowned links ("0:2,1:1,-:1")."""
    parts = [f"{s}:{pts}" for s, pts in sorted(d.points)]
    return ",".join(parts + ([f"-:{unowned}"] if unowned else [])) or "-:0"


# --- income or points (ST-9) ------------------------------------------------------------------
def _score_choices(state: SteamState, seat: int) -> list[Choice]:
    waiting, points = state.pending[0]
    assert waiting == seat
    p = state.players[seat]
    income = _pick(SCORE, "income", "steam.choice.score_income", icon="income", points=points,
                   before=p.income, after=p.income + points)
    victory = _pick(SCORE, "points", "steam.choice.score_points", icon="points", points=points,
                    before=p.points, after=p.points + points)
    return [_one(Score(into="income"), income), _one(Score(into="points"), victory)]
