"""Catan Express's rules engine (games/catan_express/rules.py) ruling by ruling: setup, the 7,
development cards, trades, the special building phase, rails and ferries, settlements and
cities, victory point chips, tie-breaks and bad input — each played move by move through
`GAME.apply` on the beginner board (tests/games/catan_express/helpers.py), with the cards conserved after
every move. The race is in test_race.py; whole random games in test_protocol.py."""
from __future__ import annotations

import itertools
import random

import pytest

from games.core.errors import message_key_of
from games.core.errors import IllegalAction
from games.core.i18n import translate
from games.catan_express.bots import BOTS
from games.catan_express.cards import KINDS
from games.catan_express.components import DevCard
from games.catan_express.economy import Hand
from games.catan_express.models import Answer, Discard, Partner, Propose
from games.catan_express.rules import GAME
from tests.games.catan_express.helpers import SPOTS4, Table, cards, find
from tests.support.protocol_checks import check_decisions


def seated(n: int = 4, seed: int = 1) -> Table:
    t = Table(n, seed)
    t.seat_all()
    return t


# --- setup (CE-B6, CE-3) ------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup_runs_in_snake_order(n):
    # CE-B6: settlements 1…n then n…1; each second settlement is followed by its free rail
    # from the same seat (CE-3).
    t = Table(n, seed=n)
    placing = []
    while t.s.phase in ("setup", "gold"):
        seat = t.who()
        text = t.legal()[0]
        if text.startswith("build settlement"):
            placing.append(seat)
        t.play(text)
    assert placing == list(range(n)) + list(range(n))[::-1]
    assert t.s.phase == "roll" and t.s.current == 0 and t.s.turn == 1
    rails = [e for e in t.events if e.key == "catan_express.ev.built_free"]
    assert [e.params["seat"] for e in rails] == list(range(n))[::-1]


def test_setup_keeps_the_distance_rule():
    # CE-B6: no two buildings on neighbouring intersections, from the first settlement on.
    t = Table()
    t.play("build settlement 13")
    offered = {int(x.split()[-1]) for x in t.legal()}
    assert not offered & {13, 8, 9, 18}
    assert {12, 14, 19} <= offered
    assert t.refuse("build settlement 9") == "catan_express.distance_rule"
    assert t.refuse("build settlement 13") == "catan_express.point_taken"


def test_second_settlement_brings_one_card_per_producing_hex():
    # CE-B6: the second settlement's adjacent producing hexes each give one card; the first
    # settlement gives nothing.
    t = Table()
    for seat in range(4):
        t.play(f"build settlement {SPOTS4[seat][0]}")
    assert all(t.hand(s) == cards() for s in range(4))
    t.play("build settlement 10")           # seat 3: D2 fields, D3 forest, E2 forest
    assert t.hand(3) == cards(lumber=2, grain=1)
    assert t.s.bank == [17, 19, 19, 18, 19]


def test_second_settlement_by_the_desert_and_the_gold_river():
    # CE-B6 with CE-B1: the desert gives nothing; the gold river gives one card of the
    # owner's choice, asked before the free rail.
    t = Table(3, seed=2)
    t.play("build settlement 13")
    t.play("build settlement 42")
    t.play("build settlement 35")
    t.play("build settlement 24")           # seat 2: C4 fields, C3 hills, D4 desert
    assert t.hand(2) == cards(grain=1, brick=1)
    t.play("build rail 24-C4")
    t.play("build settlement 11")           # seat 1: E2 forest and E3 gold river
    assert t.hand(1) == cards(lumber=1)
    assert t.s.phase == "gold" and GAME.active_players(t.s) == {1}
    options = t.legal()
    assert len(options) == 5 and all(x.startswith("gold 1") for x in options)
    t.play("gold 1ore")
    assert t.hand(1) == cards(lumber=1, ore=1)
    assert t.s.phase == "setup" and t.s.setup_rail and t.who() == 1
    assert sorted(t.legal()) == ["build rail 11-E2", "build rail 11-E3"]


def test_free_rail_only_from_the_second_settlement_to_a_neighbouring_centre():
    # CE-3: one free rail from the second settlement to the centre of one of its land hexes;
    # the locomotive stands on that settlement; the first settlement has no rail.
    t = Table()
    for seat in range(4):
        t.play(f"build settlement {SPOTS4[seat][0]}")
    t.play("build settlement 10")
    hand = t.hand(3)
    assert sorted(t.legal()) == ["build rail 10-D2", "build rail 10-D3", "build rail 10-E2"]
    assert t.refuse("build rail 42-E5") == "catan_express.setup_rail_from_second"   # from the first settlement
    assert t.refuse("build rail 14-D3") == "catan_express.setup_rail_from_second"   # not from a settlement
    assert t.refuse("build settlement 3") == "catan_express.not_now"
    t.play("build rail 10-D3")
    assert t.hand(3) == hand                                            # free
    assert t.s.pieces == {"10-D3": [3]}
    assert t.p(3).loco == "10" and t.p(3).start == 10
    for seat in (2, 1, 0):
        first, second, centre = SPOTS4[seat]
        t.play(f"build settlement {second}")
        t.play(f"build rail {second}-{centre}")
    for seat, (first, second, _) in SPOTS4.items():
        assert t.p(seat).loco == str(second)
        assert not any(str(first) in t.geo.ends[piece] for piece in t.s.pieces)


# --- a roll of 7 (CE-B4) ------------------------------------------------------------------

def _seven() -> Table:
    """Seat 0 to roll with 9, 8, 11 and 7 cards in the four hands."""
    t = seated()
    t.set_hand(0, lumber=3, brick=2, wool=2, grain=1, ore=1)
    t.set_hand(1, lumber=1, brick=1, wool=2, grain=2, ore=2)
    t.set_hand(2, lumber=5, ore=6)
    t.set_hand(3, lumber=2, brick=2, wool=3)
    return t


CHOSEN = {0: "discard 3lumber+1brick", 1: "discard 1lumber+1wool+2ore", 2: "discard 5lumber"}


def test_seven_asks_everyone_over_seven_cards_to_discard_half():
    # CE-B4: nobody produces; each hand over 7 discards half, rounded down.
    t = _seven()
    bank = list(t.s.bank)
    t.roll(7)
    assert t.s.phase == "discard" and t.s.discards == {0: 4, 1: 4, 2: 5}
    assert GAME.active_players(t.s) == {0, 1, 2}
    assert t.s.bank == bank
    assert find(t.events, "catan_express.ev.must_discard")[0].params["seats"] == [0, 1, 2]


