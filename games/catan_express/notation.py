"""Catan Express's move notation: what `/move` reads and logs print.

    roll                            roll the dice
    build settlement 12             a settlement on intersection 12 (also in setup)
    build city 12                   upgrade one's settlement on 12
    build rail 12-C3                a rail on the spoke from 12 to the centre of C3
    build ferry 12-13               a ferry on the coast edge from 12 to 13
    buy                             a development card
    robber C3 @2                    the robber to C3, robbing player 2 (no "@": nobody to rob)
    knight C3 @2                    the same, by playing a Knight
    monopoly ore | plenty 1brick+1ore | roads
    discard 2lumber+1ore            cards chosen for a 7
    gold 1ore                       the gold river's choice
    bank 4lumber 1ore               a trade with the bank (or harbour)
    offer 1brick+1wool 1ore         an offer to the other players: give, then get
    accept | refuse                 an answer to an offer
    trade @2 | withdraw             close an offer with player 2, or drop it
    ride C3 15@2:ore 22             move the locomotive point by point; "15@2:ore" pays
                                    player 2 one ore to use their piece to 15
    stop 12                         name intersection 12 as a stop (CE-7)
    end                             end the turn (or the special building turn)

Players are written "@1" … "@6" (seat + 1), as the board's sidebar numbers them. Cards are
counts joined by "+", resources in the fixed order lumber, brick, wool, grain, ore, so one set
of cards has one spelling. Japanese resource names are read too (games/catan_express/rules.py's
vocabulary lists them).
"""
from __future__ import annotations

import re
from typing import Any

from games.core.errors import IllegalAction
from games.catan_express.components import RESOURCES, Resource
from games.catan_express.models import (Answer, BankTrade, Build, Buy, Discard, End, Gold, Leg, Monopoly, NameStop,
                                        Partner, Plenty, Propose, Ride, Roads, Robber, Roll)

_CARD = re.compile(r"(\d+)([a-z]+)")
_LEG = re.compile(r"([A-Za-z]*\d+)(?:@(\d+):([a-z]+))?")


_NAMES = tuple(r.value for r in RESOURCES)


def cards_text(counts: tuple[int, ...] | list[int]) -> str:
    return "+".join(f"{n}{name}" for name, n in zip(_NAMES, counts) if n)


def parse_cards(text: str) -> tuple[int, int, int, int, int]:
    counts = [0] * len(RESOURCES)
    parts = text.split("+")
    for part in parts:
        m = _CARD.fullmatch(part.strip().lower())
        if not m or m.group(2) not in Resource.__members__.values():
            raise IllegalAction("unparsable", text=text)
        i = RESOURCES.index(Resource(m.group(2)))
        if counts[i]:
            raise IllegalAction("unparsable", text=text)
        counts[i] = int(m.group(1))
    if not any(counts):
        raise IllegalAction("unparsable", text=text)
    return tuple(counts)  # type: ignore[return-value]


def _seat(text: str) -> int:
    if not re.fullmatch(r"@[1-9]", text):
        raise IllegalAction("unparsable", text=text)
    return int(text[1:]) - 1


def _resource(text: str) -> str:
    if text not in Resource.__members__.values():
        raise IllegalAction("unparsable", text=text)
    return text


def leg_text(leg: Leg) -> str:
    if leg.payee is None:
        return leg.to
    return f"{leg.to}@{leg.payee + 1}:{leg.resource}"


def format_action(a: Any) -> str:
    kind = a.kind
    if kind == "roll" or kind == "buy" or kind == "roads" or kind == "end":
        return kind
    if kind == "build":
        return f"build {a.what} {a.at}"
    if kind == "robber":
        word = "knight" if a.knight else "robber"
        return f"{word} {a.hex}" + (f" @{a.victim + 1}" if a.victim is not None else "")
    if kind == "monopoly":
        return f"monopoly {a.resource}"
    if kind in ("plenty", "discard", "gold"):
        return f"{kind} {cards_text(a.cards)}"
    if kind in ("bank", "offer"):
        return f"{kind} {cards_text(a.give)} {cards_text(a.get)}"
    if kind == "answer":
        return "accept" if a.accept else "refuse"
    if kind == "partner":
        return "withdraw" if a.seat is None else f"trade @{a.seat + 1}"
    if kind == "ride":
        return "ride " + " ".join(leg_text(leg) for leg in a.legs)
    if kind == "stop":
        return f"stop {a.at}"
    raise ValueError(f"not a Catan Express move: {a!r}")


def parse_action(text: str) -> Any:
    words = text.strip().split()
    if not words:
        raise IllegalAction("unparsable", text=text)
    head, rest = words[0].lower(), words[1:]
    try:
        if head in ("roll", "buy", "roads", "end", "accept", "refuse", "withdraw") and not rest:
            return {"roll": Roll(), "buy": Buy(), "roads": Roads(), "end": End(), "accept": Answer(accept=True),
                    "refuse": Answer(accept=False), "withdraw": Partner()}[head]
        if head == "build" and len(rest) == 2 and rest[0] in ("settlement", "city", "rail", "ferry"):
            return Build(what=rest[0], at=rest[1].upper() if not rest[1][0].isdigit() else rest[1])
        if head in ("robber", "knight") and 1 <= len(rest) <= 2:
            victim = _seat(rest[1]) if len(rest) == 2 else None
            return Robber(hex=rest[0].upper(), victim=victim, knight=head == "knight")
        if head == "monopoly" and len(rest) == 1:
            return Monopoly(resource=_resource(rest[0].lower()))
        if head in ("plenty", "discard", "gold") and len(rest) == 1:
            model = {"plenty": Plenty, "discard": Discard, "gold": Gold}[head]
            return model(cards=parse_cards(rest[0]))
        if head in ("bank", "offer") and len(rest) == 2:
            model = BankTrade if head == "bank" else Propose
            return model(give=parse_cards(rest[0]), get=parse_cards(rest[1]))
        if head == "trade" and len(rest) == 1:
            return Partner(seat=_seat(rest[0]))
        if head == "ride" and rest:
            legs = []
            for word in rest:
                m = _LEG.fullmatch(word)
                if not m:
                    raise IllegalAction("unparsable", text=text)
                point = m.group(1).upper() if m.group(1)[0].isalpha() else m.group(1)
                payee = int(m.group(2)) - 1 if m.group(2) else None
                if payee is not None and payee < 0:
                    raise IllegalAction("unparsable", text=text)
                legs.append(Leg(to=point, payee=payee, resource=_resource(m.group(3)) if m.group(3) else None))
            return Ride(legs=tuple(legs))
        if head == "stop" and len(rest) == 1 and rest[0].isdigit():
            return NameStop(at=int(rest[0]))
    except IllegalAction:
        raise IllegalAction("unparsable", text=text) from None
    except ValueError:  # pydantic's ValidationError: a well-formed word with an impossible value
        raise IllegalAction("unparsable", text=text) from None
    raise IllegalAction("unparsable", text=text)
