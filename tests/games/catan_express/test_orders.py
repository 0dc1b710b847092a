"""Catan Express's standing orders (games/catan_express/orders.py): what each order does when
the game waits on its owner, that it only ever makes a legal move and reads nothing but its
owner's own hand, that the orders stand for the whole game (a move of one's own keeps them),
and the menu that sets them, in English and Japanese."""
from __future__ import annotations

import random

import pytest

from games.catan_express.models import Answer, End, Roll
from games.catan_express.rules import GAME
from games.core.errors import IllegalAction
from games.core.i18n import translate
from tests.games.catan_express.helpers import Table
from tests.games.catan_express.test_rules import seated
from tests.support.bot_games import bot_steps


def follow(t: Table, orders, seat: int):
    return GAME.follow_orders(t.s, seat, list(orders))


def offering(give: str = "1lumber", get: str = "1ore") -> Table:
    """Seat 0 offers `give` for `get`; seat 1 holds 2 ore and 1 wool, seat 2 one ore, seat 3
    nothing of use."""
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=3, brick=2)
    t.set_hand(1, ore=2, wool=1)
    t.set_hand(2, ore=1)
    t.set_hand(3, grain=1)
    t.play(f"offer {give} {get}")
    return t


def test_refuse_all_refuses_every_offer_for_its_owner_only():
    t = offering()
    for seat in (1, 2, 3):
        assert follow(t, ["refuse all"], seat) == (Answer(accept=False), ["refuse all"])
    t.play("accept", 2)
    # the offerer, now waited on to pick, is no answerer: the order does nothing for them
    assert follow(t, ["refuse all"], 0) == (None, ["refuse all"])
    assert follow(t, ["refuse all"], 2) == (None, ["refuse all"])  # answered already
    t.play("trade @3", 0)
    assert follow(t, ["refuse all"], 0) == (None, ["refuse all"])  # the main phase: nothing to answer


@pytest.mark.parametrize("order, offer, accepts", [
    ("accept 1lumber for 1ore", ("1lumber", "1ore"), True),             # the very terms
    ("accept 1lumber for 1ore", ("2lumber", "1ore"), True),             # more given to me
    ("accept 1lumber for 1ore", ("1lumber+1brick", "1ore"), True),      # something besides
    ("accept 1lumber for 2ore", ("1lumber", "1ore"), True),             # less asked of me
    ("accept 1lumber for 1ore", ("1lumber", "2ore"), False),            # more asked of me
    ("accept 1lumber for 1ore", ("1lumber", "1wool"), False),           # a kind I do not give
    ("accept 1lumber for 1ore+1wool", ("1lumber", "1ore+1wool"), True),
    ("accept 2lumber for 1ore", ("1lumber", "1ore"), False),            # less given to me
    ("accept 1brick for 1ore", ("1lumber", "1ore"), False),             # not what I want
])
def test_an_accept_order_takes_offers_at_least_as_good_as_its_terms(order, offer, accepts):
    t = offering(*offer)
    action, standing = follow(t, [order], 1)
    assert standing == [order]
    assert action == (Answer(accept=True) if accepts else None)
    if accepts:
        GAME.apply(t.s, 1, action)  # legal


def test_an_accept_order_reads_its_owners_hand_and_wins_over_refuse_all():
    t = offering("1lumber", "1ore")
    orders = ["refuse all", "accept 1lumber for 1ore"]
    assert follow(t, orders, 1)[0] == Answer(accept=True)  # whatever the order they were set in
    assert follow(t, orders, 2)[0] == Answer(accept=True)
    assert follow(t, orders, 3)[0] == Answer(accept=False)  # no ore to give: refused
    assert follow(t, orders[1:], 3)[0] is None  # ...or asked, without "refuse all"


def test_end_special_ends_its_owners_special_building_turns():
    t = Table(5, seed=3)
    t.seat_any()
    t.to_main(8)
    t.play("end")
    assert t.s.phase == "special" and t.s.special_queue[0] == 1
    for seat in range(5):
        action, standing = follow(t, ["end special", "refuse all"], seat)
        assert standing == ["end special", "refuse all"]
        assert action == (End() if seat == 1 else None)
    GAME.apply(t.s, 1, End())
    # not in the player's own turn: "end" there ends the turn, which the order is not about
    t2 = Table(5, seed=3)
    t2.seat_any()
    t2.to_main(8)
    assert follow(t2, ["end special"], 0) == (None, ["end special"])