@pytest.mark.parametrize("order", list(itertools.permutations([0, 1, 2])))
def test_discards_are_simultaneous_in_any_order(order):
    # CE-B4: the players choose at the same time: any order gives the same outcome, each
    # seat stays asked until it answers, then the roller moves the robber.
    t = _seven()
    t.roll(7)
    for k, seat in enumerate(order):
        assert GAME.active_players(t.s) == set(order[k:])
        t.play(CHOSEN[seat], seat)
    assert t.s.phase == "robber" and GAME.active_players(t.s) == {0}
    assert t.hand(0) == cards(brick=1, wool=2, grain=1, ore=1)
    assert t.hand(1) == cards(brick=1, wool=1, grain=2)
    assert t.hand(2) == cards(ore=6)
    assert t.hand(3) == cards(lumber=2, brick=2, wool=3)


def test_each_discard_has_its_own_secret_decision():
    # CE-B4 / CE-12: one seat's discard never makes another's menu stale, and the choice is
    # private to the seat.
    t = _seven()
    t.roll(7)
    decisions = {s: GAME.decision(t.s, s) for s in (0, 1, 2)}
    assert len({d.key for d in decisions.values()}) == 3
    assert all(d.secret and d.key for d in decisions.values())
    t.play(CHOSEN[1], 1)
    for s in (0, 2):
        again = GAME.decision(t.s, s)
        assert again.key == decisions[s].key
        assert sorted(again.all_notations()) == sorted(decisions[s].all_notations())
    assert GAME.decision(t.s, 3).empty


def test_a_wrong_discard_is_refused_and_changes_nothing():
    # CE-B4: exactly half, from cards held; a seat that owes nothing is not asked.
    t = _seven()
    t.roll(7)
    assert t.refuse("discard 3lumber", 0) == "catan_express.discard_count"
    assert t.refuse("discard 4lumber+1ore", 0) == "catan_express.discard_count"
    assert t.refuse("discard 4ore", 0) == "catan_express.not_held"     # the right count, but holds one ore
    assert t.refuse("discard 1lumber", 3) == "not_active"
    with pytest.raises(IllegalAction):
        GAME.apply(t.s, 0, Discard(cards=(0, 0, 0, 0, 0)))


def test_discarded_cards_are_told_only_to_the_discarder():
    # CE-12: the others learn how many, not which.
    t = _seven()
    t.roll(7)
    t.play(CHOSEN[2], 2)
    private = find(t.s.last, "catan_express.ev.discarded_cards")
    assert private and all(e.to == (2,) for e in private)
    public = find(t.s.last, "catan_express.ev.discarded")
    assert public[0].to is None and public[0].params == {"seat": 2, "count": 5}
    for viewer in (None, 0, 1, 3):
        assert not find(GAME.view(t.s, viewer).state.last, "catan_express.ev.discarded_cards")
    assert find(GAME.view(t.s, 2).state.last, "catan_express.ev.discarded_cards")


def _robber_turn() -> Table:
    t = seated()
    t.to_main(8)
    t.end()
    t.set_hand(1, lumber=1)
    t.set_hand(0, wool=2)
    t.set_hand(3, ore=1)
    t.set_hand(2)
    t.roll(7)                               # seat 1 rolls; nobody over seven
    assert t.s.phase == "robber" and t.who() == 1
    return t


def test_robber_must_move_to_another_land_hex():
    # CE-B4: any land hex but the one it stands on; never the sea.
    t = _robber_turn()
    hexes = {x.split()[1] for x in t.legal()}
    assert hexes == set(t.geo.centres) - {"D4"}
    assert t.refuse("robber D4") == "catan_express.robber_must_move"
    assert t.refuse("robber A1") == "catan_express.robber_on_land"          # a sea hex


def test_robber_robs_only_a_seat_with_a_building_there_and_cards():
    # CE-B4: C5 touches seat 0 (35, two wool) and seat 2 (45, no cards): only seat 0 can be
    # robbed; C2 touches only seat 0 (13); D2 touches seat 3 (10) and nobody else.
    t = _robber_turn()
    assert [x for x in t.legal() if x.startswith("robber C5")] == ["robber C5 @1"]
    assert t.refuse("robber C5") == "catan_express.robber_must_rob"       # someone is there to rob
    assert t.refuse("robber C5 @3") == "catan_express.cannot_rob"         # seat 2 holds nothing
    assert t.refuse("robber E5 @2") == "catan_express.cannot_rob"         # the thief's own building
    t.play("robber C5 @1")
    assert t.hand(0) == cards(wool=1) and t.hand(1) == cards(lumber=1, wool=1)
    assert t.s.robber == "C5" and t.s.phase == "main"
    private = find(t.s.last, "catan_express.ev.robbed_card")
    assert private[0].to == (0, 1) and private[0].params["resource"] == {"key": "catan_express.resource.wool"}
    assert "resource" not in find(t.s.last, "catan_express.ev.robbed")[0].params
    for viewer in (None, 2, 3):
        assert not find(GAME.view(t.s, viewer).state.last, "catan_express.ev.robbed_card")


def test_robber_hex_produces_nothing():
    # CE-B4: a 10 pays C2 (pasture: seat 0's 13) and C5 (hills: seat 0's 35, seat 2's 45),
    # except the hex the robber stands on.
    t = seated()
    t.set_hand(0)
    t.set_hand(2)
    t.edit(lambda s: setattr(s, "robber", "C5"))
    t.roll(10)
    assert t.hand(0) == cards(wool=1) and t.hand(2) == cards()
    t2 = seated()
    t2.set_hand(0)
    t2.set_hand(2)
    t2.roll(10)
    assert t2.hand(0) == cards(wool=1, brick=1) and t2.hand(2) == cards(brick=1)


def test_shortage_with_several_owed_pays_nobody():
    # CE-B4: a 10 owes brick to seats 0 and 2 with one brick in the bank: neither gets it;
    # wool (owed to seat 0 alone, plenty left) is paid.
    t = seated()
    t.set_hand(0)
    t.set_hand(2)
    t.set_bank(3, brick=1)
    t.roll(10)
    assert t.hand(0) == cards(wool=1) and t.hand(2) == cards()
    assert t.s.bank[1] == 1
    short = find(t.events, "catan_express.ev.shortage")[-1]
    assert short.params["seats"] == [0, 2] and short.params["count"] == 1


