"""Text notation for Ticket to Ride moves, and their words.

    draw deck | draw red | draw locomotive        take a card (blind, or face-up by colour)
    tickets                                      draw destination tickets
    keep 4,17                                    keep these offered tickets (ids)
    claim Atlanta-Miami blue                     claim a route paying all blue
    claim Atlanta-Miami blue+2                   ... three blue and two locomotives
    claim Atlanta-Miami locomotive               ... locomotives only
    claim Atlanta-New Orleans/orange orange      a double route names its half
    pass                                         only when nothing else is possible

Parsing is forgiving (any case, either city order, common colour aliases) and raises
IllegalAction with a stable code on anything it cannot read. A typed move is read more
freely still (games.core.typed, with `vocabulary` below): Japanese city and colour names, any
dash between the cities, and the route half or the payment left out when only one fits.
"""
from __future__ import annotations

import re
from typing import Any

from games.core.errors import IllegalAction
from games.core.i18n import translate
from games.core.protocol import Event
from games.core.vocabulary import Vocabulary
from games.ticket_to_ride.map import TicketToRideMap
from games.ticket_to_ride.models import Claim, DrawCard, DrawTickets, KeepTickets, Pass

ALIASES = {
    "purple": "pink", "violet": "pink", "loco": "locomotive", "wild": "locomotive",
    "rainbow": "locomotive", "l": "locomotive", "grey": "gray",
}
_CLAIM = re.compile(r"^claim\s+(?P<route>.+?)\s+(?P<color>[a-z]+)(?:\s*\+\s*(?P<locos>\d+))?$")


# Other spellings people type for a city (the map's English and Japanese names come from the data).
CITY_SPELLINGS = {
    "st louis": "Saint Louis", "st. louis": "Saint Louis", "st.louis": "Saint Louis",
    "sault ste marie": "Sault St. Marie", "sault ste. marie": "Sault St. Marie",
    "sault st marie": "Sault St. Marie", "sault saint marie": "Sault St. Marie",
    "new york city": "New York", "washington dc": "Washington", "washington d.c.": "Washington",
    "ロサンジェルス": "Los Angeles", "セントルイス": "Saint Louis",
}
# Japanese for the other words of the notation.
WORDS_JA = {
    "引く": "draw", "山札": "deck", "目的地": "tickets", "チケット": "tickets", "残す": "keep",
    "敷設": "claim", "建設": "claim", "パス": "pass", "ロコ": "locomotive", "紫": "pink",
    "から": "", "まで": "", "へ": "", "を": "", "で": "", "と": "",  # particles between the words
}


def vocabulary(game: Any) -> Vocabulary:
    """What a person may type: cities in English or Japanese (names: a claim is only guessed
    when both cities were typed), colours in either language and their common aliases."""
    board: TicketToRideMap = game.board
    names: dict[str, str] = {}
    for city in board.cities:
        names[city.name] = city.name
        names[city.name_ja] = city.name
    names.update(CITY_SPELLINGS)
    words: dict[str, str] = dict(ALIASES)
    for color in [*board.card_colors, "gray"]:
        words[translate("ja", f"ticket_to_ride.color.{color}")] = color
        words[f"{translate('ja', f'ttr.color.{color}')}色"] = color
    words.update(WORDS_JA)
    return Vocabulary(names=names, words=words)


def _canon_color(word: str) -> str:
    word = word.strip().lower()
    return ALIASES.get(word, word)


def format_action(board: TicketToRideMap, action: Any) -> str:
    if isinstance(action, DrawCard):
        return f"draw {action.source}"
    if isinstance(action, DrawTickets):
        return "tickets"
    if isinstance(action, KeepTickets):
        return "keep " + ",".join(str(i) for i in action.ids)
    if isinstance(action, Claim):
        code = board.routes[action.route].code if 0 <= action.route < len(board.routes) else str(action.route)
        if action.color == "locomotive":
            return f"claim {code} locomotive"
        suffix = f"+{action.locos}" if action.locos else ""
        return f"claim {code} {action.color}{suffix}"
    if isinstance(action, Pass):
        return "pass"
    raise IllegalAction("unparsable", text=str(action))