def test_roll_rolls_at_the_start_of_its_owners_turn_only():
    t = seated()
    assert t.s.phase == "roll" and t.s.current == 0
    assert follow(t, ["roll"], 0) == (Roll(), ["roll"])
    assert follow(t, ["roll"], 1) == (None, ["roll"])
    t.to_main(8)
    assert follow(t, ["roll"], 0) == (None, ["roll"])


def test_unreadable_orders_are_dropped_and_the_rest_stand_after_any_move_of_ones_own():
    t = offering()
    orders = ["refuse all", "fly", "accept 1ore for 1ore", "accept 9x for 1ore", "roll"]
    assert follow(t, orders, 1) == (Answer(accept=False), ["refuse all", "roll"])
    kept = GAME.orders_after_own_move(t.s, 1, ["refuse all", "end special", "accept 1lumber for 1ore", "fly"],
                                      Answer(accept=True))
    assert kept == ["refuse all", "end special", "accept 1lumber for 1ore"]
    for junk in ("fly", "accept 1ore for 1ore", "accept for", "refuse", ""):
        with pytest.raises(IllegalAction) as err:
            GAME.describe_order(t.s, 0, junk)
        assert err.value.code == "unparsable"


def test_the_menu_of_orders_in_both_languages():
    four, six = Table(4), Table(6, seed=2)
    assert [c.notation for c in GAME.order_choices(four.s, 0).choices] == ["refuse all", "roll"]
    menu = GAME.order_choices(six.s, 3)
    assert [c.notation for c in menu.choices] == ["end special", "refuse all", "roll"]
    group, = menu.groups
    assert menu.walk(["accept"]).group == 0
    for order in ("accept 1ore for 1wool", "accept 1brick+1ore for 2wool+1grain", "accept 3lumber for 4grain"):
        assert menu.holds(order), order
    for order in ("accept 1ore for 1ore", "accept 4ore for 1wool", "accept 1ore for 5wool", "accept 1ore for"):
        assert not menu.holds(order), order
    samples = [group.write(group.sample(random.Random(k))) for k in range(40)]
    words = {}
    for order in ["end special", "refuse all", "roll", "accept 1ore for 1wool", *samples]:
        event = GAME.describe_order(six.s, 3, order)
        for lang in ("en", "ja"):
            text = translate(lang, event.key, event.params)
            assert "{" not in text and event.key not in text, text
            words[lang, order] = text
    assert words["en", "accept 1ore for 1wool"] == \
        "Accept any offer that gives me at least 1 ore and asks no more than 1 wool of me."
    assert words["ja", "accept 1ore for 1wool"] == "鉱石1枚以上を出し、求めるのが羊毛1枚以内の申し出は受ける。"
    assert "手番外建設" in words["ja", "end special"] and "申し出" in words["ja", "refuse all"]
    for key in ("catan_express.order.step.kind", "catan_express.order.step.accept", "catan_express.order.step.get", "catan_express.order.step.give",
                "catan_express.order.accept_kind"):
        assert translate("ja", key, {}) != translate("en", key, {}) != key
    over = bot_steps(GAME, 3, 2, "builder")[-1].after
    assert GAME.order_choices(over, 0).empty


@pytest.mark.parametrize("players, seed, options", [(6, 7, {"map": "islands"}), (4, 3, {})])
def test_orders_over_a_whole_game_make_only_legal_moves(players, seed, options):
    """Every seat sets every plain order and an accept order; wherever the game waits on a
    seat, what its orders make is legal, and a move they make is the one the rules make for
    every hand alike except an acceptance, which only a hand that can pay makes."""
    accept = "accept 1ore for 1wool"
    orders = ["end special", "refuse all", "roll", accept] if players >= 5 else ["refuse all", "roll", accept]
    made = {"end": 0, "roll": 0, "answer": 0}
    for step in bot_steps(GAME, players, seed, "builder", options):
        state = step.state
        for seat in GAME.active_players(state):
            action, standing = GAME.follow_orders(state, seat, orders)
            assert standing == orders
            if action is None:
                continue
            GAME.apply(state, seat, action)  # raises if illegal
            made[action.kind] += 1
            if action == Answer(accept=True):
                assert state.offer.give[4] >= 1 and list(state.offer.get) == [0, 0, 1, 0, 0]  # ore for a wool
    assert made["roll"] and made["answer"] and (made["end"] or players < 5), made
