"""Catan Express's menus (games/core/choices.py): every legal move as a short path of picks.

    main turn    what → details:  settlement → point;  city → point;  rail → intersection →
                 centre;  ferry → intersection → intersection;  card → which → (robber hex →
                 victim | resource | cards);  bank → give → get;  ride → next point (→ the
                 toll, owner and resource, when the piece is others');  route → stop;  buy;  end;
                 offer → a counted group: the cards given and the cards asked, any counts
                 (CE-B5), never one resource on both sides
    before the   roll, or card → which → … (CE-B3)
    roll
    setup        point;  then the free rail's centre
    a 7          discard: the cards to give up, one counted group, all at once and in secret;
                 robber: hex → victim
    gold         the cards, one pick
    offer        accept / refuse (secret from the other answerers); the offerer picks a partner
                 among those who accepted, as soon as one has
    stops        point

Why it is shaped so
    The paths are built from the rules' own legal moves (`legal_actions`), so the menus offer
    exactly what the rules allow and nothing else, and the shared chooser needs no knowledge of
    Catan. A pick that names a place on the board carries it (`Pick.place`: an intersection, a
    rail's spoke or a ferry's edge, the robber's hex, the locomotive's way), so a front end shows
    the step's options numbered on a picture of the map; the words say what a player weighs the
    place by (the land round an intersection, a hex's label and token, a building), not the
    intersection's printed number, which would read as a second number beside the picture's.
    A rail or ferry whose intersection leads to one piece only is placed by that pick (the
    chooser asks no more), so that pick names the piece. A discard or an
    answer is a secret simultaneous choice: its decision carries a key of its own so one
    player's discard never makes another's menu stale. An offer can be on any terms (CE-B5,
    `CatanExpress.offer_problem`): far too many to list, so it is one group whose items may be
    picked several times ("ore ×4"); the rules' list of moves holds only the small offers it
    suggests, all of them picks of the group.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core.choices import Choice, Decision, Group, Part, Pick, Place
from games.core.events import Event
from games.catan_express.components import RESOURCES
from games.catan_express.economy import Hand, resource_param
from games.catan_express.geo import board_for, geo_for, harbour_kinds
from games.catan_express.notation import cards_text, format_action, leg_text


def _e(key: str, **params: Any) -> Event:
    return Event(key=key, params=params)


def _cards(counts: tuple[int, ...] | list[int]) -> list[dict]:
    return Hand(tuple(counts)).param()


def _seat(seat: int) -> dict:
    return {"seat": seat}


class _Picks:
    """Picks shared between choices (an offer menu has hundreds of paths through few picks)."""

    def __init__(self) -> None:
        self._made: dict[tuple[str, str, str, Any, Place | None], Pick] = {}

    def __call__(self, step: str, value: str, label: Event, icon: str | None = None,
                 place: Place | None = None, words: Any = None) -> Pick:
        """`words`: what the label's parameters depend on, when that is quicker to compare than
        the parameters themselves (an intersection's building: the land round it is fixed)."""
        key = (step, value, label.key, repr(label.params) if words is None else words, place)
        pick = self._made.get(key)
        if pick is None:
            pick = self._made[key] = Pick(step=f"catan_express.step.{step}", value=value, label=label, icon=icon, place=place)
        return pick


_SHARED = _Picks()  # the picks of the fixed choices below


def what(pick: _Picks, value: str) -> Pick:
    return pick("action", value, _e(f"catan_express.menu.{value}"), icon=value)


RESOURCE_NAMES = frozenset(r.value for r in RESOURCES)


def _land_of(board: Any, label: str) -> dict:
    """A land hex as its terrain and token ("forest 8"), as the board shows it."""
    land = board.at(board.hex_at(label))
    terrain = {"key": f"catan_express.terrain.{land.terrain.value}"}
    if land.token is None:
        return {"key": "catan_express.pick.land_plain", "params": {"terrain": terrain}}
    return {"key": "catan_express.pick.land", "params": {"terrain": terrain, "token": land.token}}


def _land(game: Any, state: Any, label: str) -> dict:
    return _land_of(game.board(state), label)


@lru_cache(maxsize=64)
def _surroundings(map_id: str, layout: str, seed: int) -> dict[int, tuple[list[dict], dict | None]]:
    """Per intersection of a board: the land it touches, the likeliest rolls first (what a
    building there earns), and its harbour. Made once per board: a first settlement offers
    every intersection."""
    board = board_for(map_id, layout, seed)
    geo = geo_for(map_id, layout, seed)
    kinds = harbour_kinds(map_id, layout, seed)
    out = {}
    for n, hexes in geo.land_of.items():
        tokens = {h: board.at(board.hex_at(h)).token for h in hexes}
        ordered = sorted(hexes, key=lambda h: (-(6 - abs(7 - tokens[h])) if tokens[h] else 1, h))
        kind = kinds.get(n)
        harbour = (None if kind is None else {"key": "catan_express.pick.harbour_any"} if kind not in RESOURCE_NAMES
                   else {"key": "catan_express.pick.harbour", "params": {"resource": resource_param(kind)}})
        out[n] = ([_land_of(board, h) for h in ordered], harbour)
    return out


def point_label(game: Any, state: Any, name: str) -> Event:
    """An intersection in words a player weighs it by: the building on it, the land round it
    and its harbour. Its printed number is left out: a pick picture numbers its options, and a
    second number beside that one would read as another option's."""
    n = int(name)
    land, harbour = _surroundings(state.map_id, state.options.layout, state.seed)[n]
    b = state.buildings.get(n)
    if b is not None:
        return _e("catan_express.pick.point_built", seat=b.seat, building={"key": f"catan_express.piece.{b.kind}"}, land=land)
    if harbour is not None:
        return _e("catan_express.pick.point_harbour", land=land, harbour=harbour)
    return _e("catan_express.pick.point", land=land)


def _point(game: Any, state: Any, pick: _Picks, name: str, step: str = "point") -> Pick:
    if name.isdigit():
        b = state.buildings.get(int(name))
        return pick(step, name, point_label(game, state, name), place=Place(kind="point", at=(name,)),
                    words=() if b is None else (b.seat, b.kind))
    return _centre(game, state, pick, name, step)


def _centre(game: Any, state: Any, pick: _Picks, label: str, step: str = "centre",
            place: Place | None = None) -> Pick:
    """A hex centre by its printed label, terrain and token; `place`: what picking it places
    (a rail's spoke to it, the robber on its hex)."""
    board = game.board(state)
    land = board.at(board.hex_at(label))
    params: dict[str, Any] = {"hex": label, "terrain": {"key": f"catan_express.terrain.{land.terrain.value}"}}
    if land.token is None:
        return pick(step, label, _e("catan_express.pick.centre_plain", **params), icon=land.terrain.value, place=place)
    return pick(step, label, _e("catan_express.pick.centre", token=land.token, **params), icon=land.terrain.value, place=place)


def _where(game: Any, state: Any, name: str) -> dict:
    """A point a locomotive goes to, in words: a hex centre by its label and land, an
    intersection by its building or its land, and whether it is a stop (not which: its order
    is a number, and the picture's numbers are its options')."""
    if not name.isdigit():
        return {"key": "catan_express.pick.at_centre", "params": {"hex": name, "land": _land(game, state, name)}}
    words = point_label(game, state, name).model_dump(mode="json", exclude={"to"})
    if int(name) in state.stops:
        return {"key": "catan_express.pick.at_stop", "params": {"point": words}}
    return words


def path_of(game: Any, state: Any, seat: int, action: Any, pick: _Picks) -> tuple[Pick, ...]:
    kind = action.kind
    phase = state.phase if state is not None else None  # None: a fixed choice (FIXED_KINDS)
    if kind == "roll":
        return (what(pick, "roll"),)
    if kind == "end":  # a special building turn (CE-B7) is not the player's turn: its end says so
        return (what(pick, "end_special" if phase == "special" else "end"),)
    if kind == "buy":
        return (what(pick, "buy"),)
    if kind == "build":
        if phase == "setup":
            if action.what == "settlement":
                return (_point(game, state, pick, action.at),)
            a, b = game.geo(state).ends[action.at]
            return (_centre(game, state, pick, b, place=Place(kind="edge", at=(a, b))),)
        head = what(pick, action.what)
        if action.what in ("settlement", "city"):
            return head, _point(game, state, pick, action.at)
        a, b = game.geo(state).ends[action.at]
        owners = sorted(set(state.pieces.get(action.at, ())))
        piece = Place(kind="edge", at=(a, b))
        if action.what == "rail":
            last = _centre(game, state, pick, b, place=piece)
        else:
            last = pick("to", b, point_label(game, state, b), place=piece)
        if owners:
            label = _e("catan_express.pick.parallel", place=last.label.model_dump(mode="json"), seats=owners,
                       count=len(owners))
            last = pick(last.step.removeprefix("catan_express.step."), last.value, label, icon=last.icon, place=piece)
        return head, _point(game, state, pick, a), last
    if kind == "robber":
        hexes = _centre(game, state, pick, action.hex, step="hex", place=Place(kind="hex", at=(action.hex,)))
        victim = (pick("victim", "-", _e("catan_express.pick.nobody")) if action.victim is None
                  else pick("victim", f"@{action.victim + 1}", _e("catan_express.pick.seat", **_seat(action.victim))))
        if phase == "robber":
            return hexes, victim
        return what(pick, "card"), pick("card", "knight", _e("catan_express.card.knight")), hexes, victim
    if kind == "monopoly":
        return (what(pick, "card"), pick("card", "monopoly", _e("catan_express.card.monopoly")),
                pick("resource", action.resource, _e(f"catan_express.resource.{action.resource}"), icon=action.resource))
    if kind == "plenty":
        return (what(pick, "card"), pick("card", "year_of_plenty", _e("catan_express.card.year_of_plenty")),
                pick("cards", cards_text(action.cards), _e("catan_express.pick.cards", cards=_cards(action.cards))))
    if kind == "roads":
        return what(pick, "card"), pick("card", "road_building", _e("catan_express.card.road_building"))
    if kind == "bank":
        i = next(k for k, n in enumerate(action.give) if n)
        j = next(k for k, n in enumerate(action.get) if n)
        give = RESOURCES[i].value
        return (what(pick, "bank"),
                pick("give", give, _e("catan_express.pick.bank_give", cards=_cards(action.give)), icon=give),
                pick("get", RESOURCES[j].value, _e(f"catan_express.resource.{RESOURCES[j].value}"), icon=RESOURCES[j].value))
    if kind == "answer":
        value = "accept" if action.accept else "refuse"
        return (pick("answer", value, _e(f"catan_express.menu.{value}"), icon=value),)
    if kind == "partner":
        if action.seat is None:
            return (pick("partner", "withdraw", _e("catan_express.menu.withdraw"), icon="withdraw"),)
        return (pick("partner", f"@{action.seat + 1}", _e("catan_express.pick.seat", **_seat(action.seat))),)
    if kind == "discard" or kind == "gold":
        return (pick("cards", cards_text(action.cards), _e("catan_express.pick.cards", cards=_cards(action.cards))),)
    if kind == "stop":
        return (_point(game, state, pick, str(action.at)),)
    if kind == "ride":
        start = str(state.players[seat].loco)
        if len(action.legs) == 1:
            # where to, on the board; then, on another's line, whom to pay and in what
            leg = action.legs[0]
            where = _where(game, state, leg.to)
            place = Place(kind="route", at=(start, leg.to))
            if leg.payee is None:
                return what(pick, "ride"), pick("next", leg.to, _e("catan_express.pick.leg_free", to=where), place=place)
            owners = sorted(set(state.pieces.get(game.geo(state).between[frozenset((start, leg.to))][0], ())))
            return (what(pick, "ride"), pick("next", leg.to, _e("catan_express.pick.leg_toll", to=where, seats=owners), place=place),
                    pick("toll", leg_text(leg), _e("catan_express.pick.toll", seat=leg.payee, resource=resource_param(leg.resource)),
                         icon=leg.resource))
        tolls = sum(1 for leg in action.legs if leg.payee is not None)
        end = action.legs[-1].to
        return what(pick, "route"), pick("stop", end, _e(
            "catan_express.pick.route", to=_where(game, state, end), legs=len(action.legs), tolls=tolls),
            place=Place(kind="route", at=(start, *(leg.to for leg in action.legs))))
    raise ValueError(f"no menu path for {action!r}")


# Moves whose menu path reads nothing from the state: their choices are made once and shared
# (a big hand's bank trades and Years of Plenty, turn after turn).
FIXED_KINDS = frozenset({"bank", "plenty", "gold", "monopoly", "roads", "roll", "end", "buy", "answer"})


@lru_cache(maxsize=16384)
def _fixed_choice(action: Any) -> Choice:
    return Choice(notation=format_action(action), path=path_of(None, None, -1, action, _SHARED))


def _resource_pick(step: str, resource: str) -> Pick:
    return Pick(step=f"catan_express.step.{step}", value=resource, label=_e(f"catan_express.resource.{resource}"), icon=resource)


def _discard_group(state: Any, seat: int) -> Group:
    """A 7's discard (CE-B4): the cards to give up, picked together from the hand, as many of a
    resource as one holds."""
    held = [(r.value, n) for r, n in zip(RESOURCES, state.players[seat].hand) if n]
    due = state.discards[seat]
    return Group(step="catan_express.step.discard", items=tuple(_resource_pick("discard", r) for r, _ in held),
                 most=tuple(n for _, n in held), min=due, max=due, template="discard {}", sep="+",
                 counted="{n}{value}")


def _gold_group(state: Any) -> Group:
    """The gold river's cards (CE-B1): as many as are owed, or as the bank still
    holds, picked together with counts ("ore ×2, wool ×1") from what the bank has, one step
    whatever their number (as a list of every combination, three cards were 35 options)."""
    due = min(state.gold_owed[0][1], sum(state.bank))
    stocked = [(r.value, n) for r, n in zip(RESOURCES, state.bank) if n]
    return Group(step="catan_express.step.cards", items=tuple(_resource_pick("cards", r) for r, _ in stocked),
                 most=tuple(min(n, due) for _, n in stocked), min=due, max=due, template="gold {}", sep="+",
                 counted="{n}{value}")


def _offer_group(game: Any, state: Any, seat: int, entry: Pick) -> Group:
    """An offer on any terms (CE-B5): the cards given, as many of a resource as one holds, and
    the cards asked, as many of a resource as there are (`offer_ask_most`); never one resource
    on both sides. The template is the notation's, so a pick is spelled as `format_action`
    spells the move."""
    hand = state.players[seat].hand
    most = game.offer_ask_most(state)
    give = [(r.value, n) for r, n in zip(RESOURCES, hand) if n]
    asked = len(RESOURCES) * most
    return Group(step="catan_express.step.offer",
                 items=tuple(_resource_pick("give", r) for r, _ in give) + tuple(_resource_pick("get", r.value)
                                                                                 for r in RESOURCES),
                 most=tuple(n for _, n in give) + (most,) * len(RESOURCES),
                 min=2, max=sum(hand) + asked, template="offer {} {}", sep="+", counted="{n}{value}",
                 parts=(Part(step="catan_express.step.give", size=len(give), min=1, max=sum(hand)),
                        Part(step="catan_express.step.get", size=len(RESOURCES), min=1, max=asked)),
                 exclusive=True, entry=entry)


def _pieces_in_one(choices: list[Choice]) -> list[Choice]:
    """A rail or ferry whose intersection leads to one piece only is built by picking the
    intersection (the chooser takes the one next step without asking): that pick then places
    the piece, and its picture traces it, not only its intersection."""
    count: dict[tuple[str, str], int] = {}
    for c in choices:
        if len(c.path) == 3 and c.path[0].value in ("rail", "ferry"):
            key = (c.path[0].value, c.path[1].value)
            count[key] = count.get(key, 0) + 1
    if not count:
        return choices
    out = []
    for c in choices:
        if len(c.path) == 3 and count.get((c.path[0].value, c.path[1].value)) == 1:
            head, at, last = c.path
            c = Choice(notation=c.notation, path=(head, at.model_copy(update={"place": last.place}), last))
        out.append(c)
    return out


def decision(game: Any, state: Any, seat: int) -> Decision:
    legal = game.legal_actions(state, seat)
    prompt = game.prompt(state, seat)
    if not legal:
        return Decision(seat=seat, prompt=prompt)
    pick = _Picks()
    phase = state.phase
    if phase == "discard":
        return Decision(seat=seat, key=f"catan_express.discard.{state.turn}.{seat}", secret=True, prompt=prompt,
                        groups=[_discard_group(state, seat)])
    if phase == "gold":
        return Decision(seat=seat, prompt=prompt, groups=[_gold_group(state)])
    choices = []
    offers = False
    for a in legal:
        if a.kind == "offer":
            offers = True  # the rules' suggestions: all of them picks of the offer group
        else:
            choices.append(_fixed_choice(a) if a.kind in FIXED_KINDS else
                           Choice(notation=game.format_action(a), path=path_of(game, state, seat, a, pick)))
    choices = _pieces_in_one(choices)
    groups = [_offer_group(game, state, seat, what(pick, "offer"))] if offers else []
    key = None
    secret = False
    if phase == "answer" and seat != state.current:
        key, secret = f"catan_express.answer.{state.turn}.{state.offers_made}.{seat}", True
    return Decision(seat=seat, key=key, secret=secret, prompt=prompt, choices=choices, groups=groups)


def describe(game: Any, state: Any, seat: int, action: Any) -> Event:
    """Words for a move: buttons, autocomplete and the log of one's own moves."""
    kind = action.kind
    if kind == "end" and state is not None and state.phase == "special":
        return _e("catan_express.do.end_special")
    if kind in ("roll", "buy", "roads", "end"):
        return _e(f"catan_express.do.{kind}")
    if kind == "build":
        return _e("catan_express.do.build", what={"key": f"catan_express.piece.{action.what}"}, at=action.at)
    if kind == "robber":
        word = "knight" if action.knight else "robber"
        if action.victim is None:
            return _e(f"catan_express.do.{word}", hex=action.hex)
        return _e(f"catan_express.do.{word}_rob", hex=action.hex, victim_seat=action.victim)
    if kind == "monopoly":
        return _e("catan_express.do.monopoly", resource=resource_param(action.resource))
    if kind in ("plenty", "discard", "gold"):
        return _e(f"catan_express.do.{kind}", cards=_cards(action.cards))
    if kind in ("bank", "offer"):
        return _e(f"catan_express.do.{kind}", gave=_cards(action.give), got=_cards(action.get))
    if kind == "answer":
        return _e("catan_express.do.accept" if action.accept else "catan_express.do.refuse")
    if kind == "partner":
        return _e("catan_express.do.withdraw") if action.seat is None else _e("catan_express.do.trade", partner_seat=action.seat)
    if kind == "ride":
        return _e("catan_express.do.ride", route=[leg.to for leg in action.legs],
                  tolls=sum(1 for leg in action.legs if leg.payee is not None))
    if kind == "stop":
        return _e("catan_express.do.stop", at=str(action.at))
    raise ValueError(f"not a Catan Express move: {action!r}")


def prompt(game: Any, state: Any, seat: int) -> Event | None:
    """What the game asks of `seat` now."""
    if seat not in game.active_players(state):
        return None
    phase = state.phase
    if phase == "setup":
        return _e("catan_express.ask.setup_rail" if state.setup_rail else "catan_express.ask.setup_settlement",
                  round=1 if state.setup_pos < state.n else 2)
    if phase == "roll":
        return _e("catan_express.ask.roll")
    if phase == "gold":
        return _e("catan_express.ask.gold", count=min(state.gold_owed[0][1], sum(state.bank)))
    if phase == "discard":
        return _e("catan_express.ask.discard", count=state.discards[seat])
    if phase == "robber":
        return _e("catan_express.ask.robber")
    if phase == "answer" and seat == state.current:  # someone accepted; others may still answer
        return _e("catan_express.ask.pick_early", seats=game.acceptors(state),
                  waiting_seats=sorted(s for s in game.active_players(state) if s != seat))
    if phase == "answer":
        return _e("catan_express.ask.answer", seat=state.current, gave=_cards(state.offer.give), got=_cards(state.offer.get))
    if phase == "pick":
        return _e("catan_express.ask.pick", seats=game.acceptors(state))
    if phase == "special":
        return _e("catan_express.ask.special", seat=state.current)
    if phase == "stops":
        return _e("catan_express.ask.stop", number=len(state.stops) + 1)
    if state.moving:
        return _e("catan_express.ask.moving", count=state.move_left)
    if state.race and state.move_left:
        return _e("catan_express.ask.main_race", count=state.move_left)
    return _e("catan_express.ask.main")
