"""Santa Fe's decisions as menus (games/core/choices.py).

* The secret card choice (SF-2): one step, a city card or the double turn; a held spur card
  goes with whatever is played (the rules allow nothing else), so it is part of each label.
  Secret, with the key "choose.<round>": another player's choice never changes it.
* Track laying (SF-6, SF-7, SF-11, SF-12): railroad → section → end. The first step lists the
  railroads that can be extended, a separate entry per railroad whose spur may start a new
  line, and Pass (advanced) / Decline (buy-track rule). A section that can be built from one
  end only is a single pick that says the direction, its cost and what it reaches; only an
  empty section open at both ends asks for the end. Sections and ends are places (`section`):
  the section's code, and the city its next tile is laid from when that is settled, so the
  step is picked on the map (render.santa_fe.places).
* The double-turn exchange (SF-3): "keep my hand" is a choice of its own and the cards are a
  group with at least one card, so the two can never be combined. A city is an item of the
  group that may be picked as many times as the hand holds its cards (both Denver cards).
  Secret (the hand is private, SF-13) and simultaneous: its key names the round and how many
  cards may go (the deck can shrink while others exchange).
* Draws (SF-4), buying a tile (SF-12), the engineer (SF-11): one step each, with counts and
  prices in the labels.
"""
from __future__ import annotations

from typing import Any

from games.core.choices import Choice, Decision, Group, Pick
from games.core.choices import Place as BoardPlace
from games.core.events import Event
from games.santa_fe import notation
from games.santa_fe.models import DOUBLE, NOTHING, Buy, Decline, Draw, Engineer, Exchange, Pass, Place, Play, SantaFeState

CARD = "santa_fe.step.card"
RAILROAD = "santa_fe.step.railroad"
SECTION = "santa_fe.step.section"
END = "santa_fe.step.end"
EXCHANGE = "santa_fe.step.exchange"
EXCHANGE_CARDS = "santa_fe.step.exchange_cards"
DRAW = "santa_fe.step.draw"
BUY = "santa_fe.step.buy"
ENGINEER = "santa_fe.step.engineer"
STEPS = (CARD, RAILROAD, SECTION, END, EXCHANGE, EXCHANGE_CARDS, DRAW, BUY, ENGINEER)


def decision(game: Any, state: SantaFeState, seat: int) -> Decision:
    prompt = game.prompt(state, seat)
    if seat not in game.active_players(state):
        return Decision(seat=seat, prompt=prompt)
    legal = game.legal_actions(state, seat)
    phase = state.phase
    if phase == "choose":
        return Decision(seat=seat, key=f"choose.{state.round}", secret=True, prompt=prompt,
                        choices=_card_choices(game, state, seat, legal))
    if phase == "exchange":
        return _exchange(game, state, seat, legal, prompt)
    if phase == "track":
        return Decision(seat=seat, prompt=prompt, choices=_track_choices(game, state, seat, legal))
    step = {"draw": DRAW, "buy": BUY, "engineer": ENGINEER}[phase]
    return Decision(seat=seat, prompt=prompt, choices=[_one_step(game, state, seat, a, step) for a in legal])


# --- words ---------------------------------------------------------------------------
def _city(board: Any, city: int) -> dict[str, str]:
    return notation.city_words(board, city)


def _city_value(board: Any, city: int) -> dict[str, Any]:
    return {"key": "santa_fe.choice.city", "params": {"city": _city(board, city), "value": board.values[city]}}


def _reached_by(board: Any, state: SantaFeState, city: int) -> Event:
    """Which railroads reach a city now, and what one of its cards is worth (SF-10)."""
    mask = state.connected[city]
    codes = [rr.code for r, rr in enumerate(board.railroads) if mask >> r & 1]
    if not codes:
        return Event(key="santa_fe.choice.not_reached")
    return Event(key="santa_fe.choice.reached_by", params={"railroads": codes, "points": board.values[city] * len(codes)})


# --- SF-2: the secret choice ------------------------------------------------------------
def _card_choices(game: Any, state: SantaFeState, seat: int, legal: list[Any]) -> list[Choice]:
    board = game.board
    held = state.players[seat].spur
    out = []
    for action in legal:
        assert isinstance(action, Play)
        label = Event(**notation.choice_words(board, action.card, action.spur, held))
        if action.card >= 0:
            value, detail, icon = board.cities[action.card].name, _reached_by(board, state, action.card), "city"
        elif action.card == DOUBLE:
            value, detail, icon = "double", Event(key="santa_fe.choice.double_detail"), "double"
        else:
            assert action.card == NOTHING
            value, detail, icon = "nothing", None, "nothing"
        pick = Pick(step=CARD, value=value, label=label, detail=detail, icon=icon)
        out.append(Choice(notation=game.format_action(action), path=(pick,)))
    return out


