"""Ticket to Ride rules, one ruling at a time (shared/rules/rulings/ticket-to-ride.md)."""
import pytest

from games.core.errors import IllegalAction
from games.ticket_to_ride.models import EMPTY, Claim, DrawCard, DrawTickets, KeepTickets, Pass
from tests.games.ticket_to_ride.helpers import COLORS, GAME, LOCO, claim_for, route, started, with_hand

RED, BLUE = COLORS.index("red"), COLORS.index("blue")


def illegal(state, seat, action, code):
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, action)
    assert err.value.code == code, err.value.code
    assert state.model_dump_json() == before, "a refused action must not change the state"
    return err.value


# --- TTR-1 setup ---------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_gives_each_player_trains_cards_and_three_tickets(n):
    s = GAME.setup(n, None, 11)
    assert len(s.players) == n and s.phase == "choose"
    for p in s.players:
        assert p.trains == 45 and sum(p.hand) == 4 and len(p.offered) == 3 and p.keep_min == 2
    assert sum(1 for c in s.face_up if c != EMPTY) == 5
    assert GAME.active_players(s) == frozenset(range(n))  # the first choice is simultaneous
    GAME.check_invariants(s)


@pytest.mark.parametrize("n", [1, 6])
def test_setup_refuses_bad_player_counts(n):
    with pytest.raises(IllegalAction) as err:
        GAME.setup(n, None, 1)
    assert err.value.code == "ticket_to_ride.bad_player_count"


def test_setup_refuses_unknown_options():
    with pytest.raises(IllegalAction) as err:
        GAME.setup(3, {"europe": True}, 1)
    assert err.value.code == "bad_options"


def test_same_seed_same_game_other_seed_other_game():
    assert GAME.setup(4, None, 5) == GAME.setup(4, None, 5)
    assert GAME.setup(4, None, 5).deck != GAME.setup(4, None, 6).deck


def test_initial_choice_in_any_order_and_keep_at_least_two():
    s = GAME.setup(3, None, 2)
    offered = s.players[2].offered
    illegal(s, 2, KeepTickets(ids=(offered[0],)), "ticket_to_ride.keep_more")
    illegal(s, 2, KeepTickets(ids=(999, offered[0])), "ticket_to_ride.ticket_not_offered")
    illegal(s, 2, DrawCard(source="deck"), "ticket_to_ride.must_keep_tickets")
    s = GAME.apply(s, 2, KeepTickets(ids=tuple(offered[:2]))).state  # seat 2 first: fine
    assert s.players[2].tickets == offered[:2] and s.ticket_deck[-1] == offered[2]
    assert GAME.active_players(s) == {0, 1}
    illegal(s, 2, KeepTickets(ids=tuple(offered[:2])), "not_active")
    for seat in (1, 0):
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    assert s.phase == "play" and GAME.active_players(s) == {0}


# --- TTR-2 face-up row ----------------------------------------------------------------
def test_face_up_row_with_three_locomotives_is_dealt_again():
    s = started()
    s.face_up = [LOCO, LOCO, RED, BLUE, RED]
    s = _fix_conservation(s)
    s.deck.remove(LOCO)
    s.deck.append(LOCO)  # taking a red card brings in a third locomotive
    discard_before = len(s.discard)
    r = GAME.apply(s, 0, DrawCard(source="red"))
    assert "ticket_to_ride.ev.face_up_reset" in [e.key for e in r.events]
    assert r.state.face_up.count(LOCO) < 3
    assert len(r.state.discard) == discard_before + 5
    GAME.check_invariants(r.state)


def test_face_up_reset_stops_when_no_better_row_can_come():
    s = started()
    # Put every non-locomotive card in hands: only locomotives remain to deal.
    pool = s.deck + s.discard + [c for c in s.face_up if c != EMPTY]
    s.deck, s.discard = [], []
    for c in pool:
        if c == LOCO:
            s.deck.append(c)
        else:
            s.players[c % s.n].hand[c] += 1
    s.face_up = [s.deck.pop() for _ in range(5)]
    GAME.check_invariants(s)
    r = GAME.apply(s, 0, DrawCard(source="deck"))  # no crash, no endless reset
    assert "ticket_to_ride.ev.face_up_reset" not in [e.key for e in r.events]
    GAME.check_invariants(r.state)


