"""A seat's menu in each phase, kind by kind, from the listers of the kinds' own modules (the
same rules that refuse a move list the moves). The order is the menus' contract: the random
bot reads a menu's runs of kinds, and /move suggests in this order."""
from __future__ import annotations

from typing import Any, Callable

from games.catan_express.models import MAX_OFFERS, CatanState, Menu
from games.catan_express.phases import build, devcards, discard, gold, ride, robber, roll, setup, stops, trade
from games.catan_express.phases.moves import BUYS, ENDS, offers_for


def turn_menu(state: CatanState, seat: int) -> Menu:
    """The main part of a turn (and a special building turn, CE-B7: builds and purchases)."""
    out = Menu.of("end", ENDS)
    if state.phase == "main" and state.moving:
        out.add("ride", ride.legs(state, seat) + ride.routes(state, seat))
        return out
    out.add("build", build.builds(state, seat))
    if devcards.can_buy(state, seat):
        out.add("buy", BUYS)
    if state.phase == "special":
        return out
    out.add_kinds(devcards.plays(state, seat))
    out.add("bank", trade.bank_trades(state, seat))
    if state.offers_made < MAX_OFFERS:
        out.add("offer", offers_for(tuple(state.players[seat].hand)))
    out.add("ride", ride.legs(state, seat) + ride.routes(state, seat))
    return out


BY_PHASE: dict[str, Callable[[CatanState, int], Any]] = {
    "setup": setup.menu,
    "roll": roll.menu,
    "gold": gold.menu,
    "discard": discard.menu,
    "robber": robber.menu,
    "main": turn_menu,
    "special": turn_menu,
    "answer": trade.answer_menu,
    "pick": trade.pick_menu,
    "stops": stops.menu,
}