# --- SF-3: the double-turn exchange -----------------------------------------------------
def _exchange(game: Any, state: SantaFeState, seat: int, legal: list[Any], prompt: Event | None) -> Decision:
    board = game.board
    hand = state.players[seat].hand
    limit = min(len(hand), len(state.deck))
    choices: list[Choice] = []
    none = Exchange()
    if none in legal:
        choices.append(Choice(notation=game.format_action(none), path=(Pick(
            step=EXCHANGE, value="none", label=game.describe_action(state, seat, none), icon="keep"),)))
    distinct = sorted(set(hand))
    groups: list[Group] = []
    if limit >= 1 and distinct:
        items = tuple(Pick(step=EXCHANGE_CARDS, value=board.cities[c].name, label=Event(**_city_value(board, c)),
                           detail=_reached_by(board, state, c), icon="city") for c in distinct)
        groups.append(Group(step=EXCHANGE_CARDS, items=items, most=tuple(hand.count(c) for c in distinct),
                            min=1, max=limit, template="exchange {}", sep=","))
    return Decision(seat=seat, key=f"exchange.{state.round}.{limit}", secret=True, prompt=prompt,
                    choices=choices, groups=groups)


# --- SF-6 … SF-12: track laying --------------------------------------------------------
def _track_choices(game: Any, state: SantaFeState, seat: int, legal: list[Any]) -> list[Choice]:
    board = game.board
    p = state.players[seat]
    places = [a for a in legal if isinstance(a, Place)]
    by_target: dict[tuple[int, bool], list[Place]] = {}
    for place in places:
        by_target.setdefault((place.rr, place.spur), []).append(place)
    choices: list[Choice] = []
    for (r, spur), mine in sorted(by_target.items()):
        rr = board.railroads[r]
        own = state.supply[r] <= 0
        tiles = p.bought[r] if own else state.supply[r]
        if len(mine) == 1:  # picking the railroad makes the move: say where the tile goes
            only = _placement_pick(game, state, seat, mine[0], SECTION, "-").label
            detail = Event(key="santa_fe.choice.railroad_one_own" if own else "santa_fe.choice.railroad_one",
                           params={"place": {"key": only.key, "params": only.params}, "tiles": tiles})
        else:
            detail = Event(key="santa_fe.choice.railroad_detail_own" if own else "santa_fe.choice.railroad_detail",
                           params={"count": len(mine), "tiles": tiles})
        rr_pick = Pick(
            step=RAILROAD, value=rr.code + ("+spur" if spur else ""),
            label=Event(key="santa_fe.choice.railroad_spur" if spur else "santa_fe.choice.railroad",
                        params={"rr": notation.rr_words(board, r), "code": rr.code}),
            detail=detail, icon="spur" if spur else rr.color,
        )
        by_section: dict[int, list[Place]] = {}
        for place in sorted(mine, key=lambda a: _order(board, state, a)):
            by_section.setdefault(place.section, []).append(place)
        for sid, ends in by_section.items():
            if len(ends) == 1:  # one way to build it: the section pick is the move
                place = ends[0]
                pick = _placement_pick(game, state, seat, place, SECTION, board.sections[sid].code)
                choices.append(Choice(notation=game.format_action(place), path=(rr_pick, pick)))
                continue
            section = board.sections[sid]
            a, b = board.ends[sid]
            section_pick = Pick(
                step=SECTION, value=section.code,
                label=Event(key="santa_fe.choice.section_ends", params={
                    "a": _city(board, a), "b": _city(board, b), "half": _half(section), "spaces": section.spaces}),
                detail=Event(key="santa_fe.choice.either_end"), icon="spur" if spur else rr.color,
                place=BoardPlace(kind="section", at=(section.code,)))
            for place in ends:
                start = board.ends[sid][place.end]
                end_pick = _placement_pick(game, state, seat, place, END, board.cities[start].name)
                choices.append(Choice(notation=game.format_action(place), path=(rr_pick, section_pick, end_pick)))
    for action in legal:
        if isinstance(action, Pass):
            pick = Pick(step=RAILROAD, value="pass", label=game.describe_action(state, seat, action), icon="pass")
        elif isinstance(action, Decline):
            pick = Pick(step=RAILROAD, value="decline", label=game.describe_action(state, seat, action),
                        icon="decline")
        else:
            continue
        choices.append(Choice(notation=game.format_action(action), path=(pick,)))
    return choices


def _order(board: Any, state: SantaFeState, place: Place) -> tuple:
    """Sections under way first, then by the city a tile starts from and the city it leads to."""
    a, b = board.ends[place.section]
    start, far = (a, b) if place.end == 0 else (b, a)
    return (state.sec_built[place.section] == 0, board.cities[start].name, board.cities[far].name,
            board.sections[place.section].code, place.end)


def _half(section: Any) -> dict[str, Any] | str:
    if section.double is None:
        return ""
    return {"key": "santa_fe.choice.half", "params": {"half": 2 if section.code.endswith("/2") else 1}}