# --- TTR-3 drawing ----------------------------------------------------------------------
def test_two_card_draw_keeps_the_turn_then_passes_it():
    s = started()
    r = GAME.apply(s, 0, DrawCard(source="deck"))
    assert r.state.drew_one and r.state.current == 0 and not r.undoable
    assert [e.to for e in r.events if e.key == "ticket_to_ride.ev.you_drew"] == [(0,)]
    illegal(r.state, 0, DrawTickets(), "ticket_to_ride.must_draw_second")
    r2 = GAME.apply(r.state, 0, DrawCard(source="deck"))
    assert not r2.state.drew_one and r2.state.current == 1
    assert sum(r2.state.players[0].hand) == sum(s.players[0].hand) + 2


def test_face_up_locomotive_is_the_whole_turn():
    s = started()
    s.face_up[0], s.deck[-1] = LOCO, s.face_up[0]  # swap a locomotive into the row
    s.face_up[1:] = [RED, RED, BLUE, BLUE] if s.face_up[1:].count(LOCO) else s.face_up[1:]
    s = _fix_conservation(s)
    r = GAME.apply(s, 0, DrawCard(source="locomotive"))
    assert r.state.current == 1 and r.state.players[0].hand[LOCO] == s.players[0].hand[LOCO] + 1


def test_second_card_cannot_be_a_face_up_locomotive():
    s = started()
    s = GAME.apply(s, 0, DrawCard(source="deck")).state
    s.face_up[2], s.deck[-1] = LOCO, s.face_up[2]
    s = _fix_conservation(s)
    illegal(s, 0, DrawCard(source="locomotive"), "ticket_to_ride.second_face_up_locomotive")
    assert DrawCard(source="locomotive") not in GAME.legal_actions(s, 0)


def test_blind_locomotive_counts_as_one_card():
    s = started()
    s.deck.remove(LOCO)
    s.deck.append(LOCO)  # the top card is a locomotive
    r = GAME.apply(s, 0, DrawCard(source="deck"))
    assert r.state.drew_one and r.state.current == 0  # still one more card to take


def test_empty_deck_is_reshuffled_from_the_discard():
    s = started()
    s.discard, s.deck = s.deck, []
    r = GAME.apply(s, 0, DrawCard(source="deck"))
    assert "ticket_to_ride.ev.reshuffled" in [e.key for e in r.events]
    assert r.state.discard == [] and r.state.draws == s.draws + 1
    GAME.check_invariants(r.state)


def test_turn_ends_when_no_second_card_exists():
    s = started()
    # Only locomotives left face up, nothing in deck or discard.
    extra = s.deck + s.discard
    s.deck, s.discard = [], []
    for c in extra:
        s.players[1].hand[c] += 1
    for slot, c in enumerate(s.face_up):
        if c not in (LOCO, EMPTY):
            s.players[1].hand[c] += 1
            s.face_up[slot] = EMPTY
    s.players[1].hand[RED] -= 1
    s.face_up[0] = RED
    GAME.check_invariants(s)
    r = GAME.apply(s, 0, DrawCard(source="red"))
    assert "ticket_to_ride.ev.no_second_card" in [e.key for e in r.events]
    assert r.state.current == 1


def test_drawing_a_card_that_is_not_face_up():
    s = started()
    missing = next(c for c in COLORS if COLORS.index(c) not in s.face_up)
    illegal(s, 0, DrawCard(source=missing), "ticket_to_ride.not_face_up")
    illegal(s, 0, DrawCard(source="purple-ish"), "ticket_to_ride.unknown_color")