def test_shortage_with_one_owed_pays_what_is_left():
    # CE-B4: a city on 13 is owed two wool on a 10; with one wool in the bank it gets that one.
    t = seated()
    t.lay(0, ["13-C3"])
    t.put(13, 0, "city")
    t.set_hand(0)
    t.set_bank(3, wool=1)
    t.roll(10)
    assert t.hand(0)[2] == 1 and t.s.bank[2] == 0
    partial = find(t.events, "catan_express.ev.shortage_partial")[-1]
    assert partial.params["owed"] == 2 and partial.params["count"] == 1 and partial.params["seat"] == 0


# --- development cards (CE-B3) ------------------------------------------------------------

def test_a_card_cannot_be_played_the_turn_it_is_bought():
    # CE-B3: not a card bought this turn; playable from the owner's next turn.
    t = seated()
    t.to_main(8)
    t.set_hand(0, wool=1, grain=1, ore=1)
    t.deck_top("monopoly")
    t.play("buy")
    assert t.hand(0) == cards()
    assert t.p(0).dev_new[4] == 1 and t.s.players[0].dev_cards == 1
    assert t.refuse("monopoly ore") == "catan_express.card_bought_this_turn"
    assert "monopoly ore" not in t.legal()
    for _ in range(4):
        t.end()
        if t.who() != 0:
            t.to_main(8)
    assert t.who() == 0 and t.s.phase == "roll"
    t.to_main(8)
    assert "monopoly ore" in t.legal()
    t.play("monopoly ore")


def test_victory_point_card_is_revealed_at_once():
    # CE-B3 / CE-5: drawn → shown; it counts at once and is never in the hand.
    t = seated()
    t.to_main(8)
    t.set_hand(0, wool=1, grain=1, ore=1)
    before = GAME.total(t.s, 0)
    t.deck_top("victory_point")
    t.play("buy")
    assert t.p(0).vp_cards == 1 and sum(t.p(0).dev_new) == 0 and t.p(0).dev_cards == 0
    assert GAME.total(t.s, 0) == before + 1
    shown = find(t.s.last, "catan_express.ev.vp_revealed")
    assert shown and shown[0].to is None
    other = GAME.view(t.s, 2)
    assert other.state.players[0].vp_cards == 1 and other.seats[0].points == before + 1


def test_one_card_per_turn():
    # CE-B3: one development card a turn, whichever.
    t = seated()
    t.deal_dev(0, "monopoly")
    t.deal_dev(0, "year_of_plenty")
    t.to_main(8)
    t.play("monopoly grain")
    assert t.refuse("plenty 2ore") == "catan_express.card_already_played"
    assert not [x for x in t.legal() if x.startswith("plenty")]


def test_a_knight_may_be_played_before_the_roll():
    # CE-B3: at any time of one's own turn.
    t = seated()
    t.deal_dev(0, "knight")
    t.set_hand(3, ore=1)
    t.play("knight D2 @4")
    assert t.s.phase == "roll" and t.s.robber == "D2" and t.p(0).knights == 1
    assert t.hand(3) == cards() and t.hand(0)[4] == 2


@pytest.mark.parametrize("card, move", [("monopoly", "monopoly ore"), ("year_of_plenty", "plenty 1brick+1ore"),
                                        ("road_building", "roads")])
def test_any_progress_card_may_be_played_before_the_roll(card, move):
    # CE-B3: one card played per turn, at any time of one's own turn: before the roll too,
    # Monopoly, Year of Plenty and Road Building as much as the Knight.
    t = seated()
    t.deal_dev(0, card)
    t.deal_dev(0, "knight")
    t.set_hand(1, ore=2)
    assert t.s.phase == "roll" and move in t.legal()
    menu = GAME.decision(t.s, 0)  # the menu offers it: card → which → …
    assert card in [o.value for o in menu.walk(["card"]).options] and menu.holds(move)
    check_decisions(GAME, t.s)
    t.play(move)
    assert t.s.phase == "roll" and t.p(0).played_card and t.p(0).played[KINDS.index(DevCard(card))] == 1
    if card == "monopoly":
        assert t.hand(1) == cards() and t.hand(0)[4] >= 2
    # still one card a turn: no other before the roll, nor after it
    assert t.refuse("knight D2") == "catan_express.card_already_played"
    assert [x for x in t.legal()] == ["roll"]
    t.to_main(8)
    assert t.refuse("knight D2") == "catan_express.card_already_played"
    if card == "road_building":
        # the two free pieces wait for the building after the roll (this turn only)
        assert t.s.free_pieces == 2
        t.set_hand(0)
        t.play("build rail 24-C4")
        assert t.s.free_pieces == 1 and t.hand(0) == cards()


def test_a_card_bought_this_turn_is_not_played_before_the_next_roll_either():
    # CE-B3: bought this turn, playable from the next of one's own turns — before its roll.
    t = seated()
    t.to_main(8)
    t.set_hand(0, wool=1, grain=1, ore=1)
    t.deck_top("year_of_plenty")
    t.play("buy")
    assert t.refuse("plenty 1wool+1ore") == "catan_express.card_bought_this_turn"
    for _ in range(4):
        t.end()
        if t.who() != 0:
            t.to_main(8)
    assert t.who() == 0 and t.s.phase == "roll"
    assert "plenty 1wool+1ore" in t.legal()


def test_year_of_plenty_waits_for_its_owners_turn_like_every_card():
    # CE-B3: a card is played in one's own turn. Answering another's offer is not one's turn:
    # Year of Plenty is neither on the answer menu nor taken there (an older checker took it).
    t = _offering()
    t.deal_dev(1, "year_of_plenty")
    assert t.s.current == 0 and 1 in GAME.active_players(t.s)
    assert not [x for x in t.legal(1) if x.startswith("plenty")]
    assert t.refuse("plenty 1wool+1ore", seat=1) == "catan_express.not_now"
    assert t.s.phase == "answer"


def test_the_random_bot_plays_progress_cards_before_the_roll_and_the_builder_still_rolls():
    t = seated()
    for card in ("monopoly", "year_of_plenty", "road_building"):
        t.deal_dev(0, card)
    kinds = {BOTS["random"].choose(GAME, t.s, 0, random.Random(k)).kind for k in range(60)}
    assert {"roll", "monopoly", "plenty", "roads"} <= kinds
    assert all(GAME.allows(t.s, 0, BOTS["random"].choose(GAME, t.s, 0, random.Random(k))) for k in range(60))
    assert BOTS["builder"].choose(GAME, t.s, 0, random.Random(1)).kind == "roll"


