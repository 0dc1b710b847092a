"""Ticket to Ride's menus (games/ticket_to_ride/decisions.py): what a person picks, in order."""
import random

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.i18n import LANGUAGES, has_key
from games.ticket_to_ride.models import Claim
from tests.games.ticket_to_ride.helpers import GAME, route, started, with_hand


def test_a_claim_with_one_way_to_pay_takes_two_picks():
    s = with_hand(started(), 0, blue=2)
    rid = route("Kansas City-Omaha/1")
    d = GAME.decision(s, 0)
    legal_for_route = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Claim) and a.route == rid]
    assert len(legal_for_route) == 1  # gray length 1 route, blue is the only colour in hand
    stop = d.walk(["claim", str(rid)])
    assert stop.move == GAME.format_action(legal_for_route[0]) and stop.picks[-1] == "blue"


def test_a_claim_with_several_payments_asks_how_to_pay():
    s = with_hand(started(), 0, blue=2, red=2, loco=1)
    rid = route("Kansas City-Omaha/1")
    stop = GAME.decision(s, 0).walk(["claim", str(rid)])
    assert stop.move is None and stop.step == "ticket_to_ride.step.payment"
    assert {o.value for o in stop.options} == {"blue", "red", "locomotive"}


def test_the_claim_entry_is_only_offered_when_a_route_can_be_claimed():
    s = with_hand(started(), 0)
    assert "claim" not in [p.value for p in GAME.decision(s, 0).first_step()]


def test_a_forged_pick_is_refused():
    s = with_hand(started(), 0, blue=2)
    d = GAME.decision(s, 0)
    for picks in (["claim", "9999"], ["draw rainbow"], ["claim", str(route("Kansas City-Omaha/1")), "red"]):
        try:
            d.walk(picks)
        except IllegalAction as err:
            assert err.code == "choice.not_offered"
        else:
            raise AssertionError(f"{picks} was accepted")


def test_ticket_choice_is_a_secret_group_with_bounds_and_its_own_key():
    s = GAME.setup(3, None, 8)
    d = GAME.decision(s, 1)
    assert d.secret and d.key and not d.choices
    group, = d.groups
    assert (group.min, group.max) == (2, 3)
    offered = sorted(s.players[1].offered)
    assert group.notation([str(offered[2]), str(offered[0])]) == f"keep {offered[0]},{offered[2]}"
    for bad in ([str(offered[0])], [str(offered[0]), "999"], [str(offered[0])] * 2):
        try:
            group.notation(bad)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{bad} was accepted")
    # Another player's choice leaves this one's menu and key as they were (TTR-1).
    after = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0]).state
    assert GAME.decision(after, 1) == d


def test_every_words_key_of_the_menus_exists_in_both_languages():
    rng = random.Random(4)
    keys: set[str] = set()
    for seed in range(6):
        state = GAME.setup(2 + seed % 4, None, seed)
        for _ in range(150):
            if GAME.result(state) is not None:
                break
            for seat in GAME.active_players(state):
                keys |= _keys(GAME.decision(state, seat))
            seat = rng.choice(sorted(GAME.active_players(state)))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
    assert {"ticket_to_ride.step.action", "ticket_to_ride.step.route", "ticket_to_ride.step.payment", "ticket_to_ride.step.keep"} <= keys
    missing = [(lang, k) for lang in LANGUAGES for k in sorted(keys) if not has_key(lang, k)]
    assert not missing


def _keys(d: Decision) -> set[str]:
    out: set[str] = set()

    def words(event):
        if event is None:
            return
        out.add(event.key)
        for value in event.params.values():
            if isinstance(value, dict) and "key" in value:
                out.add(value["key"])

    picks = [p for c in d.choices for p in c.path] + [p for g in d.groups for p in g.items]
    for p in picks:
        out.add(p.step)
        words(p.label)
        words(p.detail)
    words(d.prompt)
    return out


def test_claim_choices_kept_from_earlier_menus_are_those_made_afresh():
    from games.ticket_to_ride import decisions

    rng = random.Random(5)
    s = started()
    kept = []
    for _ in range(60):  # claims and draws of a game's first turns, kept menu after menu
        seat = min(GAME.active_players(s))
        kept += [c for c in GAME.decision(s, seat).choices if c.path[0].value == "claim"]
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    assert len({c.notation for c in kept}) > 50
    assert len({c.path[-1].value for c in kept}) > 10  # payments of several colours, with locomotives
    for choice in kept[::7]:
        for made in (decisions._CLAIMS, decisions._ROUTE_PICKS, decisions._PAY_PICKS):
            made.clear()
        action = GAME.parse_action(choice.notation)
        assert decisions._claim_choice(GAME.board, action, choice.notation) == choice