# --- TTR-4 claiming ---------------------------------------------------------------------
def test_claim_colored_route_pays_and_scores():
    s = with_hand(started(), 0, blue=3, loco=2)
    rid = route("Atlanta-Miami")  # blue 5
    r = GAME.apply(s, 0, Claim(route=rid, color="blue", locos=2))
    p = r.state.players[0]
    assert r.state.owners[rid] == 0 and p.trains == 40 and sum(p.hand) == 0
    assert r.state.discard[-5:].count(LOCO) == 2 and r.undoable
    assert GAME.view(r.state, None).players[0].route_points == 10


def test_claim_refusals():
    s = with_hand(started(), 0, blue=3, red=5, loco=1)
    rid = route("Atlanta-Miami")
    illegal(s, 0, Claim(route=rid, color="red", locos=0), "ticket_to_ride.wrong_color")
    illegal(s, 0, Claim(route=rid, color="blue", locos=0), "ticket_to_ride.not_enough_cards")
    illegal(s, 0, Claim(route=rid, color="blue", locos=5), "ticket_to_ride.wrong_card_count")
    illegal(s, 0, Claim(route=rid, color="locomotive", locos=5), "ticket_to_ride.not_enough_cards")
    illegal(s, 0, Claim(route=500, color="blue", locos=0), "ticket_to_ride.unknown_route")
    illegal(s, 1, Claim(route=rid, color="blue", locos=0), "not_active")


def test_gray_route_takes_any_single_colour_not_a_mix():
    s = with_hand(started(), 0, red=1, blue=1, loco=0)
    rid = route("Atlanta-Charleston")  # gray 2
    options = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Claim) and a.route == rid]
    assert options == []
    s = with_hand(started(), 0, red=2)
    r = GAME.apply(s, 0, Claim(route=rid, color="red", locos=0))
    assert r.state.owners[rid] == 0


def test_claim_needs_enough_trains():
    s = with_hand(started(), 0, blue=5)
    s.players[0].trains = 4
    illegal(s, 0, Claim(route=route("Atlanta-Miami"), color="blue", locos=0), "ticket_to_ride.not_enough_trains")


def test_claimed_route_cannot_be_claimed_again():
    s = claim_for(with_hand(started(), 0, blue=5), 1, "Atlanta-Miami")
    err = illegal(s, 0, Claim(route=route("Atlanta-Miami"), color="blue", locos=0), "ticket_to_ride.route_taken")
    assert err.params["owner_seat"] == 1


def test_legal_claims_cover_every_payment():
    s = with_hand(started(), 0, red=2, loco=2)
    rid = route("Atlanta-Charleston")  # gray 2
    pays = {(a.color, a.locos) for a in GAME.legal_actions(s, 0) if isinstance(a, Claim) and a.route == rid}
    assert pays == {("red", 0), ("red", 1), ("locomotive", 2)}


# --- TTR-5 double routes --------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3])
def test_double_route_closes_with_two_or_three_players(n):
    s = claim_for(with_hand(started(n), 0, orange=4, yellow=4), 1, "Atlanta-New Orleans/orange")
    illegal(s, 0, Claim(route=route("Atlanta-New Orleans/yellow"), color="yellow", locos=0), "ticket_to_ride.double_closed")


@pytest.mark.parametrize("n", [4, 5])
def test_double_route_both_halves_with_four_or_five_players(n):
    s = claim_for(with_hand(started(n), 0, yellow=4), 1, "Atlanta-New Orleans/orange")
    r = GAME.apply(s, 0, Claim(route=route("Atlanta-New Orleans/yellow"), color="yellow", locos=0))
    assert r.state.owners[route("Atlanta-New Orleans/yellow")] == 0


def test_no_player_claims_both_halves():
    s = claim_for(with_hand(started(5), 0, yellow=4), 0, "Atlanta-New Orleans/orange")
    illegal(s, 0, Claim(route=route("Atlanta-New Orleans/yellow"), color="yellow", locos=0), "ticket_to_ride.both_halves")


