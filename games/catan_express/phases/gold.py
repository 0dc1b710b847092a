"""Gold river owners take the cards of their choice, in turn order from the roller (CE-B1)."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import economy
from games.catan_express.economy import Hand, covers
from games.catan_express.models import CatanState, Gold, Menu
from games.catan_express.phases.facts import elsewhere, ev, holdings, store
from games.catan_express.phases.moves import card_moves


def due(state: CatanState) -> int:
    return min(state.gold_owed[0][1], sum(state.bank))


def menu(state: CatanState, seat: int) -> Menu:
    return Menu.of("gold", card_moves("gold", tuple(state.bank), due(state)))


def refusal(state: CatanState, seat: int, a: Gold) -> IllegalAction | None:
    if state.phase != "gold":
        return elsewhere(state)
    owed = due(state)
    cards = Hand(a.cards)
    if cards.total != owed:
        return IllegalAction("catan_express.gold_count", count=owed)
    if owed > 0 and covers(state.bank, cards.counts):
        return None
    return IllegalAction("catan_express.bank_short", resources=economy.lacking(Hand(tuple(state.bank)), cards))


def take(game: Any, s: CatanState, seat: int, a: Gold, events: list[Event]) -> bool:
    out = economy.take_gold(holdings(s), seat, Hand(a.cards), s.gold_owed[0][1])
    store(s, out.holdings)
    events += out.events
    s.gold_owed = s.gold_owed[1:]
    advance(s, events)
    return False


def advance(s: CatanState, events: list[Event]) -> None:
    """Skip owners the empty bank can give nothing (CE-B4: nobody takes what is not
    there); once nobody is owed, go on where the game was going."""
    while s.gold_owed and not sum(s.bank):
        events.append(ev("gold_none", seat=s.gold_owed[0][0]))
        s.gold_owed = s.gold_owed[1:]
    if not s.gold_owed:
        s.phase = s.gold_then