def test_largest_army_at_three_knights():
    # CE-B3: the first to 3 played knights takes Largest Army (2 VP).
    t = seated()
    t.deal_dev(0, "knight", 2, where="played")
    t.deal_dev(0, "knight")
    before = GAME.total(t.s, 0)
    t.to_main(8)
    t.play("knight C2")                     # C2 touches only seat 0's own 13: nobody to rob
    assert t.s.largest_army == 0 and GAME.total(t.s, 0) == before + 2
    assert find(t.s.last, "catan_express.ev.largest_army")


def test_largest_army_passes_only_on_strictly_more():
    # CE-B3: equalling the holder's knights is not enough; one more takes it.
    t = seated()
    t.deal_dev(0, "knight", 3, where="played")
    t.edit(lambda s: setattr(s, "largest_army", 0))
    t.to_main(8)
    t.end()
    t.deal_dev(1, "knight", 2, where="played")
    t.deal_dev(1, "knight", 2)
    t.to_main(8)
    t.play("knight E4")                     # E4 touches only seat 1's own 20 and 32
    assert t.p(1).knights == 3 and t.s.largest_army == 0
    t.end()
    for _ in range(3):
        t.to_main(8)
        t.end()
    assert t.who() == 1
    t.to_main(8)
    t.play("knight F4")
    assert t.p(1).knights == 4 and t.s.largest_army == 1
    assert GAME.points(t.s, 0)["largest_army"] == 0 and GAME.points(t.s, 1)["largest_army"] == 2
    assert find(t.s.last, "catan_express.ev.largest_army_passed")[0].params["from_seat"] == 0


def test_monopoly_takes_every_card_of_one_resource():
    t = seated()
    t.deal_dev(0, "monopoly")
    t.to_main(8)
    t.set_hand(0, ore=1)
    t.set_hand(1, ore=3, grain=1)
    t.set_hand(2, ore=1)
    t.set_hand(3, lumber=2)
    t.play("monopoly ore")
    assert t.hand(0) == cards(ore=5)
    assert t.hand(1) == cards(grain=1) and t.hand(2) == cards() and t.hand(3) == cards(lumber=2)


def test_year_of_plenty_takes_two_from_the_bank():
    t = seated()
    t.deal_dev(0, "year_of_plenty")
    t.to_main(8)
    t.set_hand(0)
    bank = list(t.s.bank)
    t.play("plenty 1brick+1ore")
    assert t.hand(0) == cards(brick=1, ore=1)
    assert t.s.bank == [bank[0], bank[1] - 1, bank[2], bank[3], bank[4] - 1]


def test_road_building_gives_two_free_pieces_that_still_pay_the_parallel_brick():
    # CE-2 / CE-B3: two rails or ferries without their cost; a parallel one still pays its
    # brick to the owner, and without a brick it cannot go there.
    t = seated()
    t.lay(1, ["18-C4"])                      # seat 1's rail on a spoke of seat 0's network
    t.deal_dev(0, "road_building")
    t.to_main(8)
    t.set_hand(0)
    t.play("roads")
    assert t.s.free_pieces == 2
    assert t.refuse("build rail 18-C4") == "catan_express.cannot_afford"   # free, but the brick is owed
    t.play("build rail 24-C4")
    assert t.hand(0) == cards() and t.s.free_pieces == 1
    t.set_hand(0, brick=1)
    t.set_hand(1)
    t.play("build rail 18-C4")
    assert t.hand(0) == cards() and t.hand(1) == cards(brick=1)
    assert t.s.free_pieces == 0 and t.s.pieces["18-C4"] == [1, 0]
    assert t.refuse("build rail 30-C4") == "catan_express.cannot_afford"   # the third one is paid again
    t.set_hand(0, lumber=1, ore=1)
    t.play("build rail 30-C4")
    assert t.hand(0) == cards()


# --- trading (CE-B5) ----------------------------------------------------------------------

def test_bank_trades_four_to_one_without_a_harbour():
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=4, brick=3)
    offered = {x for x in t.legal() if x.startswith("bank")}
    assert "bank 4lumber 1ore" in offered and not any(x.startswith("bank 3brick") for x in offered)
    assert t.refuse("bank 3brick 1ore") == "catan_express.trade_ratio"
    t.play("bank 4lumber 1ore")
    assert t.hand(0) == cards(brick=3, ore=1)


def test_harbours_need_a_building_on_them():
    # CE-B5: 3:1 at a generic harbour, 2:1 at a resource one, only with a settlement or city
    # on that harbour's intersections. Seat 2's 17 stands on a generic harbour; 1 and 4 are
    # the wool harbour's.
    t = seated()
    t.to_main(8)
    t.end()
    t.to_main(8)
    t.end()
    t.to_main(8)
    assert t.who() == 2
    assert GAME.harbours(t.s, 2) == {"generic"}
    t.set_hand(2, brick=3, wool=2)
    assert "bank 3brick 1ore" in t.legal()
    assert t.refuse("bank 2wool 1ore") == "catan_express.trade_ratio"
    t.put(1, 2)
    assert GAME.harbours(t.s, 2) == {"generic", "wool"}
    # the view says so too (the Discord look prints it as it stands): brick, lumber, wool, grain, ore
    assert [GAME.view(t.s, seat).seats[2].ratios for seat in (None, 2, 0)] == [[3, 3, 2, 3, 3]] * 3
    assert GAME.view(t.s, None).seats[0].ratios == [4, 4, 4, 4, 4]
    t.play("bank 2wool 1ore")
    t.play("bank 3brick 1grain")
    assert t.hand(2) == cards(grain=1, ore=1)
    assert GAME.harbours(t.s, 0) == set()


def _offering() -> Table:
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=2, brick=1)
    t.set_hand(1, ore=1)
    t.set_hand(2, ore=2, grain=1)
    t.set_hand(3, grain=3)                   # no ore: cannot accept
    t.play("offer 1lumber 1ore")
    assert t.s.phase == "answer"
    return t


def test_an_offer_may_be_on_any_terms_both_accept():
    # CE-B5: any counts both players accept (once capped at 1–3 cards for 1–2): 1 ore for 3
    # brick, then 4 ore for 1 brick.
    t = seated()
    t.to_main(8)
    t.set_hand(0, ore=5)
    t.set_hand(1, brick=4)
    t.set_hand(2)
    t.set_hand(3)
    menu = GAME.decision(t.s, 0)
    offer, = menu.groups  # one counted group, opened from the first step
    assert menu.walk(["offer"]).group == 0
    for text in ("offer 1ore 3brick", "offer 4ore 1brick", "offer 5ore 19grain"):
        assert offer.counts_of(text) is not None, text
    check_decisions(GAME, t.s)
    t.play("offer 1ore 3brick")
    t.play("accept", 1)
    t.play("refuse", 2)
    t.play("refuse", 3)
    t.play("trade @2")
    assert t.hand(0) == cards(brick=3, ore=4) and t.hand(1) == cards(brick=1, ore=1)
    t.play("offer 4ore 1brick")
    for seat in (1, 2, 3):
        t.play("accept" if seat == 1 else "refuse", seat)
    t.play("trade @2")
    assert t.hand(0) == cards(brick=4) and t.hand(1) == cards(ore=5)