# --- TTR-6 tickets ----------------------------------------------------------------------
def test_drawing_tickets_keep_one_return_rest_to_the_bottom():
    s = started()
    r = GAME.apply(s, 0, DrawTickets())
    offered = r.state.players[0].offered
    assert len(offered) == 3 and not r.undoable and r.state.current == 0
    assert [e.to for e in r.events if e.key == "ticket_to_ride.ev.offered"] == [(0,)]
    r2 = GAME.apply(r.state, 0, KeepTickets(ids=(offered[1],)))
    assert r2.state.ticket_deck[-2:] == [offered[0], offered[2]]
    assert r2.state.current == 1


def test_fewer_tickets_when_the_deck_runs_low_and_none_when_empty():
    s = started()
    s.players[1].tickets += s.ticket_deck[:-2]
    s.ticket_deck = s.ticket_deck[-2:]
    r = GAME.apply(s, 0, DrawTickets())
    assert len(r.state.players[0].offered) == 2
    s.players[1].tickets += s.ticket_deck
    s.ticket_deck = []
    illegal(s, 0, DrawTickets(), "ticket_to_ride.no_tickets_left")
    assert DrawTickets() not in GAME.legal_actions(s, 0)


# --- TTR-7 pass -------------------------------------------------------------------------
def _stuck(s):
    """No cards anywhere but in seat 1's hand, no tickets: seat 0 can do nothing."""
    pool = s.deck + s.discard + [c for c in s.face_up if c != EMPTY] + [c for k, n in enumerate(s.players[0].hand) for c in [k] * n]
    s.deck, s.discard, s.face_up = [], [], [EMPTY] * 5
    s.players[0].hand = [0] * len(COLORS)
    for c in pool:
        s.players[1].hand[c] += 1
    for p in s.players:
        p.tickets += s.ticket_deck
        s.ticket_deck = []
    GAME.check_invariants(s)
    return s


def test_player_with_nothing_to_do_passes():
    s = _stuck(started())
    assert GAME.legal_actions(s, 0) == [Pass()]
    r = GAME.apply(s, 0, Pass())
    assert r.state.current == 1
    illegal(r.state, 1, Pass(), "ticket_to_ride.cannot_pass")


def test_everyone_passing_ends_the_game():
    """Ruling gap: when a whole round passes, nobody can ever move again, so the game is
    scored rather than left waiting forever. (This position drops seat 1's cards, so it is
    not a conserving one; it only exercises the ending.)"""
    s = _stuck(started(2))
    s.players[1].hand = [0] * len(COLORS)
    r = GAME.apply(s, 0, Pass())
    assert r.state.phase == "play"
    r = GAME.apply(r.state, 1, Pass())
    assert r.state.phase == "over" and r.state.end_reason == "stalemate"
    assert "ticket_to_ride.ev.game_over_stalemate" in [e.key for e in r.events]
    assert GAME.result(r.state) is not None


# --- TTR-8 end ---------------------------------------------------------------------------
def test_final_round_gives_everyone_one_more_turn_trigger_player_included():
    s = with_hand(started(3), 1, blue=5)
    s.players[1].trains = 7
    s.current = 1
    r = GAME.apply(s, 1, Claim(route=route("Atlanta-Miami"), color="blue", locos=0))
    assert r.state.final_turns == 3 and r.state.triggered_by == 1
    assert "ticket_to_ride.ev.final_round" in [e.key for e in r.events]
    s = r.state
    order = []
    while s.phase != "over":
        seat = s.current
        order.append(seat)
        s = GAME.apply(s, seat, DrawCard(source="deck")).state
        s = GAME.apply(s, seat, DrawCard(source="deck")).state if s.phase != "over" and s.drew_one else s
    assert order == [2, 0, 1]
    assert GAME.active_players(s) == frozenset()
    illegal(s, 0, DrawCard(source="deck"), "game_over")


def test_three_trains_left_does_not_trigger_the_end():
    s = with_hand(started(2), 0, blue=5)
    s.players[0].trains = 8
    r = GAME.apply(s, 0, Claim(route=route("Atlanta-Miami"), color="blue", locos=0))
    assert r.state.final_turns is None


# --- TTR-9/10/12 scoring --------------------------------------------------------------
def _ended(s):
    s = s.clone()
    s.phase = "over"
    s.end_reason = "end"
    return s