def _placement_pick(game: Any, state: SantaFeState, seat: int, place: Place, step: str, value: str) -> Pick:
    """A placement in words: "Kansas City → Wichita (space 2/3) · $1 (river)", and what the
    tile reaches: "reaches Wichita (3) · first there: +$2"."""
    board = game.board
    p = state.players[seat]
    sid = place.section
    section = board.sections[sid]
    a, b = board.ends[sid]
    start, far = (a, b) if place.end == 0 else (b, a)
    built = state.sec_built[sid]
    cost: dict[str, Any] | str = ""
    if state.options.advanced:  # SF-11: rivers and mountains; an engineer crosses rivers free
        amount = board.space_cost(sid, built, p.engineer, place.end)
        river = board.river_at(sid, built, place.end)
        if amount:
            why = ([{"key": "santa_fe.choice.mountain"}] if section.mountain else []) + \
                  ([{"key": "santa_fe.choice.river"}] if river and not p.engineer else [])
            cost = {"key": "santa_fe.choice.cost", "params": {"cost": amount, "why": why}}
        else:
            cost = {"key": "santa_fe.choice.river_free" if river else "santa_fe.choice.free"}
    label = Event(key="santa_fe.choice.place", params={
        "from": _city(board, start), "to": _city(board, far), "half": _half(section),
        "space": built + 1, "spaces": section.spaces, "cost": cost})
    remaining = section.spaces - built - 1
    if remaining:
        detail = Event(key="santa_fe.choice.toward", params={"count": remaining, "city": _city(board, far)})
    else:  # SF-9: the bonuses this tile would bring, doubled on a double turn
        mult = 2 if p.double_turn else 1
        bonuses = []
        if not state.connected[far] >> place.rr & 1:
            if board.values[far] and state.connected[far] == 0:
                bonuses.append({"key": "santa_fe.choice.first_bonus", "params": {"amount": board.rules.city_bonus * mult}})
            if board.special_city[place.rr] == far:
                bonuses.append({"key": "santa_fe.choice.special_bonus",
                                "params": {"amount": board.rules.special_bonus * mult}})
        city = _city_value(board, far) if board.values[far] else _city(board, far)
        if bonuses:
            detail = Event(key="santa_fe.choice.reaches_bonus", params={"city": city, "bonuses": bonuses})
        else:
            detail = Event(key="santa_fe.choice.reaches", params={"city": city})
    icon = "spur" if place.spur else board.railroads[place.rr].color
    return Pick(step=step, value=value, label=label, detail=detail, icon=icon,
                place=BoardPlace(kind="section", at=(section.code, board.cities[start].name)))


# --- SF-4, SF-11, SF-12: draws, the engineer, buying a tile --------------------------------
def _spur_price(board: Any, state: SantaFeState) -> int:
    return board.rules.spur_price_advanced if state.options.advanced else board.rules.spur_price


def _one_step(game: Any, state: SantaFeState, seat: int, action: Any, step: str) -> Choice:
    board = game.board
    text = game.format_action(action)
    detail = None
    icon: str | None = None
    if isinstance(action, Draw):
        if action.what == "city":
            label = Event(key="santa_fe.choice.draw_city", params={"count": len(state.deck)})
            icon = "city"
        elif action.what == "double":
            label = Event(key="santa_fe.choice.draw_double", params={"count": state.double_pile})
            detail = Event(key="santa_fe.choice.double_detail")
            icon = "double"
        elif action.what == "spur":
            label = Event(key="santa_fe.choice.draw_spur",
                          params={"rr": notation.rr_words(board, action.rr), "price": _spur_price(board, state)})
            detail = Event(key="santa_fe.choice.spur_detail")
            icon = board.railroads[action.rr].color
        else:
            label = game.describe_action(state, seat, action)
            detail = Event(key="santa_fe.choice.engineer_detail", params={"count": state.engineers})
            icon = "engineer"
    elif isinstance(action, Buy):
        if action.rr >= 0:
            label = Event(key="santa_fe.choice.buy", params={"rr": notation.rr_words(board, action.rr),
                                                       "price": board.rules.track_price})
            detail = Event(key="santa_fe.choice.supply_left", params={"count": state.supply[action.rr]})
            icon = board.railroads[action.rr].color
        else:
            label = game.describe_action(state, seat, action)
            icon = "none"
    elif isinstance(action, Engineer):
        if action.buy:
            label = Event(key="santa_fe.choice.engineer_yes", params={"price": board.rules.engineer_price})
            detail = Event(key="santa_fe.choice.engineer_detail", params={"count": state.engineers})
            icon = "engineer"
        else:
            label = game.describe_action(state, seat, action)
            icon = "none"
    else:
        label = game.describe_action(state, seat, action)
    return Choice(notation=text, path=(Pick(step=step, value=text, label=label, detail=detail, icon=icon),))