def test_an_offers_terms_are_refused_only_for_gifts_cards_not_held_or_more_than_exist():
    t = seated()
    t.to_main(8)
    t.set_hand(0, ore=4, wool=1)
    assert t.refuse("offer 5ore 1brick") == "catan_express.not_held"
    assert t.refuse("offer 1ore+1wool 2ore") == "catan_express.trade_same_resource"   # a gift of the difference
    err = t.refusal("offer 1ore 20brick")                                   # 19 brick in a 4-player game
    assert err.code == "catan_express.offer_more_than_exist" and err.params["cards"] == Hand.of(brick=19).param()
    for lang in ("en", "ja"):
        for code in ("catan_express.offer_more_than_exist", "catan_express.not_held", "catan_express.trade_same_resource", "catan_express.trade_gift"):
            assert translate(lang, message_key_of(code)) != message_key_of(code)
    t.play("offer 4ore+1wool 19brick")                                    # any terms, however unlikely


def test_an_offer_is_no_gift():
    # CE-B5: both sides give something.
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=2)
    for bad in (Propose(give=(1, 0, 0, 0, 0), get=(0, 0, 0, 0, 0)), Propose(give=(0, 0, 0, 0, 0), get=(0, 0, 0, 0, 1)),
                Propose(give=(1, 0, 0, 0, 0), get=(1, 0, 0, 0, 0))):
        before = t.s.model_dump_json()
        with pytest.raises(IllegalAction):
            GAME.apply(t.s, 0, bad)
        assert t.s.model_dump_json() == before
    assert all(sum(a.get) and sum(a.give) for a in GAME.legal_actions(t.s, 0) if a.kind == "offer")


@pytest.mark.parametrize("order", list(itertools.permutations([1, 2, 3])))
def test_others_answer_an_offer_in_any_order(order):
    t = _offering()
    answers = {1: "accept", 2: "accept", 3: "refuse"}
    for k, seat in enumerate(order):
        # once someone accepted, the offerer may pick too (CE-B5: the offer never holds the game)
        accepted = any(answers[s] == "accept" for s in order[:k])
        assert GAME.active_players(t.s) == set(order[k:]) | ({0} if accepted else set())
        t.play(answers[seat], seat)
    assert t.s.phase == "pick" and GAME.acceptors(t.s) == [1, 2]
    assert sorted(t.legal(0)) == ["trade @2", "trade @3", "withdraw"]


def test_a_seat_that_cannot_pay_cannot_accept():
    t = _offering()
    assert t.legal(3) == ["refuse"]
    assert t.refuse("accept", 3) == "catan_express.cannot_accept"
    assert sorted(t.legal(1)) == ["accept", "refuse"]


def test_answers_stay_hidden_from_the_other_answerers():
    # CE-B5 / CE-12: the answers are secret and simultaneous; each has its own menu key. Only
    # the offerer sees them before the offer closes: they may pick as soon as one accepts.
    t = _offering()
    keys = {s: GAME.decision(t.s, s).key for s in (1, 2, 3)}
    assert len(set(keys.values())) == 3 and all(GAME.decision(t.s, s).secret for s in (1, 2, 3))
    t.play("accept", 2)
    for viewer in (None, 1, 3):
        assert GAME.view(t.s, viewer).state.offer.answers == {} and GAME.view(t.s, viewer).accepted == []
    assert GAME.view(t.s, 2).state.offer.answers == {2: True}
    assert GAME.view(t.s, 0).state.offer.answers == {2: True} and GAME.view(t.s, 0).accepted == [2]
    assert all("accept" not in e.params for e in t.s.last)
    t.play("refuse", 3)
    assert GAME.view(t.s, 1).state.offer.answers == {}
    assert GAME.view(t.s, 0).state.offer.answers == {2: True, 3: False}
    t.play("accept", 1)
    shown = GAME.view(t.s, 3)
    assert shown.state.offer.answers == {1: True, 2: True, 3: False} and shown.accepted == [1, 2]
    answers = find(t.s.last, "catan_express.ev.answers")[0].params
    assert answers == {"accepted_seats": [1, 2], "refused_seats": [3], "accepted_count": 2, "refused_count": 1}


def test_only_an_acceptor_can_be_picked():
    t = _offering()
    t.play("accept", 2)
    t.play("refuse", 1)
    t.play("refuse", 3)
    assert t.refuse("trade @2") == "catan_express.not_an_acceptor"     # seat 1 refused
    assert t.refuse("trade @4") == "catan_express.not_an_acceptor"
    with pytest.raises(IllegalAction):
        GAME.apply(t.s, 0, Partner(seat=0))
    t.play("trade @3")
    assert t.hand(0) == cards(lumber=1, brick=1, ore=1) and t.hand(2) == cards(lumber=1, ore=1, grain=1)
    assert t.s.phase == "main" and t.s.offer is None


def test_an_offer_can_be_withdrawn_and_all_refusals_close_it():
    t = _offering()
    for seat in (1, 2):
        t.play("accept", seat)
    t.play("refuse", 3)
    hands = [t.hand(s) for s in range(4)]
    t.play("withdraw")
    assert [t.hand(s) for s in range(4)] == hands and t.s.phase == "main" and t.s.offer is None
    t.play("offer 1brick 1grain")
    for seat in (1, 2, 3):
        t.play("refuse", seat)
    assert t.s.phase == "main" and t.s.offer is None


