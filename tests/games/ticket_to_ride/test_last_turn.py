"""What the rules keep for the pictures: the whole last turn, the score after each turn and,
at the end, the routes of each longest path. Stored games without these fields still load."""
from __future__ import annotations


import pytest

from games.ticket_to_ride import scoring
from games.ticket_to_ride.models import Claim, DrawCard, DrawTickets, KeepTickets, TicketToRideState
from games.ticket_to_ride.rules import GAME
from tests.support.bot_games import bot_steps


def _game(seed: int, n: int = 3):
    return bot_steps(GAME, n, seed, "planner")


@pytest.fixture(scope="module")
def steps():
    return _game(5)


def test_a_two_card_draw_keeps_both_cards(steps):
    firsts = [(i, s) for i, s in enumerate(steps) if isinstance(s[2], DrawCard) and s[3].drew_one]
    assert firsts
    i, (_, seat, first, after_first) = firsts[0]
    _, seat2, second, after = steps[i + 1]
    assert seat2 == seat and isinstance(second, DrawCard)
    assert after.turn_cards == [first.source, second.source]
    keys = [e.key for e in after.turn_log]
    assert len([k for k in keys if k in ("ticket_to_ride.ev.drew_deck", "ticket_to_ride.ev.drew_face_up")]) == 2
    assert after.last != after.turn_log  # `last` has the second draw only; the turn has both


def test_face_down_cards_stay_secret_in_the_public_view(steps):
    state = next(n for _, _, a, n in steps if isinstance(a, DrawCard) and a.source == "deck")
    view = GAME.view(state, None)
    assert "deck" in view.turn_cards
    assert all(e.to is None for e in view.turn_log)  # only public events: no "you drew red"


def test_a_claim_is_the_turn_route_and_the_next_turn_clears_it(steps):
    i, (_, seat, claim, after) = next((i, s) for i, s in enumerate(steps) if isinstance(s[2], Claim))
    assert after.turn_route == claim.route and after.turn_cards == []
    assert GAME.view(after, None).turn_route == claim.route
    nxt = steps[i + 1][3]
    assert nxt.turn_route is None or isinstance(steps[i + 1][2], Claim)


def test_a_ticket_turn_keeps_the_draw_and_the_keep(steps):
    state = next(s for s, *_ in steps if s.phase == "play" and not s.drew_one and not s.players[s.current].offered)
    seat = state.current
    drawn = GAME.apply(state, seat, DrawTickets()).state
    offered = drawn.players[seat].offered
    kept = GAME.apply(drawn, seat, KeepTickets(ids=tuple(sorted(offered[:1])))).state
    keys = [e.key for e in kept.turn_log]
    assert keys[:2] == ["ticket_to_ride.ev.took_tickets", "ticket_to_ride.ev.kept"]
    assert [e.key for e in kept.last][0] == "ticket_to_ride.ev.kept"


def test_history_has_every_turn_and_ends_with_the_totals(steps):
    end = steps[-1][3]
    assert len(end.history) == end.turn
    for (_, _, _, state) in steps[::17]:
        if state.history:
            assert state.history[-1] == [scoring.route_points(GAME.board, state.owners, i) for i in range(state.n)]
    view = GAME.view(end, None)
    totals = {row.seat: row.total for row in view.result.players}
    assert view.history[-1] == [totals[i] for i in range(end.n)]
    assert len(view.history) == end.turn + 1


def test_longest_routes_match_the_longest_path():
    for seed in (1, 2, 3):
        end = _game(seed, 4)[-1][3]
        view = GAME.view(end, None)
        for p in view.players:
            routes = p.longest_routes
            assert sum(GAME.board.routes[r].length for r in routes) == p.longest
            assert all(end.owners[r] == p.seat for r in routes)
            assert len(set(routes)) == len(routes)
    mid = _game(1, 4)[40][3]
    assert all(p.longest_routes == [] for p in GAME.view(mid, None).players)  # only at the end


def test_a_stored_state_without_the_new_fields_loads(steps):
    data = steps[30][3].model_dump(mode="json")
    for name in ("turn_log", "turn_route", "turn_cards", "history"):
        data.pop(name)
    state = TicketToRideState.model_validate(data)
    assert state.turn_log == [] and state.history == []
    seat = min(GAME.active_players(state))
    GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