def test_ticket_scoring_plus_and_minus_and_route_points():
    s = started(2)
    s.players[0].tickets = [t.id for t in GAME.board.tickets if {t.a, t.b} == {"Denver", "El Paso"}]
    s.players[1].tickets = [t.id for t in GAME.board.tickets if {t.a, t.b} == {"Kansas City", "Houston"}]
    s = claim_for(claim_for(s, 0, "Denver-Santa Fe"), 0, "El Paso-Santa Fe")
    res = GAME.result(_ended(s))
    by_seat = {p.seat: p for p in res.players}
    cats0 = by_seat[0].by_category()
    assert cats0["routes"] == 2 + 2 and cats0["tickets_completed"] == 4 and cats0["longest_path"] == 10
    cats1 = by_seat[1].by_category()
    assert cats1["tickets_failed"] == -5 and cats1["routes"] == 0 and cats1["longest_path"] == 0
    assert by_seat[0].total == 18 and by_seat[1].total == -5 and by_seat[0].rank == 1


def test_longest_path_tie_gives_everyone_the_bonus():
    s = started(3)
    for p in s.players:
        p.tickets = []
    s = claim_for(s, 0, "Denver-Santa Fe")
    s = claim_for(s, 1, "El Paso-Santa Fe")
    res = GAME.result(_ended(s))
    bonus = {p.seat: p.by_category()["longest_path"] for p in res.players}
    assert bonus == {0: 10, 1: 10, 2: 0}


def test_ties_broken_by_completed_tickets_then_longest_bonus_else_shared():
    s = started(3)
    denver_elpaso = [t.id for t in GAME.board.tickets if {t.a, t.b} == {"Denver", "El Paso"}]
    for p in s.players:
        p.tickets = []
    # seat 0: routes 2+2 = 4, ticket +4 → 8, one completed ticket. seat 1: 8 points in routes.
    s.players[0].tickets = denver_elpaso
    s = claim_for(claim_for(s, 0, "Denver-Santa Fe"), 0, "El Paso-Santa Fe")
    s = claim_for(s, 1, "Atlanta-Raleigh/1")  # 2
    s = claim_for(s, 1, "Kansas City-Omaha/1")  # 1
    s = claim_for(s, 1, "Chicago-Saint Louis/white")  # 2
    s = claim_for(s, 1, "Houston-New Orleans")  # 2
    s = claim_for(s, 1, "Atlanta-Nashville")  # 1  → 8 route points, 0 tickets
    res = GAME.result(_ended(s))
    by_seat = {p.seat: p for p in res.players}
    assert by_seat[0].by_category()["routes"] == 4
    assert by_seat[1].total == 8
    # seat 0 has 4 + 4 = 8 (+10 longest: 4 vs seat 1's longest 3? no: seat 1 has a 2+1 chain)
    if by_seat[0].total == by_seat[1].total:
        assert by_seat[0].rank < by_seat[1].rank
        assert (res.ties[0].above, res.ties[0].below, res.ties[0].key) == (0, 1, "ticket_to_ride.tie.completed")
        assert (res.ties[0].params["above"], res.ties[0].params["below"]) == (1, 0)
    assert res.players[0].seat == 0


def test_a_tie_on_points_names_the_rule_that_broke_it():
    """TTR-10: both at 18 with the longest-path bonus; seat 0 completed a ticket, seat 1 none."""
    s = started(2)
    for p in s.players:
        p.tickets = []
    s.players[0].tickets = [t.id for t in GAME.board.tickets if {t.a, t.b} == {"Denver", "El Paso"}]
    s = claim_for(claim_for(s, 0, "Denver-Santa Fe"), 0, "El Paso-Santa Fe")  # 2 + 2, ticket +4, path 4
    s = claim_for(claim_for(s, 1, "Calgary-Seattle"), 1, "Atlanta-Nashville")  # 7 + 1, path 4
    res = GAME.result(_ended(s))
    assert [(p.seat, p.total, p.rank) for p in res.players] == [(0, 18, 1), (1, 18, 2)]
    (tie,) = res.ties
    assert (tie.above, tie.below, tie.key, tie.shared) == (0, 1, "ticket_to_ride.tie.completed", False)
    assert (tie.params["above"], tie.params["below"], tie.params["points"]) == (1, 0, 18)


