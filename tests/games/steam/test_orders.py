"""Steam's standing orders (games/steam/orders.py): what each order does when its owner's turn
comes, that it is only followed while legal, and that it expires with its turn."""
from __future__ import annotations

import pytest

from games.core.errors import IllegalAction
from games.steam.models import Bid, Done, Pass, Score, Upgrade
from games.steam.rules import GAME
from tests.games.steam.test_rules import Table, built_albany_new_york, random_order


def follow(t, orders, seat=None):
    seat = t.who() if seat is None else seat
    return GAME.follow_orders(t.s, seat, orders)


def test_a_bid_limit_bids_the_minimum_then_drops_out_above_it():
    t = Table(n=4)
    orders = [f"t{t.s.turn} bid upto 3"]
    assert follow(t, orders) == (Bid(amount=0), orders)
    t.play("bid 3")
    assert follow(t, orders)[0] == Pass()       # $4 is above the limit
    t.play("pass")


def test_a_bid_limit_never_bids_beyond_what_the_player_can_pay():
    t = Table(standard=True)
    for _ in range(4):
        t.play("capital 0")
    assert follow(t, [f"t{t.s.turn} bid upto 9"])[0] == Bid(amount=0)
    t.s.players[t.who()].cash = 0
    t.s.auction["high"] = 0
    assert follow(t, [f"t{t.s.turn} bid upto 9"])[0] == Pass()  # cash 0 cannot beat $0


def test_orders_of_an_earlier_turn_expire():
    t = Table(n=4)
    t.s.turn = 2
    action, standing = follow(t, ["t1 bid upto 9", "always income"])
    assert action is None and standing == ["always income"]


def test_pass_for_the_rest_of_the_building_phase():
    t = random_order()
    t.take_any()
    assert follow(t, [f"t{t.s.turn} pass build"])[0] == Done()
    assert follow(t, [f"t{t.s.turn} pass deliver"])[0] is None   # not this phase's order


def test_an_undone_urbanize_is_not_skipped_by_a_pass_order():
    t = random_order()
    tiles = iter(["take urbanize", "take first_deliver", "take turn_order", "take engineer"])
    while t.s.phase == "actions":
        t.play(next(tiles))
    urbanizer = next(s for s in range(4) if t.p(s).action == "urbanize")
    while t.who() != urbanizer:
        t.play("done")
    assert follow(t, [f"t{t.s.turn} pass build"])[0] is None     # must urbanize: wait for the person


def test_deliveries_are_tried_in_order_and_used_up():
    t = random_order()
    builder = built_albany_new_york(t)
    t.set_cubes("L7", [0, 0, 0, 1, 0])
    t.set_cubes("L11", [0] * 5)
    while t.who() != builder:
        t.play("pass")
    turn = t.s.turn
    orders = [f"t{turn} deliver purple L7-L9-L11", f"t{turn} locomotive", f"t{turn} pass deliver"]
    action, standing = follow(t, orders)
    assert action == Upgrade()           # the delivery needs locomotive 2: the next order applies
    assert standing == [orders[0], orders[2]]
    t.play("locomotive")
    while t.who() != builder:
        t.play("pass")
    action, standing = follow(t, standing)
    assert GAME.format_action(action) == "deliver purple L7-L9-L11" and standing == [orders[2]]
    t.play(GAME.format_action(action))
    assert follow(t, standing)[0] is None   # the mover answers income/points themselves


def test_always_income_answers_for_deliveries_by_others():
    t = random_order()
    builder = built_albany_new_york(t)
    other = next(s for s in t.s.order if s != builder)
    t.s.pending = [(other, 2)]
    t.s.step_order = [builder] + [s for s in t.s.order if s != builder]
    t.s.step_pos = 0
    assert GAME.follow_orders(t.s, other, ["always points"])[0] == Score(into="points")
    t.s.pending = [(builder, 2)]
    assert GAME.follow_orders(t.s, builder, ["always points"])[0] is None


def test_order_choices_offer_every_order_kind_and_describe_them():
    t = random_order()
    builder = built_albany_new_york(t)
    t.s.players[builder].locomotive = 2
    decision = GAME.order_choices(t.s, builder)
    notations = decision.all_notations()
    turn = t.s.turn
    assert "always income" in notations and "always points" in notations
    assert f"t{turn} pass deliver" in notations and f"t{turn} locomotive" in notations
    assert any(n.startswith(f"t{turn} deliver ") for n in notations) or not GAME.deliveries(t.s, builder)
    for notation in notations:
        event = GAME.describe_order(t.s, builder, notation)
        assert event.key.startswith("steam.order.")


@pytest.mark.parametrize("junk", ["", "bid upto 3", "t1 fly", "always never", "t1 deliver red"])
def test_unreadable_orders_are_refused_and_never_followed(junk):
    t = Table(n=4)
    with pytest.raises(IllegalAction) as err:
        GAME.describe_order(t.s, t.who(), junk)
    assert err.value.code == "unparsable"
    assert follow(t, [junk]) == (None, [])
