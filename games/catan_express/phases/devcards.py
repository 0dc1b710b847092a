"""Development cards (CE-B3): buying one, and playing Monopoly, Year of Plenty and Road
Building (a knight moves the robber: robber.py). One card a turn, never one bought this
turn, before the roll or in the main part of the turn."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import cards as deck
from games.catan_express import economy
from games.catan_express.cards import KINDS, PlayerCards
from games.catan_express.components import DevCard, components
from games.catan_express.economy import Hand, covers
from games.catan_express.models import Buy, CatanState, Monopoly, Plenty, Roads
from games.catan_express.phases import robber
from games.catan_express.phases.facts import (CARD_OF, COST, KIND_AT, can_play, card_refusal, card_time, elsewhere,
                                              ev, holdings, pieces_left, short, store)
from games.catan_express.phases.moves import MONOPOLIES, ROADS, card_moves


def plays(state: CatanState, seat: int) -> list[Any]:
    """The cards the seat may play, every way (the time of the turn is the caller's)."""
    out: list[Any] = []
    p = state.players[seat]
    if p.played_card:
        return out
    dev = p.dev
    if dev[KIND_AT[DevCard.MONOPOLY]] > 0:
        out += MONOPOLIES
    if dev[KIND_AT[DevCard.YEAR_OF_PLENTY]] > 0:
        due = _plenty_due(state)
        if due:
            out += card_moves("plenty", tuple(state.bank), due)
    if dev[KIND_AT[DevCard.ROAD_BUILDING]] > 0 and state.free_pieces == 0:
        if pieces_left(state, seat, "rail") + pieces_left(state, seat, "ferry") > 0:
            out.append(ROADS)
    if dev[KIND_AT[DevCard.KNIGHT]] > 0:
        out += robber.moves(state, seat, knight=True)
    return out


def can_buy(state: CatanState, seat: int) -> bool:
    return bool(state.deck) and covers(state.players[seat].hand, COST["development_card"])


def _plenty_due(state: CatanState) -> int:
    return min(components().year_of_plenty_cards, sum(state.bank))


def buy_refusal(state: CatanState, seat: int, a: Buy) -> IllegalAction | None:
    if not state.deck:
        return IllegalAction("catan_express.deck_empty")
    if state.phase not in ("main", "special"):
        return elsewhere(state)
    if (state.phase == "special" or not state.moving) and covers(state.players[seat].hand, COST["development_card"]):
        return None
    return short(state, seat, economy.cost("development_card"))


def monopoly_refusal(state: CatanState, seat: int, a: Monopoly) -> IllegalAction | None:
    if card_time(state) and can_play(state, seat, DevCard.MONOPOLY):
        return None
    return card_refusal(state, seat, DevCard.MONOPOLY) or elsewhere(state)


def roads_refusal(state: CatanState, seat: int, a: Roads) -> IllegalAction | None:
    if (card_time(state) and can_play(state, seat, DevCard.ROAD_BUILDING) and state.free_pieces == 0
            and pieces_left(state, seat, "rail") + pieces_left(state, seat, "ferry") > 0):
        return None
    return card_refusal(state, seat, DevCard.ROAD_BUILDING) or elsewhere(state)


def plenty_refusal(state: CatanState, seat: int, a: Plenty) -> IllegalAction | None:
    if card_time(state) and can_play(state, seat, DevCard.YEAR_OF_PLENTY):
        due = _plenty_due(state)
        cards = Hand(a.cards)
        # Only at a card's time (CE-B3), like every other card: an older checker took it
        # whenever the seat was waited on (answering an offer, a special building turn, a ride).
        if cards.total == due and due > 0 and covers(state.bank, cards.counts):
            return None
        if state.phase in ("main", "roll"):
            if cards.total != due:
                return IllegalAction("catan_express.plenty_count", count=due)
            return IllegalAction("catan_express.bank_short", resources=economy.lacking(Hand(tuple(state.bank)), cards))
    return card_refusal(state, seat, DevCard.YEAR_OF_PLENTY) or elsewhere(state)


def _play(s: CatanState, seat: int, card: DevCard, events: list[Event]) -> None:
    p = s.own(seat)
    cards, played = PlayerCards(seat, tuple(p.dev), tuple(p.dev_new), p.played_card).play(card)
    p.dev, p.played_card = list(cards.held), True
    p.dev_cards -= 1
    p.played = robber.bumped(p.played, KINDS.index(card))
    events += played


def monopoly(game: Any, s: CatanState, seat: int, a: Monopoly, events: list[Event]) -> bool:
    _play(s, seat, DevCard.MONOPOLY, events)
    out = deck.monopoly(holdings(s), seat, a.resource)
    store(s, out.holdings)
    events += out.events
    return False


def plenty(game: Any, s: CatanState, seat: int, a: Plenty, events: list[Event]) -> bool:
    _play(s, seat, DevCard.YEAR_OF_PLENTY, events)
    out = deck.year_of_plenty(holdings(s), seat, Hand(a.cards))
    store(s, out.holdings)
    events += out.events
    return False


def roads(game: Any, s: CatanState, seat: int, a: Roads, events: list[Event]) -> bool:
    _play(s, seat, DevCard.ROAD_BUILDING, events)
    s.free_pieces = deck.road_building_pieces(pieces_left(s, seat, "rail"), pieces_left(s, seat, "ferry"))
    events.append(ev("free_pieces", seat=seat, count=s.free_pieces))
    return False


def buy(game: Any, s: CatanState, seat: int, a: Buy, events: list[Event]) -> bool:
    p = s.own(seat)
    bought = deck.buy(holdings(s), PlayerCards(seat, tuple(p.dev), tuple(p.dev_new), p.played_card,
                                               p.knights, p.vp_cards),
                      tuple([CARD_OF[k] for k in s.deck]))
    store(s, bought.holdings)
    p.dev, p.dev_new, p.vp_cards = list(bought.cards.held), list(bought.cards.new), bought.cards.points
    p.dev_cards = sum(p.dev) + sum(p.dev_new)
    s.deck = [k.value for k in bought.deck]
    events += bought.events
    return False
