"""Text notation for Santa Fe moves, and their words.

    play Denver | play Denver+spur               the secret choice: a city card (and the spur)
    play double | play double+spur | play nothing
    place UP Omaha>Cheyenne                      a tile of Union Pacific from Omaha toward Cheyenne
    place UP Omaha>Cheyenne/2                    ... on the second section of a double line
    spur UP Denver>Pueblo                        a new line from Denver with the spur card played
    pass | decline                               advanced: pass; optional rule: refuse own tiles
    exchange none | exchange Denver,Omaha        double turn: city cards to swap
    draw city | draw double | draw spur UP | draw engineer
    buy UP | buy none                            optional rule: buy one tile
    engineer yes | engineer no                   advanced: buy an engineer before the first round

Parsing is forgiving (any case, spaces) and raises IllegalAction with a stable code. A typed
move is read more freely still (games.core.typed, with `vocabulary` below): cities and
railroads by their English or Japanese names, any dash or arrow between two cities, and the
direction of a section left out when only one is legal.
"""
from __future__ import annotations

import re
from typing import Any

from games.core.errors import IllegalAction
from games.core.protocol import Event
from games.core.vocabulary import Vocabulary
from games.santa_fe.map import SantaFeMap
from games.santa_fe.models import DOUBLE, NOTHING, Buy, Decline, Draw, Engineer, Exchange, Pass, Place, Play

_PLACE = re.compile(r"^(place|spur)\s+([a-z]{2})\s+(.+?)\s*>\s*(.+?)(/2)?$")


# Words of the notation that must be typed, never guessed (`buy` alone is not `buy none`).
NAMED_WORDS = {
    "none": "none", "nothing": "nothing", "double": "double", "yes": "yes", "no": "no",
    "ダブル": "double", "ダブルターン": "double", "はい": "yes", "いいえ": "no",
}
# Other words, and Japanese for them.
WORDS = {
    "→": ">", "to": ">", "から": ">", "from": "", "分岐": "spur", "都市": "city", "都市カード": "city",
    "技術者": "engineer", "エンジニア": "engineer", "出す": "play", "置く": "place", "敷設": "place",
    "パス": "pass", "交換": "exchange", "引く": "draw", "取る": "draw", "買う": "buy",
    "railroad": "", "railway": "", "鉄道": "", "を": "", "の": "",
}


def vocabulary(game: Any) -> Vocabulary:
    """What a person may type: cities and railroads in English or Japanese (railroads also by
    their two letters), and the cards by name; all of these are names a move must say."""
    board: SantaFeMap = game.board
    names: dict[str, str] = dict(NAMED_WORDS)
    cities = {c.name.lower() for c in board.cities}
    for city in board.cities:
        names[city.name] = city.name
        names[city.name_ja] = city.name
    for rr in board.railroads:
        names[rr.code] = rr.code
        for spelling in rr.name.values():
            if spelling.lower() not in cities:  # "Santa Fe" alone is the city
                names[spelling] = rr.code
        names[f"{rr.name['en']} railroad"] = rr.code
        names[f"{rr.name['en']} railway"] = rr.code
        if rr.name.get("ja", "").endswith("鉄道"):
            short = rr.name["ja"][: -len("鉄道")]
            if short not in {c.name_ja for c in board.cities}:  # サンタフェ alone is the city
                names[short] = rr.code
    return Vocabulary(names=names, words=WORDS)


def _section_text(board: SantaFeMap, sid: int, end: int) -> str:
    s = board.sections[sid]
    start, to = (s.a, s.b) if end == 0 else (s.b, s.a)
    return f"{start}>{to}" + ("/2" if s.code.endswith("/2") else "")


def format_action(board: SantaFeMap, action: Any) -> str:
    if isinstance(action, Play):
        if action.card == DOUBLE:
            card = "double"
        elif action.card == NOTHING:
            return "play nothing"
        else:
            card = board.cities[action.card].name
        return f"play {card}" + ("+spur" if action.spur else "")
    if isinstance(action, Place):
        verb = "spur" if action.spur else "place"
        return f"{verb} {board.railroads[action.rr].code} {_section_text(board, action.section, action.end)}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Decline):
        return "decline"
    if isinstance(action, Exchange):
        if not action.cards:
            return "exchange none"
        return "exchange " + ",".join(board.cities[c].name for c in action.cards)
    if isinstance(action, Draw):
        if action.what == "spur":
            return f"draw spur {board.railroads[action.rr].code}"
        return f"draw {action.what}"
    if isinstance(action, Buy):
        return "buy none" if action.rr < 0 else f"buy {board.railroads[action.rr].code}"
    if isinstance(action, Engineer):
        return "engineer yes" if action.buy else "engineer no"
    raise IllegalAction("unparsable", text=str(action)[:80])


def _city(board: SantaFeMap, name: str) -> int:
    index = board.city_by_lower.get(" ".join(name.strip().lower().split()))
    if index is None:
        raise IllegalAction("santa_fe.unknown_city", city=name.strip()[:40])
    return index


def _rr(board: SantaFeMap, code: str) -> int:
    index = board.rr_index.get(code.strip().lower())
    if index is None:
        raise IllegalAction("santa_fe.unknown_railroad", rr=code.strip()[:10])
    return index