def test_full_tie_shares_the_place():
    s = started(2)
    for p in s.players:
        p.tickets = []
    s = claim_for(s, 0, "Atlanta-Raleigh/1")
    s = claim_for(s, 1, "Atlanta-Raleigh/2")
    res = GAME.result(_ended(s))
    assert [p.rank for p in res.players] == [1, 1]
    assert [(t.above, t.below, t.key, t.shared) for t in res.ties] == [(0, 1, "ticket_to_ride.tie.shared", True)]


def test_final_breakdown_lists_every_ticket_and_longest_path():
    s = started(2)
    res = GAME.result(_ended(s))
    for p in res.players:
        tickets = [line for line in p.lines if line.category.startswith("tickets_")]
        assert len(tickets) == len(s.players[p.seat].tickets)
        assert any(line.category == "longest_path" for line in p.lines)
        assert p.total == sum(line.points for line in p.lines)


# --- TTR-11 views -------------------------------------------------------------------
def test_views_hide_hands_and_tickets_from_everyone_else():
    s = GAME.apply(started(3), 0, DrawTickets()).state
    spectator = GAME.view(s, None)
    assert all(p.hand is None and p.tickets is None and p.offered is None for p in spectator.players)
    assert spectator.legal == []
    mine = GAME.view(s, 0)
    assert mine.players[0].hand is not None and len(mine.players[0].offered) == 3
    assert mine.players[1].hand is None and mine.players[1].tickets is None
    assert mine.legal and all(GAME.parse_action(x) for x in mine.legal)
    other = GAME.view(s, 1)
    assert other.players[0].choosing == 3 and other.players[0].offered is None
    text = spectator.model_dump_json()
    assert '"hand":null' in text and '"deck":' not in text  # the deck order is never in a view


def test_own_view_marks_completed_tickets():
    s = started(2)
    denver_elpaso = [t.id for t in GAME.board.tickets if {t.a, t.b} == {"Denver", "El Paso"}]
    s.players[0].tickets = denver_elpaso + s.players[0].tickets[:1]
    s = claim_for(claim_for(s, 0, "Denver-Santa Fe"), 0, "El Paso-Santa Fe")
    mine = GAME.view(s, 0).players[0].tickets
    assert mine[0].completed is True and mine[1].completed is False


def test_final_view_shows_all_tickets():
    s = _ended(started(2))
    spectator = GAME.view(s, None)
    assert all(p.tickets is not None for p in spectator.players)
    assert spectator.result is not None and all(p.hand is None for p in spectator.players)


# --- undo flags -----------------------------------------------------------------------
def test_undoable_only_without_hidden_information():
    s = with_hand(started(), 0, blue=5)
    assert GAME.apply(s, 0, Claim(route=route("Atlanta-Miami"), color="blue", locos=0)).undoable
    assert not GAME.apply(s, 0, DrawCard(source="deck")).undoable
    face = COLORS[next(c for c in s.face_up if c not in (EMPTY, LOCO))]
    assert not GAME.apply(s, 0, DrawCard(source=face)).undoable
    assert not GAME.apply(s, 0, DrawTickets()).undoable


def _fix_conservation(s):
    """After swapping cards around the row in a test, rebalance the deck so counts hold."""
    colors = len(COLORS)
    want = [12] * (colors - 1) + [14]
    have = [0] * colors
    for pile in (s.deck, s.discard, [c for c in s.face_up if c != EMPTY]):
        for c in pile:
            have[c] += 1
    for p in s.players:
        for c, k in enumerate(p.hand):
            have[c] += k
    for c in range(colors):
        while have[c] > want[c]:
            s.deck.remove(c)
            have[c] -= 1
        while have[c] < want[c]:
            s.deck.insert(0, c)
            have[c] += 1
    GAME.check_invariants(s)
    return s
