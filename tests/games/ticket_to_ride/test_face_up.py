"""TTR-2 and TTR-2b: the face-up row is re-dealt by counting, never by a try limit; it is
checked again after every action (empty slots refilled, a standing 3-locomotive row reset as
soon as the cards allow); the public log gets one line per reset."""
from __future__ import annotations

import pytest

from games.ticket_to_ride.models import EMPTY, Claim, DrawCard, DrawTickets, TicketToRideState
from games.ticket_to_ride.rules import _legal_row_possible
from tests.games.ticket_to_ride.helpers import COLORS, GAME, LOCO, started

RED, BLUE, GREEN, YELLOW = (COLORS.index(c) for c in ("red", "blue", "green", "yellow"))
RESET_KEYS = {"ticket_to_ride.ev.face_up_reset", "ticket_to_ride.ev.face_up_reset_many"}


def only_in_play(state: TicketToRideState, *, row: list[int], deck: list[int], discard: list[int] = (),
                 hands: dict[int, dict[int, int]] | None = None) -> TicketToRideState:
    """Lay out exactly these cards in row, deck (top = end) and discard, and the given cards
    in the given hands; every other card goes to the hands of seats 2 and 3, so the 110 cards
    are still all there."""
    s = state.clone()
    remaining = [12] * (len(COLORS) - 1) + [14]
    for pile in (row, deck, discard):
        for c in pile:
            if c != EMPTY:
                remaining[c] -= 1
    wanted = hands or {}
    for p in s.players:
        p.hand = [0] * len(COLORS)
    for seat, cards in wanted.items():
        for c, k in cards.items():
            s.players[seat].hand[c] += k
            remaining[c] -= k
    assert min(remaining) >= 0, "test layout uses more cards than the game has"
    for c, k in enumerate(remaining):
        s.players[2 + c % 2].hand[c] += k
    s.face_up, s.deck, s.discard = list(row), list(deck), list(discard)
    GAME.check_invariants(s)
    return s


def public_keys(result) -> list[str]:
    return [e.key for e in result.events if e.public]


@pytest.mark.parametrize("seed", range(12))
def test_reset_repeats_until_the_row_is_legal_with_one_log_line(seed):
    """Only three non-locomotives left to deal among 15 locomotives: a legal row needs all
    three in the same five, which takes dozens of deals on average. The row must end legal,
    however many deals it takes, and say so in one line."""
    s = started(seed=seed)
    s = only_in_play(s, row=[LOCO, LOCO, RED, BLUE, GREEN], deck=[YELLOW] + [LOCO] * 12)
    r = GAME.apply(s, s.current, DrawCard(source="red"))  # a locomotive comes up: three in the row
    assert r.state.face_up.count(LOCO) < 3
    keys = public_keys(r)
    assert sum(k in RESET_KEYS for k in keys) == 1, keys
    assert "ticket_to_ride.ev.reshuffled" not in keys, "reshuffles inside a reset belong to its one line"
    assert len(r.state.last) <= 3
    GAME.check_invariants(r.state)


def test_a_row_no_deal_can_fix_stays_and_is_announced_once_then_reset_when_cards_return():
    """TTR-2b: the row is left standing while no legal row can be dealt (said once), and reset
    by the first action after which it can (here: a claim that discards plain cards)."""
    s = started()
    seat = s.current
    other = (seat + 1) % s.n
    s = only_in_play(s, row=[LOCO, LOCO, LOCO, LOCO, RED], deck=[LOCO] * 6,
                     hands={seat: {}, other: {YELLOW: 4}})
    assert not _legal_row_possible(s, GAME.board)
    r1 = GAME.apply(s, seat, DrawTickets())
    assert public_keys(r1).count("ticket_to_ride.ev.face_up_stuck") == 1
    assert r1.state.face_up == s.face_up
    r2 = GAME.apply(r1.state, seat, GAME.legal_actions(r1.state, seat)[0])  # keep tickets
    assert "ticket_to_ride.ev.face_up_stuck" not in public_keys(r2), "announced once, not after every action"
    assert r2.state.current == other
    claim = next(a for a in GAME.legal_actions(r2.state, other)
                 if isinstance(a, Claim) and a.locos == 0 and GAME.board.routes[a.route].length >= 3)
    r3 = GAME.apply(r2.state, other, claim)
    assert sum(k in RESET_KEYS for k in public_keys(r3)) == 1
    assert r3.state.face_up.count(LOCO) < 3
    GAME.check_invariants(r3.state)


def test_empty_slots_are_refilled_once_a_claim_puts_cards_in_the_discard():
    s = started()
    seat = s.current
    s = only_in_play(s, row=[RED, BLUE, EMPTY, EMPTY, EMPTY], deck=[], hands={seat: {YELLOW: 4}})
    claim = next(a for a in GAME.legal_actions(s, seat)
                 if isinstance(a, Claim) and a.locos == 0 and GAME.board.routes[a.route].length >= 3)
    r = GAME.apply(s, seat, claim)
    length = GAME.board.routes[claim.route].length
    filled = sum(1 for c in r.state.face_up if c != EMPTY)
    assert filled == min(5, 2 + length), r.state.face_up
    assert "ticket_to_ride.ev.reshuffled" in public_keys(r)
    GAME.check_invariants(r.state)


def test_setup_row_is_legal_whatever_the_seed():
    for seed in range(200):
        s = GAME.setup(2 + seed % 4, None, seed)
        assert s.face_up.count(LOCO) < 3 and EMPTY not in s.face_up


def assert_face_up_settled(state: TicketToRideState) -> None:
    """What TTR-2/2b promise after every action: no empty slot while cards could fill it, and
    no row with three locomotives while a legal row could be dealt."""
    if state.phase == "over":
        return
    if EMPTY in state.face_up:
        assert not state.deck and not state.discard, state.face_up
    if state.face_up.count(LOCO) >= 3:
        assert not _legal_row_possible(state, GAME.board)