def test_the_offerer_may_pick_as_soon_as_one_has_accepted():
    # CE-B5 (the offer never holds the game): a refusal leaves the offerer waiting; the first
    # acceptance lets them trade at once while the others may still answer, and picking closes
    # the answers still to come.
    t = _offering()
    assert GAME.active_players(t.s) == {1, 2, 3} and t.refuse("withdraw", 0) == "not_active"
    t.play("refuse", 3)
    assert GAME.active_players(t.s) == {1, 2}
    t.play("accept", 2)
    assert GAME.active_players(t.s) == {0, 1} and t.s.phase == "answer"
    assert sorted(t.legal(0)) == ["trade @3", "withdraw"] and sorted(t.legal(1)) == ["accept", "refuse"]
    assert t.refuse("trade @2", 0) == "catan_express.not_an_acceptor"   # seat 1 has not answered yet
    assert t.refuse("accept", 0) == "catan_express.not_now" and t.refuse("trade @3", 1) == "catan_express.not_now"
    menu = GAME.decision(t.s, 0)
    assert not menu.secret and menu.key is None  # the offerer's menu grows with every acceptance
    prompt = GAME.prompt(t.s, 0)
    assert prompt.key == "catan_express.ask.pick_early" and prompt.params == {"seats": [2], "waiting_seats": [1]}
    check_decisions(GAME, t.s)
    result = t.play("trade @3", 0)
    closed, = find(result.events, "catan_express.ev.answers_closed")
    assert closed.params == {"accepted_seats": [2], "refused_seats": [3], "refused_count": 1, "open_seats": [1]}
    assert find(result.events, "catan_express.ev.traded")
    assert t.s.phase == "main" and t.s.offer is None and GAME.active_players(t.s) == {0}
    assert t.hand(0) == cards(lumber=1, brick=1, ore=1) and t.hand(2) == cards(lumber=1, ore=1, grain=1)
    assert t.refuse("accept", 1) == "not_active"   # the answer that did not come is closed


def test_an_offer_withdrawn_before_everyone_answered_closes_their_answers():
    t = _offering()
    t.play("accept", 1)
    hands = [t.hand(s) for s in range(4)]
    result = t.play("withdraw", 0)
    assert find(result.events, "catan_express.ev.answers_closed")[0].params["open_seats"] == [2, 3]
    assert find(result.events, "catan_express.ev.offer_withdrawn")
    assert [t.hand(s) for s in range(4)] == hands and t.s.phase == "main" and GAME.active_players(t.s) == {0}
    assert translate("en", "catan_express.ev.answers_closed", result.events[0].params, ["A", "B", "C", "D"]) == \
        "Accepted by B. The offer closed before C, D answered."


def test_an_answer_nobody_gives_lapses_as_a_refusal():
    # The platform makes `lapse_action` for a seat still waited on when the game's reminder
    # delay has passed: an unanswered answer is a refusal, the same for every hand.
    t = _offering()
    assert {s: GAME.lapse_action(t.s, s) for s in range(4)} == {0: None, 1: Answer(accept=False),
                                                               2: Answer(accept=False), 3: Answer(accept=False)}
    t.play("accept", 1)
    assert {s: GAME.lapse_action(t.s, s) for s in range(4)} == {0: None, 1: None, 2: Answer(accept=False),
                                                               3: Answer(accept=False)}
    for seat in (2, 3):
        GAME.apply(t.s, seat, GAME.lapse_action(t.s, seat))  # legal: a refusal is always allowed
        t.play("refuse", seat)
    assert t.s.phase == "pick" and all(GAME.lapse_action(t.s, s) is None for s in range(4))
    t.play("withdraw")
    assert all(GAME.lapse_action(t.s, s) is None for s in range(4))
    # nobody answering at all: the lapses close the offer as refused
    t.play("offer 1brick 1grain")
    for seat in (1, 2, 3):
        t.play(GAME.format_action(GAME.lapse_action(t.s, seat)), seat)
    assert t.s.phase == "main" and t.s.offer is None and find(t.s.last, "catan_express.ev.answers")[0].params["accepted_count"] == 0


def test_an_offerer_waited_on_is_never_forced_and_times_out_by_withdrawing():
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=1)
    t.set_hand(1, ore=4)
    t.set_hand(2, ore=4)
    t.set_hand(3)
    t.play("offer 1lumber 4ore")
    assert GAME.forced_action(t.s, 3) == Answer(accept=False)   # no cards: its refusal is made for it
    t.play("accept", 1)
    # the offerer holds one card, fewer than the offer asks: still theirs to decide
    assert GAME.forced_action(t.s, 0) is None and GAME.lapse_action(t.s, 0) is None
    assert GAME.timeout_action(t.s, 0) == Partner() and GAME.timeout_action(t.s, 2) == Answer(accept=False)


# --- the special building phase (CE-B7) ---------------------------------------------------

def test_five_players_get_a_special_building_phase():
    # CE-B7: after each turn the others, in order, may build and buy — no trade, no cards.
    t = Table(5, seed=3)
    t.seat_any()
    t.to_main(8)
    t.deal_dev(1, "monopoly")
    t.set_hand(1, lumber=5, brick=1, wool=2, grain=2, ore=1)
    t.play("end")
    assert t.s.phase == "special" and t.s.special_queue == [1, 2, 3, 4]
    assert GAME.active_players(t.s) == {1}
    kinds = {a.kind for a in GAME.legal_actions(t.s, 1)}
    assert kinds <= {"build", "buy", "end"} and {"build", "buy", "end"} <= kinds
    assert t.refuse("bank 4lumber 1ore") == "catan_express.not_now"
    assert t.refuse("monopoly ore") == "catan_express.not_now"
    assert t.refuse("offer 1lumber 1ore") == "catan_express.not_now"
    assert t.refuse("roll") in ("catan_express.not_now", "catan_express.already_rolled")
    spot = next(x for x in t.legal() if x.startswith("build settlement"))
    t.play(spot)
    t.play("buy")
    assert t.hand(1) == cards(lumber=4)
    for seat in (1, 2, 3, 4):
        assert t.who() == seat
        t.play("end")
    assert t.s.phase == "roll" and t.s.current == 1


@pytest.mark.parametrize("n", [3, 4])
def test_three_or_four_players_have_no_special_building_phase(n):
    t = Table(n, seed=3)
    t.seat_any()
    t.to_main(8)
    t.play("end")
    assert t.s.phase == "roll" and t.s.current == 1


# --- rails and ferries (CE-2) -------------------------------------------------------------

def test_a_rail_costs_lumber_and_ore():
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=1, ore=1, wool=1)
    bank = list(t.s.bank)
    t.play("build rail 18-C4")
    assert t.hand(0) == cards(wool=1) and t.s.bank == [bank[0] + 1, bank[1], bank[2], bank[3], bank[4] + 1]
    assert t.s.pieces["18-C4"] == [0]
    assert t.refuse("build rail 24-C4") == "catan_express.cannot_afford"


