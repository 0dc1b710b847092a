"""A 7: everyone holding more than 7 cards discards half, all at once and in secret (CE-B4)."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import economy
from games.catan_express.economy import Hand, covers
from games.catan_express.models import CatanState, Discard, Menu
from games.catan_express.phases.facts import elsewhere, holdings, store
from games.catan_express.phases.moves import card_moves


def menu(state: CatanState, seat: int) -> Menu:
    return Menu.of("discard", card_moves("discard", tuple(state.players[seat].hand), state.discards[seat]))


def refusal(state: CatanState, seat: int, a: Discard) -> IllegalAction | None:
    if state.phase != "discard":
        return elsewhere(state)
    cards = Hand(a.cards)
    if cards.total != state.discards[seat]:
        return IllegalAction("catan_express.discard_count", count=state.discards[seat])
    if covers(state.players[seat].hand, cards.counts):
        return None
    return IllegalAction("catan_express.not_held")


def discard(game: Any, s: CatanState, seat: int, a: Discard, events: list[Event]) -> bool:
    out = economy.discard(holdings(s), seat, Hand(a.cards), s.discards[seat])
    store(s, out.holdings)
    events += out.events
    s.discards = {k: v for k, v in s.discards.items() if k != seat}
    if not s.discards:
        s.phase = "robber"
    return False
