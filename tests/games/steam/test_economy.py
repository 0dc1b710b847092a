"""Steam's money, turn order and the end (ST-10 … ST-14): the rulebook's worked examples with
their own numbers, the refusals, the income track data file, and conservation of every dollar
between players and bank through random sequences."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from games.core.errors import DataError, IllegalAction
from games.core.i18n import catalog, translate
from games.steam.auction import Award, BasicAuction, StandardAuction, order_by_tiles
from games.steam.economy import (
    FinalFacts, Purse, action_cost, available, basic_income, final_results, game_turns,
    income_points, is_last_turn, pay, pay_cash, raise_capital, standard_income, start_money,
    take_action,
)
from games.steam.income import INCOME_PATH, income_track, load_income_track
from games.steam.rules import GAME
from tests.support.bot_games import bot_steps
from tests.support.broken_data import assert_unreadable_is_refused, broken_copy

# Seats of the examples, named as the rulebook names the players.
GREEN, BROWN, BLACK, WHITE, ORANGE = range(5)


# --- the income track file ---------------------------------------------------------------

def test_track_runs_from_minus_ten_in_one_dollar_spaces():
    t = income_track()
    assert t.lowest == -10 and t.start == 0
    assert [t.previous_space(i) for i in (3, 0, -1, -9)] == [2, -1, -2, -10]
    assert t.previous_space(-10) is None
    assert t.spaces_back(-8, 2) == -10 and t.spaces_back(-8, 3) is None


def test_a_track_whose_steps_change_size_is_followed(tmp_path):
    """Spaces $1 apart up to 10, then $2 apart: one step back from 12 is 10, from 10 is 9."""
    path = broken_copy(INCOME_PATH, tmp_path, lambda d: d["segments"].append({"from": 10, "step": 2}))
    t = load_income_track(path)
    assert [t.previous_space(i) for i in (14, 12, 10, 9)] == [12, 10, 9, 8]
    assert not t.on_track(11)


@pytest.mark.parametrize("change", [
    lambda d: d["segments"].__setitem__(0, {"from": -9, "step": 1}),  # not from the lowest space
    lambda d: d["segments"].append({"from": 5, "step": 0}),
    lambda d: d["segments"].append({"from": -20, "step": 1}),  # out of order
    lambda d: d["raise"].pop("dollars_per_step"),
    lambda d: d["raise"].__setitem__("dollars_per_step", 0),
    lambda d: d.__setitem__("start", -11),
])
def test_a_broken_track_file_is_refused(tmp_path, change):
    with pytest.raises(DataError, match="income"):
        load_income_track(broken_copy(INCOME_PATH, tmp_path, change))


def test_unreadable_track_file_is_refused(tmp_path):
    assert_unreadable_is_refused(load_income_track, tmp_path / "income.json", "{")
    with pytest.raises(DataError):
        load_income_track(tmp_path / "missing.json")


# --- raising cash (ST-10) ----------------------------------------------------------------

def test_green_raises_ten_to_pay_eight_for_track():
    """Rulebook: Green pays $8 with $0 on hand, moves income back 2 spaces and keeps $2."""
    m = pay(Purse(GREEN, cash=0, income=0), 8, reason="build")
    assert (m.purse.income, m.purse.cash, m.raised, m.paid) == (-2, 2, 10, 8)


def test_cash_on_hand_is_spent_first_and_only_needed_steps_raised():
    m = pay(Purse(GREEN, cash=4, income=3), 9, reason="build")
    assert (m.purse.income, m.purse.cash, m.raised) == (2, 0, 5)
    m = pay(Purse(GREEN, cash=9, income=3), 9, reason="build")
    assert (m.purse.income, m.purse.cash, m.raised) == (3, 0, 0)


def test_at_minus_ten_two_points_per_five_dollars():
    m = pay(Purse(GREEN, cash=1, income=-9, points=7), 12, reason="build")
    # $1 on hand, then income -9 -> -10 ($5), then 2 points ($5), then 2 more points ($5): $4 back.
    assert (m.purse.income, m.purse.points, m.purse.cash) == (-10, 3, 4)


def test_no_cash_at_minus_ten_with_no_points():
    broke = Purse(GREEN, cash=3, income=-10, points=1)
    assert available(broke) == 3
    with pytest.raises(IllegalAction) as err:
        pay(broke, 4, reason="build")
    assert err.value.code == "steam.cannot_afford" and err.value.params == {"cost": 4, "money": 3}


# --- action tiles (ST-11) ----------------------------------------------------------------

def test_orange_locomotive_four_to_five_costs_nine():
    m = take_action(Purse(ORANGE, cash=9, locomotive=4), "locomotive")
    assert (m.purse.locomotive, m.purse.cash, m.paid) == (5, 0, 9)
    assert action_cost("locomotive", 4) == 9


def test_city_growth_and_urbanize_prices_and_declining():
    assert action_cost("city_growth", 1) == 2 and action_cost("urbanize", 3) == 6
    assert take_action(Purse(GREEN, cash=7), "urbanize").purse.cash == 1
    declined = take_action(Purse(GREEN, cash=7), "urbanize", decline=True)
    assert declined.purse == Purse(GREEN, cash=7) and declined.paid == 0
    assert take_action(Purse(GREEN, cash=7), "engineer").paid == 0


def test_locomotive_cannot_be_declined_nor_pass_six():
    with pytest.raises(IllegalAction, match="steam.cannot_decline"):
        take_action(Purse(GREEN, cash=20), "locomotive", decline=True)
    with pytest.raises(IllegalAction, match="steam.locomotive_max"):
        take_action(Purse(GREEN, cash=20, locomotive=6), "locomotive")


def test_standard_game_action_tiles_cost_nothing():
    m = take_action(Purse(GREEN, cash=0, locomotive=2), "locomotive", standard=True)
    assert (m.purse.locomotive, m.purse.cash, m.paid) == (3, 0, 0)


# --- income phase (basic game) -----------------------------------------------------------

def test_orange_collects_two_green_owes_one():
    """Rulebook: Orange's income is $2: +$2. Green's is -$1 with no cash: raises one step
    (income -2) and receives $4 (5 - 1)."""
    orange = basic_income(Purse(ORANGE, cash=0, income=2))
    assert (orange.purse.cash, orange.received) == (2, 2)
    green = basic_income(Purse(GREEN, cash=0, income=-1))
    assert (green.purse.income, green.purse.cash) == (-2, 4)


def test_basic_bankruptcy_when_points_cannot_cover():
    m = basic_income(Purse(GREEN, cash=2, income=-10, points=1))
    assert m.bankrupt and m.purse.cash == 0 and m.paid == 2
    assert m.events[-1].key == "steam.ev.bankrupt"
    # owes $10: $2 on hand, then 4 points for two $5 steps, $2 change
    survives = basic_income(Purse(GREEN, cash=2, income=-10, points=4))
    assert not survives.bankrupt and (survives.purse.points, survives.purse.cash) == (0, 2)


# --- standard game (ST-12, ST-13) --------------------------------------------------------

def test_capital_only_in_income_steps_never_below_minus_ten():
    m = raise_capital(Purse(GREEN, cash=0, income=0), 3)
    assert (m.purse.cash, m.purse.income, m.raised) == (15, -3, 15)
    with pytest.raises(IllegalAction, match="steam.income_floor"):
        raise_capital(Purse(GREEN, income=-9, points=10), 2)
    with pytest.raises(IllegalAction, match="steam.cannot_afford"):
        pay_cash(Purse(GREEN, cash=5, income=10), 6, reason="build")


def test_maintenance_is_one_dollar_per_locomotive_level():
    """Rulebook: a level 3 locomotive pays $3 besides income; income above upkeep is collected."""
    m = standard_income(Purse(GREEN, cash=5, income=0, locomotive=3))
    assert (m.purse.cash, m.paid) == (2, 3)
    m = standard_income(Purse(GREEN, cash=0, income=5, locomotive=3))
    assert (m.purse.cash, m.received) == (2, 2)
    m = standard_income(Purse(GREEN, cash=0, income=0, locomotive=6))
    assert m.purse.points == 0 and m.purse.income == -3  # $6 short: three income steps of $2


def test_shortfall_points_first_then_income_odd_dollar_back():
    # Owes 6 (income -2, level 4), has $1: $5 short = 3 units of $2; 2 points, then 1 income
    # space; $6 covered for $5 owed, so the bank gives $1 back.
    m = standard_income(Purse(GREEN, cash=1, income=-2, points=2, locomotive=4))
    assert (m.purse.cash, m.purse.points, m.purse.income, m.paid, m.raised) == (1, 0, -3, 1, 1)


def test_standard_bankruptcy():
    m = standard_income(Purse(GREEN, cash=0, income=-10, points=0, locomotive=1))
    assert m.bankrupt
    m = standard_income(Purse(GREEN, cash=0, income=-9, points=0, locomotive=1))
    # owes 10, one income space covers only $2 -> bankrupt
    assert m.bankrupt and m.purse.income == -10
    assert not standard_income(Purse(GREEN, cash=0, income=-10, points=6, locomotive=1)).bankrupt


# --- turn order --------------------------------------------------------------------------

def test_black_wins_first_place_for_seven():
    """Rulebook: Black wins the first position for $7 in a 5-player game, lowers income 2 spaces
    and takes $3 change; the auction for position 2 starts left of Black."""
    seats = (GREEN, BROWN, BLACK, WHITE, ORANGE)
    a = BasicAuction.start(seats, first=WHITE)
    a = a.bid(WHITE, 3).auction
    a = a.pass_(ORANGE).auction
    a = a.bid(GREEN, 5).auction
    a = a.pass_(BROWN).auction
    a = a.bid(BLACK, 7).auction
    a = a.pass_(WHITE).auction
    step = a.pass_(GREEN)
    assert step.awards == (Award(BLACK, 1, 7),)
    m = pay(Purse(BLACK), 7, reason="turn_order")
    assert (m.purse.income, m.purse.cash) == (-2, 3)
    assert step.auction.to_act == WHITE and step.auction.minimum == 0
    assert BLACK not in step.auction.active


def test_basic_auction_runs_to_a_full_order_last_free():
    a = BasicAuction.start((0, 1, 2), first=0)
    a = a.bid(0, 2).auction
    a = a.pass_(1).auction
    step = a.pass_(2)  # 0 wins at 2; next auction starts at seat 1
    assert step.awards == (Award(0, 1, 2),) and step.auction.to_act == 1
    step = step.auction.pass_(1)  # 2 takes place 2 for nothing, 1 the last place free
    assert step.awards == (Award(2, 2, 0), Award(1, 3, 0)) and step.auction.done
    assert step.auction.placed == (0, 2, 1)


def test_bids_must_rise_and_turns_are_kept():
    a = BasicAuction.start((0, 1, 2), first=0).bid(0, 3).auction
    with pytest.raises(IllegalAction, match="steam.bid_too_low"):
        a.bid(1, 3)
    with pytest.raises(IllegalAction, match="steam.not_your_bid"):
        a.bid(2, 9)
    with pytest.raises(IllegalAction, match="steam.bid_too_high"):
        a.bid(1, 9, limit=8)


def test_random_order_option_gives_one_two_three():
    assert start_money((2, 0, 3, 1)) == {2: 0, 0: 1, 3: 2, 1: 3}


def test_next_turn_order_by_action_tiles():
    """Rulebook: Pat Locomotive (6), Michel First Build (4), Thomas Urbanize (7), Lin First
    Deliver (2) -> Lin, Michel, Pat, Thomas."""
    pat, michel, thomas, lin = range(4)
    assert order_by_tiles({pat: 6, michel: 4, thomas: 7, lin: 2}) == (lin, michel, pat, thomas)


def test_standard_auction_example():
    """Rulebook: Green bids 0, Brown 2, Black passes (space 4), White passes with the Turn Order
    tile; Green bids 3, Brown passes (space 3), White passes again (space 2), Green is first.
    Black pays nothing, Green $3, White nothing (never bid), Brown half of 2 = $1."""
    a = StandardAuction.start((GREEN, BROWN, BLACK, WHITE), holder=WHITE)
    a = a.bid(GREEN, 0, cash=10).auction
    a = a.bid(BROWN, 2, cash=10).auction
    step = a.pass_(BLACK)
    assert step.auction.spaces == (None, None, None, BLACK)
    step = step.auction.pass_(WHITE)
    assert step.auction.spaces == (None, None, None, BLACK) and WHITE in step.auction.active
    with pytest.raises(IllegalAction, match="steam.bid_too_low"):
        step.auction.bid(GREEN, 2, cash=10)
    a = step.auction.bid(GREEN, 3, cash=10).auction
    a = a.pass_(BROWN).auction
    step = a.pass_(WHITE)
    assert step.auction.done and step.auction.spaces == (GREEN, WHITE, BROWN, BLACK)
    assert step.awards == (Award(GREEN, 1, 3), Award(WHITE, 2, 0), Award(BROWN, 3, 1), Award(BLACK, 4, 0))


def test_standard_bid_never_above_cash():
    a = StandardAuction.start((0, 1, 2))
    with pytest.raises(IllegalAction, match="steam.bid_too_high"):
        a.bid(0, 6, cash=5)


# --- the end (ST-14) ---------------------------------------------------------------------

def test_game_length_by_player_count():
    assert [game_turns(n) for n in (3, 4, 5)] == [10, 8, 7]
    assert not is_last_turn(7, 4) and is_last_turn(8, 4) and is_last_turn(7, 5)
    with pytest.raises(IllegalAction):
        game_turns(2)


def test_nick_scores_forty_five():
    """Rulebook: 37 points from deliveries, income -1, 10 completed links: 37 - 2 + 10 = 45."""
    (nick,), ties = final_results([FinalFacts(seat=0, points=37, income=-1, completed_links=10, last_tile=3)])
    assert ties == []
    assert nick.total == 45
    assert nick.by_category() == {"deliveries": 37, "income": -2, "links": 10}


def test_income_points_round_down_and_lose_two_per_dollar():
    assert [income_points(i) for i in (5, 1, 0, -2)] == [2, 0, 0, -4]


def test_ties_go_to_income_then_lower_last_tile():
    results, ties = final_results([
        FinalFacts(0, points=20, income=4, completed_links=0, last_tile=2),  # 22
        FinalFacts(1, points=19, income=6, completed_links=0, last_tile=5),  # 22, more income
        FinalFacts(2, points=20, income=4, completed_links=0, last_tile=1),  # 22, same income, tile 1
        FinalFacts(3, points=30, income=-1, completed_links=0, last_tile=7),  # 28
    ])
    assert [(r.seat, r.rank, r.total) for r in results] == [(3, 1, 28), (1, 2, 22), (2, 3, 22), (0, 4, 22)]
    # what decided each tie travels with the result, figures included
    assert [(t.above, t.below, t.key, t.params["above"], t.params["below"]) for t in ties] == [
        (1, 2, "steam.tie.income", 6, 4), (2, 0, "steam.tie.last_tile", 1, 2)]


# --- every dollar accounted for ----------------------------------------------------------

purses = st.builds(Purse, seat=st.just(0), cash=st.integers(0, 30), income=st.integers(-10, 20),
                   points=st.integers(0, 20), locomotive=st.integers(1, 6))
operations = st.lists(st.one_of(
    st.tuples(st.just("pay"), st.integers(0, 40)),
    st.tuples(st.just("basic_income"), st.just(0)),
    st.tuples(st.just("capital"), st.integers(0, 4)),
    st.tuples(st.just("pay_cash"), st.integers(0, 15)),
    st.tuples(st.just("standard_income"), st.just(0)),
    st.tuples(st.sampled_from(["city_growth", "locomotive", "urbanize", "engineer"]), st.booleans()),
), min_size=1, max_size=25)


def _run(purse: Purse, op: str, arg):
    if op == "pay":
        return pay(purse, arg, reason="build")
    if op == "basic_income":
        return basic_income(purse)
    if op == "capital":
        return raise_capital(purse, arg)
    if op == "pay_cash":
        return pay_cash(purse, arg, reason="build")
    if op == "standard_income":
        return standard_income(purse)
    return take_action(purse, op, decline=arg and op in ("city_growth", "urbanize"))


@settings(max_examples=300, deadline=None)
@given(purses, operations)
def test_every_dollar_is_accounted_for(start, ops):
    bank = 10_000
    purse = start
    for op, arg in ops:
        try:
            m = _run(purse, op, arg)
        except IllegalAction:
            continue
        before, after = purse, m.purse
        assert after.cash == before.cash + m.raised + m.received - m.paid
        bank += m.paid - m.raised - m.received
        assert bank + after.cash == 10_000 + start.cash
        assert after.cash >= 0 and after.points >= 0 and after.income >= -10
        income_steps, points_lost = before.income - after.income, before.points - after.points
        if op == "pay" and not m.bankrupt:
            # the bank pays $5 per income space or per 2 points given up, and takes the price
            assert m.paid == arg and m.raised == 5 * income_steps + 5 * points_lost // 2
            assert m.raised - max(0, arg - before.cash) in range(0, 5)
        if op == "standard_income" and not m.bankrupt:
            owed = before.locomotive - before.income
            # cash, 1 point per $2, 1 income space per $2, the odd dollar back
            assert m.paid + 2 * points_lost + 2 * income_steps - m.raised - m.received == owed
            assert m.raised in (0, 1)
        if m.bankrupt:
            assert after.cash == 0 and after.income == -10 and after.points <= 1
            break  # the player has left the game
        purse = after


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 5), st.data())
def test_auctions_place_everyone_once(n, data):
    seats = tuple(range(n))
    basic = BasicAuction.start(seats, first=data.draw(st.sampled_from(seats)))
    awards: list[Award] = []
    while not basic.done:
        seat = basic.to_act
        if data.draw(st.booleans()):
            step = basic.bid(seat, basic.minimum + data.draw(st.integers(0, 3)))
        else:
            step = basic.pass_(seat)
        awards += step.awards
        basic = step.auction
    assert sorted(a.seat for a in awards) == list(seats)
    assert [a.position for a in awards] == list(range(1, n + 1)) and awards[-1].price == 0

    holder = data.draw(st.one_of(st.none(), st.sampled_from(seats)))
    std = StandardAuction.start(seats, holder=holder)
    top: dict[int, int] = {}
    step = None
    while not std.done:
        seat = std.to_act
        if data.draw(st.booleans()):
            amount = (0 if std.high is None else std.high + 1) + data.draw(st.integers(0, 2))
            step = std.bid(seat, amount, cash=99)
            top[seat] = amount
        else:
            step = std.pass_(seat)
        std = step.auction
    assert sorted(std.spaces) == list(seats)
    for award in step.awards:
        bid = top.get(award.seat, 0)
        expected = bid if award.position <= 2 else 0 if award.position == n else math.ceil(bid / 2)
        assert award.price == expected


# --- every message exists in both languages ----------------------------------------------

def test_every_money_message_in_both_languages():
    keys = ["steam.ev." + k for k in (
        "raised", "raised_points", "paid", "declined", "locomotive", "income", "bankrupt", "capital",
        "maintenance", "shortfall_points", "shortfall_income", "change", "bid", "passed",
        "free_pass", "won_position", "took_position", "pays_for_position")]
    keys += ["steam.error." + k for k in (
        "cannot_afford", "cannot_decline", "locomotive_max", "capital_negative", "income_floor",
        "bad_player_count", "not_your_bid", "bid_too_low", "bid_too_high")]
    for lang in ("en", "ja"):
        assert not [k for k in keys if k not in catalog(lang)], lang
    m = pay(Purse(GREEN), 8, reason="build")
    assert translate("en", m.events[0].key, m.events[0].params, ["Green"]) == \
        "Green raised $10, lowering income 2 steps to -2."
    assert translate("ja", m.events[1].key, m.events[1].params, ["緑"]) == "緑は線路に$8を支払いました。"


# --- the log says each payment once ------------------------------------------------------

@pytest.mark.parametrize("options", [{}, {"standard": True, "map": "rhine_ruhr"}])
def test_a_build_or_a_turn_order_place_states_its_price_once(options):
    """A build's event carries its cost and a place in the turn order its price: no second
    "paid $2 for track" line follows them (the basic game's raising of cash still does)."""
    players = 5 if options else 4
    priced = {"steam.ev.built", "steam.ev.upgraded", "steam.ev.redirected", "steam.ev.won_position",
              "steam.ev.pays_for_position"}
    seen = set()
    for step in bot_steps(GAME, players, 3, next(iter(GAME.bots())), options):
        events = GAME.apply(step.state, step.seat, step.action).events
        seen |= {e.key for e in events} & priced
        said_twice = [e for e in events if e.key == "steam.ev.paid"
                      and e.params["reason"]["key"] in ("steam.reason.build", "steam.reason.turn_order")]
        assert not said_twice, (step.action, [e.key for e in events])
    assert {"steam.ev.built"} <= seen and seen & {"steam.ev.won_position", "steam.ev.pays_for_position"}