def test_a_ferry_costs_lumber_and_wool_and_runs_along_the_coast():
    # CE-1 / CE-2: a ferry on a coast edge, joined to the network at an intersection.
    t = seated()
    t.to_main(8)
    t.end()
    t.to_main(8)
    t.end()
    t.to_main(8)
    assert t.who() == 2
    t.set_hand(2, lumber=2, ore=1, wool=1)
    assert not [x for x in t.legal() if x.startswith("build ferry")]   # D6's corners 49, 53 not yet reached
    t.play("build rail 49-D6")
    assert "build ferry 49-52" in t.legal() and "build ferry 49-53" in t.legal()
    t.play("build ferry 49-53")
    assert t.hand(2) == cards() and t.s.pieces["49-53"] == [2]
    assert t.refuse("build ferry 45-49") == "catan_express.unknown_piece"           # an inland edge


def test_a_piece_must_touch_the_builders_own_network():
    # CE-2: the builder's rails and ferries; buildings alone do not count, nor others' lines.
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=3, ore=3)
    assert t.refuse("build rail 13-C3") == "catan_express.piece_not_connected"      # own first settlement
    assert t.refuse("build rail 14-D3") == "catan_express.piece_not_connected"      # seat 3's line at D3
    assert not [x for x in t.legal() if x in ("build rail 13-C3", "build rail 14-D3")]
    t.play("build rail 24-C4")
    t.play("build rail 24-C3")                                          # now C3 is reached
    t.play("build rail 13-C3")


def test_a_parallel_piece_pays_a_brick_to_each_owner():
    # CE-2, the rulebook's figure: building beside red and white costs the rail plus a brick
    # to each of them.
    t = seated()
    t.lay(1, ["18-C4"])
    t.lay(2, ["18-C4"])
    t.to_main(8)
    t.set_hand(0, lumber=1, ore=1, brick=2)
    t.set_hand(1)
    t.set_hand(2)
    menu = GAME.decision(t.s, 0)
    assert menu.holds("build rail 18-C4")
    t.play("build rail 18-C4")
    assert t.hand(0) == cards() and t.hand(1) == cards(brick=1) and t.hand(2) == cards(brick=1)
    assert t.s.pieces["18-C4"] == [1, 2, 0]
    assert find(t.s.last, "catan_express.ev.built_parallel")


def test_a_parallel_piece_without_the_brick_is_refused():
    t = seated()
    t.lay(1, ["18-C4"])
    t.lay(2, ["18-C4"])
    t.to_main(8)
    t.set_hand(0, lumber=1, ore=1, brick=1)                # one brick for two owners
    assert "build rail 18-C4" not in t.legal()
    assert t.refuse("build rail 18-C4") == "catan_express.cannot_afford"
    assert "build rail 24-C4" in t.legal()


def test_no_second_piece_of_ones_own_on_a_spoke():
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=2, ore=2, brick=2)
    assert t.refuse("build rail 35-C4") == "catan_express.piece_yours"


# --- settlements and cities (CE-4) --------------------------------------------------------

def test_a_settlement_goes_anywhere_free_and_untouched():
    # CE-4: it need not touch the builder's network; the distance rule holds; no rail or
    # ferry (anyone's) may touch the intersection.
    t = seated()
    t.lay(1, ["43-E5"])
    t.to_main(8)
    t.set_hand(0, lumber=3, brick=3, wool=3, grain=3)
    assert t.refuse("build settlement 43") == "catan_express.settlement_touched"   # seat 1's rail ends there
    assert t.refuse("build settlement 37") == "catan_express.distance_rule"        # next to 32 and 42
    assert t.refuse("build settlement 42") == "catan_express.point_taken"
    offered = {int(x.split()[-1]) for x in t.legal() if x.startswith("build settlement")}
    assert 3 in offered and 43 not in offered and 37 not in offered
    t.play("build settlement 3")                                        # far from seat 0's lines
    assert t.hand(0) == cards(lumber=2, brick=2, wool=2, grain=2)
    assert t.s.buildings[3].seat == 0


def test_a_city_needs_a_rail_or_ferry_at_the_settlement():
    # CE-4: a city only on one's own settlement that a rail or ferry (anyone's) touches.
    t = seated()
    t.to_main(8)
    t.set_hand(0, grain=4, ore=6)
    assert t.refuse("build city 13") == "catan_express.city_needs_rail"            # the first settlement
    assert t.refuse("build city 20") == "catan_express.city_needs_settlement"      # seat 1's
    assert "build city 35" in t.legal() and "build city 13" not in t.legal()
    t.lay(2, ["13-B3"])                                                 # someone else's rail
    assert "build city 13" in t.legal()
    t.play("build city 13")
    t.play("build city 35")
    assert t.s.buildings[13].kind == "city" and GAME.points(t.s, 0)["cities"] == 4


def test_two_cities_before_the_race_four_after():
    # CE-4 / rulebook 3a: two cities each until the race begins, then two more.
    t = seated()
    t.lay(0, ["13-C3"])
    t.put(3, 0)
    t.lay(0, ["3-E2"])
    t.to_main(8)
    t.set_hand(0, grain=8, ore=12)
    t.play("build city 13")
    t.play("build city 35")
    assert t.refuse("build city 3") == "catan_express.city_cap"
    assert not [x for x in t.legal() if x.startswith("build city")]
    t.edit(lambda s: (setattr(s, "race", True), setattr(s, "starter", 0)))
    t.play("build city 3")
    assert sum(1 for b in t.s.buildings.values() if b.seat == 0 and b.kind == "city") == 3


# --- victory point chips (CE-5) -----------------------------------------------------------

def test_a_chip_for_the_first_touch_of_each_others_building():
    # CE-5: once per building for each player.
    t = seated()
    t.to_main(8)
    t.end()
    t.to_main(8)
    t.set_hand(1, lumber=3, ore=3)
    before = GAME.total(t.s, 1)
    t.play("build rail 42-E5")                 # seat 3's first settlement
    assert t.p(1).chips == ["touch:42"] and GAME.total(t.s, 1) == before + 1
    assert find(t.s.last, "catan_express.ev.chip_touch")[0].params == {"seat": 1, "owner_seat": 3, "at": "42"}
    t.play("build rail 42-E6")                 # the same building again
    assert t.p(1).chips == ["touch:42"]
    t.play("build rail 37-E5")                 # nobody's building
    assert t.p(1).chips == ["touch:42"]