def parse_action(board: TicketToRideMap, text: str) -> Any:
    raw = text
    text = " ".join(str(text).strip().lower().split())
    if not text or len(text) > 200:
        raise IllegalAction("unparsable", text=str(raw)[:80])
    if text == "tickets":
        return DrawTickets()
    if text == "pass":
        return Pass()
    if text.startswith("draw "):
        source = _canon_color(text[5:])
        if source != "deck" and source not in board.card_colors:
            raise IllegalAction("ticket_to_ride.unknown_color", color=source)
        return DrawCard(source=source)
    if text.startswith("keep "):
        try:
            # Sorted: a choice of tickets is a set, and "keep 2,1" is the same move as "keep 1,2".
            ids = tuple(sorted(int(part) for part in re.split(r"[,\s]+", text[5:].strip()) if part))
        except ValueError:
            raise IllegalAction("unparsable", text=str(raw)[:80]) from None
        if not ids:
            raise IllegalAction("unparsable", text=str(raw)[:80])
        return KeepTickets(ids=ids)
    match = _CLAIM.match(text)
    if match:
        color = _canon_color(match["color"])
        if color not in board.card_colors:
            raise IllegalAction("ticket_to_ride.unknown_color", color=color)
        route_id = _find_route(board, match["route"], color)
        length = board.routes[route_id].length
        if color == "locomotive":
            return Claim(route=route_id, color=color, locos=length)
        locos = int(match["locos"] or 0)
        if locos > 6:
            raise IllegalAction("ticket_to_ride.wrong_card_count", route=route_words(board, route_id), length=length)
        return Claim(route=route_id, color=color, locos=locos)
    raise IllegalAction("unparsable", text=str(raw)[:80])


def _find_route(board: TicketToRideMap, spec: str, pay_color: str) -> int:
    spec = spec.strip().lower()
    half = None
    if "/" in spec:
        spec, half = (part.strip() for part in spec.rsplit("/", 1))
    parts = [p.strip() for p in spec.split("-")]
    if len(parts) != 2:
        raise IllegalAction("ticket_to_ride.unknown_route", route=spec)
    ends = {parts[0], parts[1]}
    candidates = [r for r in board.routes if {r.a.lower(), r.b.lower()} == ends]
    if half is not None:
        candidates = [
            r for r in candidates
            if r.code.lower().endswith("/" + half) or (half == r.color and r.double is not None)
        ]
    if not candidates:
        raise IllegalAction("ticket_to_ride.unknown_route", route=spec)
    if len(candidates) > 1:
        matching = [r for r in candidates if r.color == pay_color]
        if len(matching) == 1:
            return matching[0].id
        raise IllegalAction("ticket_to_ride.ambiguous_route", routes=[r.code for r in candidates])
    return candidates[0].id


# --- words ---------------------------------------------------------------------------
def city_words(board: TicketToRideMap, name: str) -> dict[str, str]:
    return {"en": name, "ja": board.city_label(name, "ja")}


def route_words(board: TicketToRideMap, route_id: int) -> dict[str, Any]:
    r = board.routes[route_id]
    params: dict[str, Any] = {"a": city_words(board, r.a), "b": city_words(board, r.b),
                              "color": {"key": f"ticket_to_ride.color.{r.color}"}, "length": r.length}
    return {"key": "ticket_to_ride.route", "params": params}


def ticket_words(board: TicketToRideMap, ticket_id: int) -> dict[str, Any]:
    t = board.ticket_by_id[ticket_id]
    return {"key": "ticket_to_ride.ticket", "params": {"a": city_words(board, t.a), "b": city_words(board, t.b), "points": t.points}}


def payment_words(action: Claim, length: int) -> dict[str, Any]:
    if action.color == "locomotive":
        return {"key": "ticket_to_ride.pay.locos", "params": {"count": length}}
    color = {"key": f"ticket_to_ride.color.{action.color}"}
    if action.locos:
        return {"key": "ticket_to_ride.pay.mixed", "params": {"count": length - action.locos, "color": color, "locos": action.locos}}
    return {"key": "ticket_to_ride.pay.plain", "params": {"count": length, "color": color}}


def describe(board: TicketToRideMap, action: Any) -> Event:
    if isinstance(action, DrawCard):
        if action.source == "deck":
            return Event(key="ticket_to_ride.act.draw_deck")
        return Event(key="ticket_to_ride.act.draw_face_up", params={"color": {"key": f"ticket_to_ride.color.{action.source}"}})
    if isinstance(action, DrawTickets):
        return Event(key="ticket_to_ride.act.tickets")
    if isinstance(action, KeepTickets):
        return Event(key="ticket_to_ride.act.keep", params={"tickets": [ticket_words(board, i) for i in action.ids]})
    if isinstance(action, Claim):
        length = board.routes[action.route].length
        return Event(key="ticket_to_ride.act.claim", params={
            "route": route_words(board, action.route), "payment": payment_words(action, length),
            "points": board.rules.route_points[length],
        })
    return Event(key="ticket_to_ride.act.pass")
