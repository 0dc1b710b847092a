"""Building Ticket to Ride positions for tests: real setup, then the few fields a test needs."""
from __future__ import annotations

from games.ticket_to_ride.models import LOCO, TicketToRideState
from games.ticket_to_ride.rules import GAME

COLORS = GAME.board.card_colors


def started(n: int = 4, seed: int = 7) -> TicketToRideState:
    """A game past the opening ticket choice: every player kept all three tickets."""
    state = GAME.setup(n, None, seed)
    for seat in range(n):
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0]).state
    assert state.phase == "play"
    return state


def hand(**counts: int) -> list[int]:
    out = [0] * len(COLORS)
    for name, k in counts.items():
        out[COLORS.index("locomotive" if name == "loco" else name)] = k
    return out


def with_hand(state: TicketToRideState, seat: int, **counts: int) -> TicketToRideState:
    """Give `seat` exactly this hand, moving cards between the hand and the deck so that
    conservation still holds."""
    s = state.clone()
    old = s.players[seat].hand
    new = hand(**counts)
    for kind in range(len(COLORS)):
        diff = new[kind] - old[kind]
        for _ in range(diff):
            s.deck.remove(kind)
        s.deck.extend([kind] * max(0, -diff))
    s.players[seat].hand = new
    GAME.check_invariants(s)
    return s


def route(code: str) -> int:
    return GAME.board.route_by_code[code.lower()].id


def claim_for(state: TicketToRideState, seat: int, code: str) -> TicketToRideState:
    """Give `seat` a route outright (trains paid) without the cards: for end-game positions."""
    s = state.clone()
    rid = route(code)
    s.owners[rid] = seat
    s.players[seat].trains -= GAME.board.routes[rid].length
    return s


__all__ = ["COLORS", "GAME", "LOCO", "claim_for", "hand", "route", "started", "with_hand"]