def test_a_chip_for_the_first_join_of_two_networks_once_per_pair():
    # CE-5: to the player whose piece joined them, once per pair of players; a touch of the
    # same building by another player is that player's own chip.
    t = seated()
    t.lay(1, ["42-E5"])
    t.edit(lambda s: s.players[1].chips.append("touch:42"))   # as if seat 1 had built it
    t.lay(0, ["37-D5"])
    t.to_main(8)
    t.set_hand(0, lumber=2, ore=2)
    t.play("build rail 42-D5")                 # touches 42 (seat 3) and meets seat 1's line at 42
    assert sorted(t.p(0).chips) == ["join:1", "touch:42"]
    assert find(t.s.last, "catan_express.ev.chip_join")[0].params == {"seat": 0, "other_seat": 1}
    t.end()
    t.to_main(8)
    t.set_hand(1, lumber=2, ore=2, brick=1)
    t.play("build rail 37-E5")                 # meets seat 0's line at 37: the pair has its chip
    assert t.p(1).chips == ["touch:42"] and not find(t.s.last, "catan_express.ev.chip_join")
    t.play("build rail 42-D5")                 # beside seat 0's own piece: still no chip
    assert t.p(1).chips == ["touch:42"] and t.s.pieces["42-D5"] == [0, 1]


# --- the winner (CE-10) -------------------------------------------------------------------

def _finished(race_winner, starter):
    """A finished 4-player game in which every seat has the same points."""
    t = seated()
    t.edit(lambda s: (setattr(s, "phase", "over"), setattr(s, "race", True),
                      setattr(s, "starter", starter), setattr(s, "race_winner", race_winner)))
    totals = [GAME.total(t.s, s) for s in range(4)]
    assert len(set(totals)) == 1
    return t


def test_ties_go_to_the_race_winner_first():
    # CE-10: equal points: the race winner, then the starter, then clockwise from the starter.
    t = _finished(race_winner=3, starter=1)
    result = GAME.result(t.s)
    assert [p.seat for p in result.players] == [3, 1, 2, 0]
    # what put each of them ahead of the next travels with the result
    assert [(x.above, x.below, x.key) for x in result.ties] == [
        (3, 1, "catan_express.tie.race_winner"), (1, 2, "catan_express.tie.starter"), (2, 0, "catan_express.tie.clockwise")]
    assert result.ties[-1].words()["from_seat"] == 1


def test_ties_without_the_race_winner_go_to_the_starter_then_clockwise():
    t = _finished(race_winner=None, starter=2)
    result = GAME.result(t.s)
    assert [p.seat for p in result.players] == [2, 3, 0, 1]
    assert [x.key for x in result.ties] == ["catan_express.tie.starter", "catan_express.tie.clockwise", "catan_express.tie.clockwise"]


def test_ties_before_any_race_follow_the_turn_order():
    t = _finished(race_winner=None, starter=None)
    result = GAME.result(t.s)
    assert [p.seat for p in result.players] == [0, 1, 2, 3]
    assert {x.key for x in result.ties} == {"catan_express.tie.seat_order"}


def test_points_outrank_the_tie_breaks():
    t = _finished(race_winner=3, starter=1)
    t.deal_dev(0, "victory_point", where="vp")
    result = GAME.result(t.s)
    assert [p.seat for p in result.players] == [0, 3, 1, 2]
    assert [p.rank for p in result.players] == [1, 2, 3, 4]
    assert result.players[0].total == result.players[1].total + 1
    assert [(x.above, x.below) for x in result.ties] == [(3, 1), (1, 2)]  # seat 0 is alone on its total


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "", "fly", "build", "build tower 12", "build rail", "robber", "discard 2gold", "discard 0lumber",
    "discard 1lumber+1lumber", "bank 4lumber", "offer 1lumber", "trade @0", "trade 2", "ride", "ride 12@0:ore",
    "ride 12@2:sand", "stop x", "roll now", "monopoly sand", "plenty", "knight", "accept please", "gold ore",
])
def test_garbage_is_unparsable(text):
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action(text)
    assert err.value.code == "unparsable"


def test_moves_out_of_turn_are_refused():
    t = seated()
    err = t.refusal("roll", 1)
    assert err.code == "not_active" and err.params["waiting"] == [0]
    t.to_main(8)
    assert t.refuse("end", 2) == "not_active"
    assert t.refuse("build rail 32-E4", 1) == "not_active"


def test_moves_in_the_wrong_phase_are_refused():
    t = seated()
    assert t.refuse("end") == "catan_express.roll_first"
    assert t.refuse("build rail 18-C4") == "catan_express.roll_first"
    t.to_main(8)
    assert t.refuse("roll") == "catan_express.already_rolled"
    assert t.refuse("accept") == "catan_express.not_now"
    assert t.refuse("ride C4") == "catan_express.race_not_started"
    assert t.refuse("stop 13") == "catan_express.not_now"


def test_unknown_places_are_refused():
    t = seated()
    t.to_main(8)
    t.set_hand(0, lumber=3, brick=3, wool=3, grain=3, ore=3)
    assert t.refuse("build settlement 99") == "catan_express.unknown_point"
    assert t.refuse("build rail 35-Z9") == "catan_express.unknown_piece"
    assert t.refuse("build rail 35-36") == "catan_express.unknown_piece"          # an edge is no spoke
    assert t.refuse("build ferry 35-C4") == "catan_express.unknown_piece"


# --- refusals that say what is wrong ------------------------------------------------------

def test_an_unaffordable_development_card_names_what_is_short():
    # CE-B2: ore + wool + grain; holding one ore, the player lacks the wool and the grain.
    t = seated()
    t.to_main(8)
    t.set_hand(0, ore=1)
    err = t.refusal("buy")
    assert err.code == "catan_express.cannot_afford"
    assert err.params["short"] == Hand.of(wool=1, grain=1).param()
    assert translate("en", message_key_of(err.code), err.params).endswith("short of 1 wool, 1 grain.")


def test_a_wrong_number_of_gold_cards_says_how_many():
    # CE-B1: one gold river next to a settlement gives one card; asking for two is refused
    # with the count owed (the catalog's "catan_express.error.gold_count").
    t = Table(3, seed=2)
    for point in (13, 42, 35, 24):
        t.play(f"build settlement {point}")
    t.play("build rail 24-C4")
    t.play("build settlement 11")
    err = t.refusal("gold 2ore")
    assert (err.code, err.params.get("count")) == ("catan_express.gold_count", 1)


def test_a_wrong_number_of_plenty_cards_says_how_many():
    # CE-B3: Year of Plenty takes two cards (the catalog's "catan_express.error.plenty_count").
    t = seated()
    t.deal_dev(0, "year_of_plenty")
    t.to_main(8)
    err = t.refusal("plenty 3ore")
    assert (err.code, err.params.get("count")) == ("catan_express.plenty_count", 2)