def parse_action(board: SantaFeMap, text: str) -> Any:
    raw = str(text)
    text = " ".join(raw.strip().lower().split())
    if not text or len(text) > 300:
        raise IllegalAction("unparsable", text=raw[:80])
    if text == "pass":
        return Pass()
    if text == "decline":
        return Decline()
    if text.startswith("play "):
        body = text[5:].strip()
        spur = False
        if body.endswith("+spur"):
            spur, body = True, body[: -len("+spur")].strip()
        if body == "double":
            return Play(card=DOUBLE, spur=spur)
        if body == "nothing" and not spur:
            return Play(card=NOTHING)
        return Play(card=_city(board, body), spur=spur)
    match = _PLACE.match(text)
    if match:
        verb, code, start, to, half = match.groups()
        r = _rr(board, code)
        a, b = _city(board, start), _city(board, to)
        for sid, ends in enumerate(board.ends):
            if set(ends) == {a, b} and board.sections[sid].code.endswith("/2") == bool(half):
                return Place(rr=r, section=sid, end=0 if ends[0] == a else 1, spur=verb == "spur")
        raise IllegalAction("santa_fe.unknown_section", section=f"{start}>{to}{half or ''}"[:60])
    if text.startswith("exchange"):
        body = text[len("exchange"):].strip()
        if body in ("", "none"):
            return Exchange()
        return Exchange(cards=tuple(sorted(_city(board, part) for part in body.split(",") if part.strip())))
    if text.startswith("draw "):
        body = text[5:].strip()
        if body in ("city", "double", "engineer"):
            return Draw(what=body)
        if body.startswith("spur "):
            return Draw(what="spur", rr=_rr(board, body[5:]))
        raise IllegalAction("unparsable", text=raw[:80])
    if text.startswith("buy "):
        body = text[4:].strip()
        return Buy(rr=-1) if body == "none" else Buy(rr=_rr(board, body))
    if text in ("engineer yes", "engineer no"):
        return Engineer(buy=text.endswith("yes"))
    raise IllegalAction("unparsable", text=raw[:80])


# --- words ---------------------------------------------------------------------------
def city_words(board: SantaFeMap, city: int) -> dict[str, str]:
    c = board.cities[city]
    return {"en": c.name, "ja": c.name_ja}


def rr_words(board: SantaFeMap, r: int) -> dict[str, str]:
    return dict(board.railroads[r].name)


def section_words(board: SantaFeMap, sid: int, end: int) -> dict[str, Any]:
    a, b = board.ends[sid]
    start, to = (a, b) if end == 0 else (b, a)
    s = board.sections[sid]
    key = "santa_fe.section.double" if s.double is not None else "santa_fe.section"
    return {"key": key, "params": {"from": city_words(board, start), "to": city_words(board, to),
                                   "spaces": s.spaces, "half": 2 if s.code.endswith("/2") else 1}}


def choice_words(board: SantaFeMap, card: int, spur: bool, spur_rr: int) -> dict[str, Any]:
    if card == NOTHING:
        return {"key": "santa_fe.choice.nothing"}
    what = {"key": "santa_fe.choice.double"} if card == DOUBLE else {
        "key": "santa_fe.choice.city", "params": {"city": city_words(board, card), "value": board.values[card]}}
    if spur and spur_rr >= 0:
        return {"key": "santa_fe.choice.with_spur", "params": {"card": what, "rr": rr_words(board, spur_rr)}}
    return what


def describe(board: SantaFeMap, action: Any, held_spur: int, state: Any = None) -> Event:
    if isinstance(action, Play):
        return Event(key="santa_fe.act.play", params={"choice": choice_words(board, action.card, action.spur, held_spur)})
    if isinstance(action, Place):
        params: dict[str, Any] = {"rr": rr_words(board, action.rr), "section": section_words(board, action.section, action.end)}
        if state is not None and state.options.advanced:
            seat = state.current
            cost = board.space_cost(action.section, state.sec_built[action.section], state.players[seat].engineer,
                                   action.end)
            if cost:
                return Event(key="santa_fe.act.place_paid" if not action.spur else "santa_fe.act.spur_paid",
                             params={**params, "cost": cost})
        return Event(key="santa_fe.act.spur" if action.spur else "santa_fe.act.place", params=params)
    if isinstance(action, Pass):
        return Event(key="santa_fe.act.pass")
    if isinstance(action, Decline):
        return Event(key="santa_fe.act.decline")
    if isinstance(action, Exchange):
        if not action.cards:
            return Event(key="santa_fe.act.exchange_none")
        return Event(key="santa_fe.act.exchange", params={"cities": [city_words(board, c) for c in action.cards]})
    if isinstance(action, Draw):
        if action.what == "spur":
            return Event(key="santa_fe.act.draw_spur", params={"rr": rr_words(board, action.rr)})
        return Event(key=f"santa_fe.act.draw_{action.what}")
    if isinstance(action, Buy):
        if action.rr < 0:
            return Event(key="santa_fe.act.buy_none")
        return Event(key="santa_fe.act.buy", params={"rr": rr_words(board, action.rr)})
    if isinstance(action, Engineer):
        return Event(key="santa_fe.act.engineer_yes" if action.buy else "santa_fe.act.engineer_no")
    return Event(key="santa_fe.act.pass")
