"""Catan Express's components, resource cards and development cards (CE-B1 … CE-B5, CE-2, CE-4 …
CE-9): the components file against the rulings, paying with the parallel fee, production with the
bank shortage rule and the gold river, the 7, trades, the development deck and its play rules,
Largest Army, and conservation of every resource card through random sequences."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from games.core.errors import message_key_of
from games.core.errors import DataError, IllegalAction
from games.core.hexgrid import Hex
from games.core.i18n import catalog, translate
from games.core.rng import SeededRng
from games.catan_express import cards as cards_mod, economy as economy_mod
from games.catan_express.cards import (
    PlayerCards, buy, deck_for, draw, largest_army, monopoly, road_building_pieces, shuffled_deck,
    year_of_plenty,
)
from games.catan_express.components import (
    COMPONENTS_PATH, RESOURCES, DevCard, Resource, components, load_components,
)
from games.catan_express.economy import (
    Hand, Holdings, bank_trade, build_price, discard, discards_due, distribute, give, pay, pay_build,
    player_trade, production, rob, robbable, take_gold, trade_ratio,
)

A, B, C, D = range(4)
H1, H2, H3, H4 = Hex(0, 0), Hex(1, 0), Hex(0, 1), Hex(-1, 1)


def holdings(players: int = 4, **hands: Hand) -> Holdings:
    """A game's cards with the given hands (keys a, b, c, d) dealt from a full bank."""
    h = Holdings.start(players)
    for name, hand in hands.items():
        seat = "abcdef".index(name)
        h = Holdings(h.bank - hand, tuple(hand if s == seat else x for s, x in enumerate(h.hands)))
    return h


def codes(exc: pytest.ExceptionInfo) -> str:
    return exc.value.code


# --- the components file ------------------------------------------------------------------

def test_components_match_the_rulings():
    c = components()
    assert [r.value for r in RESOURCES] == ["lumber", "brick", "wool", "grain", "ore"]
    assert {t: c.yields(t) for t in ("forest", "hills", "pasture", "fields", "mountains", "desert")} == {
        "forest": "lumber", "hills": "brick", "pasture": "wool", "fields": "grain", "mountains": "ore", "desert": None}
    assert c.yields("gold_river") == "choice"
    assert [c.bank_size(n) for n in (3, 4, 5, 6)] == [19, 19, 24, 24]
    assert Hand.of(c.cost("settlement")) == Hand.of(lumber=1, brick=1, wool=1, grain=1)
    assert Hand.of(c.cost("city")) == Hand.of(grain=2, ore=3)
    assert Hand.of(c.cost("development_card")) == Hand.of(ore=1, wool=1, grain=1)
    assert Hand.of(c.cost("rail")) == Hand.of(lumber=1, ore=1)
    assert Hand.of(c.cost("ferry")) == Hand.of(lumber=1, wool=1)
    assert Hand.of(c.parallel_fee_per_owner) == Hand.of(brick=1)
    assert c.pieces_per_player == {"settlement": 5, "city": 4, "rail": 15, "ferry": 8}
    assert (c.largest_army.knights, c.largest_army.points) == (3, 2)
    assert (c.points.victory_point_chip, c.points.fastest_driver, c.points.water_tower) == (1, 1, 1)
    assert (c.cities_before_race, c.cities_added_at_race, c.race_start_points) == (2, 2, 8)
    assert [c.stop_rounds[n] for n in (3, 4, 5, 6)] == [2, 1, 1, 1]
    assert (c.bank_trade.plain, c.bank_trade.generic_harbour, c.bank_trade.resource_harbour) == (4, 3, 2)
    assert (c.robber_roll, c.discard_over, c.road_building_pieces, c.year_of_plenty_cards) == (7, 7, 2, 2)


@pytest.mark.parametrize("players, size, split", [
    (3, 25, (14, 5, 2, 2, 2)), (4, 25, (14, 5, 2, 2, 2)), (5, 34, (20, 5, 3, 3, 3)), (6, 34, (20, 5, 3, 3, 3)),
])
def test_deck_counts_by_player_count(players, size, split):
    deck = deck_for(players)
    assert len(deck) == size
    assert tuple(deck.count(k) for k in (DevCard.KNIGHT, DevCard.VICTORY_POINT, DevCard.ROAD_BUILDING,
                                         DevCard.YEAR_OF_PLENTY, DevCard.MONOPOLY)) == split
    shuffled = shuffled_deck(players, seed=7, counter=0)
    assert sorted(shuffled) == sorted(deck)
    assert shuffled == shuffled_deck(players, seed=7, counter=0)
    assert shuffled != shuffled_deck(players, seed=8, counter=0)


def _write(tmp_path: Path, change) -> Path:
    data = json.loads(COMPONENTS_PATH.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "components.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("change", [
    lambda d: d["resources"].reverse(),
    lambda d: d["resources"].append("gold"),
    lambda d: d["bank_per_resource"].pop("5"),
    lambda d: d["stop_rounds"].__setitem__("7", 1),
    lambda d: d["development_decks"].pop(),
    lambda d: d["development_decks"][0]["cards"].pop("monopoly"),
    lambda d: d["development_decks"][1]["cards"].__setitem__("knight", 0),
    lambda d: d["costs"].pop("ferry"),
    lambda d: d["costs"]["rail"].__setitem__("ore", 0),
    lambda d: d["costs"]["rail"].__setitem__("steel", 1),
    lambda d: d["parallel_fee_per_owner"].clear(),
    lambda d: d["pieces_per_player"].pop("ferry"),
    lambda d: d["terrains"].__setitem__("mountains", None),
    lambda d: d.__setitem__("cities_before_race", 3),
    lambda d: d["bank_trade"].__setitem__("generic_harbour", 4),
    lambda d: d.__setitem__("surprise", 1),
])
def test_a_broken_components_file_is_refused(tmp_path, change):
    with pytest.raises(DataError, match="Catan Express components"):
        load_components(_write(tmp_path, change))


def test_unreadable_components_file_is_refused(tmp_path):
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    for path in (tmp_path / "bad.json", tmp_path / "missing.json"):
        with pytest.raises(DataError, match=re.escape(str(path))):
            load_components(path)


# --- hands and the bank -------------------------------------------------------------------

def test_hands_never_go_negative():
    with pytest.raises(ValueError):
        Hand((0, 0, -1, 0, 0))
    with pytest.raises(ValueError):
        Hand.of(ore=1) - Hand.of(grain=1)
    assert Hand.of(ore=2, lumber=1).cards() == (Resource.LUMBER, Resource.ORE, Resource.ORE)


@pytest.mark.parametrize("players, each", [(3, 19), (4, 19), (5, 24), (6, 24)])
def test_the_bank_starts_full_and_hands_empty(players, each):
    h = Holdings.start(players)
    assert h.bank == Hand.each(each) and len(h.hands) == players and not any(h.hands)


@pytest.mark.parametrize("players", [2, 7])
def test_player_counts_outside_three_to_six_are_refused(players):
    for start in (Holdings.start, deck_for):
        with pytest.raises(IllegalAction) as exc:
            start(players)
        assert codes(exc) == "catan_express.bad_player_count"


# --- paying, with the parallel fee (CE-2) -------------------------------------------------

def test_a_rail_costs_lumber_and_ore_to_the_bank():
    h = holdings(a=Hand.of(lumber=2, ore=1, wool=1))
    out = pay_build(h, A, "rail")
    assert out.holdings.hand(A) == Hand.of(lumber=1, wool=1)
    assert out.holdings.bank == h.bank + Hand.of(lumber=1, ore=1)


def test_rulebook_blue_pays_red_and_white_a_brick_each_to_build_beside_them():
    """Rulebook p.34: Blue builds a rail where Red and White have rails: lumber + ore and a
    brick to each of them."""
    blue, red, white = A, B, C
    h = holdings(a=Hand.of(lumber=1, ore=1, brick=2))
    out = pay_build(h, blue, "rail", parallel_owners=[red, white])
    assert out.holdings.hand(blue) == Hand()
    assert out.holdings.hand(red) == Hand.of(brick=1) and out.holdings.hand(white) == Hand.of(brick=1)
    assert out.holdings.bank == h.bank + Hand.of(lumber=1, ore=1)
    assert build_price("rail", [red, white]) == Hand.of(lumber=1, ore=1, brick=2)


def test_without_a_brick_for_every_owner_there_is_no_parallel_build():
    h = holdings(a=Hand.of(lumber=1, wool=1, brick=1))
    with pytest.raises(IllegalAction) as exc:
        pay_build(h, A, "ferry", parallel_owners=[B, C])
    assert codes(exc) == "catan_express.parallel_fee_short"
    with pytest.raises(IllegalAction) as exc:
        pay_build(holdings(a=Hand.of(lumber=1, brick=3)), A, "ferry", parallel_owners=[B])
    assert codes(exc) == "catan_express.cannot_afford"
    with pytest.raises(IllegalAction) as exc:
        pay_build(holdings(a=Hand.of(lumber=1, ore=1, brick=1)), A, "rail", parallel_owners=[A])
    assert codes(exc) == "catan_express.parallel_own_piece"


def test_road_building_waives_the_cost_but_not_the_owners_brick():
    h = holdings(a=Hand.of(brick=1))
    out = pay_build(h, A, "rail", free=True, parallel_owners=[D])
    assert out.holdings.hand(A) == Hand() and out.holdings.hand(D) == Hand.of(brick=1)
    assert pay_build(holdings(), A, "ferry", free=True).holdings == holdings()


def test_refusals_when_short_name_what_is_missing():
    with pytest.raises(IllegalAction) as exc:
        pay(holdings(a=Hand.of(grain=2, ore=1)), A, Hand.of(grain=2, ore=3), reason="city")
    assert exc.value.code == "catan_express.cannot_afford"
    assert translate("en", exc.value.message_key, exc.value.params) == \
        "That costs 2 grain, 3 ore; you are short of 2 ore."
    with pytest.raises(IllegalAction) as exc:
        give(holdings(a=Hand.of(ore=1)), A, A, Hand.of(ore=1), reason="fare")
    assert codes(exc) == "catan_express.pay_self"


# --- production (CE-B1, CE-B4) ------------------------------------------------------------

TOKENS = {H1: 8, H2: 8, H3: 5, H4: 8}
TERRAINS = {H1: "forest", H2: "gold_river", H3: "mountains", H4: "desert"}


def test_settlements_give_one_cities_two_and_gold_owes_a_choice():
    buildings = {H1: [(A, "settlement"), (B, "city")], H2: [(A, "city"), (C, "settlement")],
                 H3: [(D, "city")], H4: [(D, "settlement")]}
    p = production(8, TOKENS, TERRAINS, None, buildings)
    assert p.owed == {A: Hand.of(lumber=1), B: Hand.of(lumber=2)}
    assert p.gold == {A: 2, C: 1}
    assert production(5, TOKENS, TERRAINS, None, buildings).owed == {D: Hand.of(ore=2)}


def test_the_robbers_hex_and_a_seven_produce_nothing():
    buildings = {H1: [(A, "settlement")], H2: [(B, "city")]}
    p = production(8, TOKENS, TERRAINS, H1, buildings)
    assert p.owed == {} and p.gold == {B: 2}
    p = production(7, {H1: 7}, TERRAINS, None, buildings)
    assert p.owed == {} and p.gold == {}


def test_shortage_everyone_paid_when_the_bank_can():
    h = Holdings(Hand.of(ore=5), (Hand(),) * 3)
    out = distribute(h, {A: Hand.of(ore=2), B: Hand.of(ore=3)})
    assert [out.holdings.hand(s)["ore"] for s in (A, B)] == [2, 3] and out.holdings.bank["ore"] == 0


def test_shortage_nobody_paid_when_several_are_owed_more_than_the_bank_has():
    h = Holdings(Hand.of(ore=4, grain=3), (Hand(),) * 3)
    out = distribute(h, {A: Hand.of(ore=2, grain=1), B: Hand.of(ore=3)})
    assert out.holdings.hand(A) == Hand.of(grain=1) and out.holdings.hand(B) == Hand()
    assert out.holdings.bank == Hand.of(ore=4, grain=2)
    assert [e.key for e in out.events] == ["catan_express.ev.produced", "catan_express.ev.shortage"]
    assert translate("en", out.events[1].key, out.events[1].params, ["Ann", "Bob"]) == \
        "The bank has only 4 ore, not the 5 owed; nobody receives ore (Ann, Bob)."


def test_shortage_a_single_player_owed_takes_what_is_left():
    h = Holdings(Hand.of(ore=1), (Hand(),) * 3)
    out = distribute(h, {C: Hand.of(ore=2)})
    assert out.holdings.hand(C) == Hand.of(ore=1) and out.holdings.bank == Hand()
    assert out.events[-1].key == "catan_express.ev.shortage_partial"


def test_gold_is_chosen_from_what_the_bank_still_holds():
    h = Holdings(Hand.of(ore=1, wool=5), (Hand(),) * 3)
    out = take_gold(h, B, Hand.of(ore=1, wool=1), 2)
    assert out.holdings.hand(B) == Hand.of(ore=1, wool=1)
    for picks, code in ((Hand.of(ore=2), "catan_express.bank_short"), (Hand.of(wool=1), "catan_express.gold_count")):
        with pytest.raises(IllegalAction) as exc:
            take_gold(h, B, picks, 2)
        assert codes(exc) == code
    nearly_empty = Holdings(Hand.of(grain=1), (Hand(),) * 3)
    assert take_gold(nearly_empty, A, Hand.of(grain=1), 2).holdings.bank == Hand()


# --- a roll of 7 (CE-B4) ------------------------------------------------------------------

@pytest.mark.parametrize("cards, due", [(0, None), (7, None), (8, 4), (9, 4), (15, 7), (16, 8)])
def test_more_than_seven_cards_discard_half_rounded_down(cards, due):
    h = holdings(b=Hand.of(lumber=cards // 2, ore=cards - cards // 2))
    assert discards_due(h).get(B) == due


def test_a_discard_must_be_the_amount_due_from_cards_held():
    h = holdings(a=Hand.of(lumber=5, ore=4))
    out = discard(h, A, Hand.of(lumber=3, ore=1), 4)
    assert out.holdings.hand(A) == Hand.of(lumber=2, ore=3) and out.holdings.bank == h.bank + Hand.of(lumber=3, ore=1)
    assert out.events[0].public and out.events[1].to == (A,)
    for cards, code in ((Hand.of(lumber=3), "catan_express.discard_count"), (Hand.of(grain=4), "catan_express.not_held")):
        with pytest.raises(IllegalAction) as exc:
            discard(h, A, cards, 4)
        assert codes(exc) == code


def test_robbing_takes_one_seeded_random_card_from_a_neighbour_of_the_robber():
    h = holdings(a=Hand(), b=Hand.of(wool=1, ore=2), c=Hand.of(grain=1), d=Hand())
    buildings = {H1: [(A, "city"), (B, "settlement"), (C, "settlement"), (D, "settlement")], H2: [(C, "city")]}
    assert robbable(h, A, H1, buildings) == (B, C)
    assert robbable(h, C, H2, buildings) == ()
    taken = set()
    for counter in range(30):
        out = rob(h, A, B, H1, buildings, SeededRng(3, counter))
        again = rob(h, A, B, H1, buildings, SeededRng(3, counter))
        assert out == again
        gained = out.holdings.hand(A)
        assert gained.total == 1 and out.holdings.hand(B) == h.hand(B) - gained
        taken |= set(gained.resources())
        public, private = out.events
        assert public.public and "resource" not in public.params and private.to == (A, B)
    assert taken == {Resource.WOOL, Resource.ORE}
    for victim, at in ((A, H1), (D, H1), (C, H3)):  # oneself, no cards, no building there
        with pytest.raises(IllegalAction) as exc:
            rob(h, A, victim, at, buildings, SeededRng(0, 0))
        assert codes(exc) == "catan_express.cannot_rob"


# --- trading (CE-B5) ----------------------------------------------------------------------

@pytest.mark.parametrize("harbours, ratios", [
    ((), {"lumber": 4, "ore": 4}),
    (("generic",), {"lumber": 3, "ore": 3}),
    (("ore",), {"lumber": 4, "ore": 2}),
    (("generic", "ore"), {"lumber": 3, "ore": 2}),
])
def test_bank_trade_ratios(harbours, ratios):
    assert {r: trade_ratio(r, harbours) for r in ratios} == ratios
    h = holdings(a=Hand.of(lumber=12, ore=12))
    for r, ratio in ratios.items():
        out = bank_trade(h, A, Hand.of({r: ratio}), Hand.of(grain=1), harbours)
        assert out.holdings.hand(A) == h.hand(A) - Hand.of({r: ratio}) + Hand.of(grain=1)
        with pytest.raises(IllegalAction) as exc:
            bank_trade(h, A, Hand.of({r: ratio - 1}), Hand.of(grain=1), harbours)
        assert codes(exc) == "catan_express.trade_ratio"


def test_bank_trade_in_several_lots_and_its_refusals():
    h = holdings(a=Hand.of(lumber=8, ore=2))
    out = bank_trade(h, A, Hand.of(lumber=8, ore=2), Hand.of(grain=2, wool=1), ("ore",))
    assert out.holdings.hand(A) == Hand.of(grain=2, wool=1)
    cases = [
        (Hand.of(lumber=8), Hand.of(grain=1), "catan_express.trade_unbalanced"),
        (Hand(), Hand.of(grain=1), "catan_express.trade_empty"),
        (Hand.of(lumber=4), Hand.of(lumber=1), "catan_express.trade_same_resource"),
        (Hand.of(brick=4), Hand.of(grain=1), "catan_express.cannot_afford"),
    ]
    for give_, get, code in cases:
        with pytest.raises(IllegalAction) as exc:
            bank_trade(h, A, give_, get)
        assert codes(exc) == code
    empty_bank = Holdings(Hand.of(lumber=3), (Hand.of(ore=4), Hand()))
    with pytest.raises(IllegalAction) as exc:
        bank_trade(empty_bank, A, Hand.of(ore=4), Hand.of(grain=1))
    assert codes(exc) == "catan_express.bank_short"


def test_player_trades_need_both_sides_to_give_and_to_hold_it():
    h = holdings(a=Hand.of(ore=2), b=Hand.of(wool=1, grain=1))
    out = player_trade(h, A, Hand.of(ore=2), B, Hand.of(wool=1))
    assert out.holdings.hand(A) == Hand.of(wool=1) and out.holdings.hand(B) == Hand.of(ore=2, grain=1)
    assert out.holdings.bank == h.bank
    cases = [
        (A, Hand.of(ore=1), B, Hand(), "catan_express.trade_gift"),
        (A, Hand(), B, Hand.of(wool=1), "catan_express.trade_gift"),
        (A, Hand.of(ore=1), A, Hand.of(ore=1), "catan_express.trade_self"),
        (A, Hand.of(ore=1), B, Hand.of(ore=1), "catan_express.trade_same_resource"),
        (A, Hand.of(ore=3), B, Hand.of(wool=1), "catan_express.cannot_afford"),
        (A, Hand.of(ore=1), B, Hand.of(wool=2), "catan_express.partner_cannot_afford"),
    ]
    for seat, give_, partner, get, code in cases:
        with pytest.raises(IllegalAction) as exc:
            player_trade(h, seat, give_, partner, get)
        assert codes(exc) == code


# --- development cards (CE-B3, CE-5) ------------------------------------------------------

def test_buying_pays_the_bank_and_a_victory_point_card_is_shown_at_once():
    h = holdings(a=Hand.of(ore=2, wool=2, grain=2))
    deck = (DevCard.VICTORY_POINT, DevCard.KNIGHT)
    first = buy(h, PlayerCards(A), deck)
    assert first.holdings.hand(A) == Hand.of(ore=1, wool=1, grain=1) and first.deck == (DevCard.KNIGHT,)
    assert first.cards.points == 1 and first.cards.in_hand == 0
    assert [e.key for e in first.events] == ["catan_express.ev.paid", "catan_express.ev.vp_revealed"] and first.events[1].public
    second = buy(first.holdings, first.cards, first.deck)
    assert second.cards.count(DevCard.KNIGHT) == 1 and second.deck == ()
    drew = [e for e in second.events if e.key == "catan_express.ev.drew_card"]
    assert drew[0].to == (A,) and all(e.public for e in second.events if e is not drew[0])
    with pytest.raises(IllegalAction) as exc:
        buy(second.holdings, second.cards, second.deck)
    assert codes(exc) == "catan_express.deck_empty" and second.holdings.hand(A) == Hand()
    with pytest.raises(IllegalAction) as exc:
        buy(holdings(), PlayerCards(A), deck)
    assert codes(exc) == "catan_express.cannot_afford"
    with pytest.raises(IllegalAction) as exc:
        draw(())
    assert codes(exc) == "catan_express.deck_empty"


def test_one_card_a_turn_never_one_bought_this_turn():
    cards, _ = PlayerCards(A).receive(DevCard.KNIGHT)
    cards, _ = cards.receive(DevCard.MONOPOLY)
    for card, code in ((DevCard.KNIGHT, "catan_express.card_bought_this_turn"), (DevCard.ROAD_BUILDING, "catan_express.card_not_held"),
                       (DevCard.VICTORY_POINT, "catan_express.card_not_playable")):
        with pytest.raises(IllegalAction) as exc:
            cards.play(card)
        assert codes(exc) == code
    cards = cards.end_turn()
    played, events = cards.play(DevCard.KNIGHT)
    assert played.knights == 1 and played.in_hand == 1 and events[0].key == "catan_express.ev.played_card"
    with pytest.raises(IllegalAction) as exc:
        played.play(DevCard.MONOPOLY)
    assert codes(exc) == "catan_express.card_already_played"
    assert played.end_turn().play(DevCard.MONOPOLY)[0].in_hand == 0


def test_largest_army_goes_to_the_first_with_three_and_passes_only_to_strictly_more():
    assert largest_army(None, {A: 2, B: 2}, A) == (None, ())
    holder, events = largest_army(None, {A: 3, B: 2}, A)
    assert holder == A and events[0].key == "catan_express.ev.largest_army" and events[0].params["points"] == 2
    assert largest_army(A, {A: 3, B: 3}, B) == (A, ())
    assert largest_army(A, {A: 4, B: 3}, A) == (A, ())
    holder, events = largest_army(A, {A: 3, B: 4}, B)
    assert holder == B and events[0].params["from_seat"] == A


def test_monopoly_takes_every_card_of_one_resource():
    h = holdings(a=Hand.of(ore=1), b=Hand.of(ore=3, wool=1), c=Hand.of(wool=2), d=Hand.of(ore=1))
    out = monopoly(h, A, "ore")
    assert [out.holdings.hand(s)["ore"] for s in (A, B, C, D)] == [5, 0, 0, 0]
    assert out.holdings.hand(B) == Hand.of(wool=1) and out.holdings.bank == h.bank
    assert out.events[0].params["count"] == 4


def test_year_of_plenty_takes_two_within_the_banks_limits():
    h = holdings()
    assert year_of_plenty(h, A, Hand.of(ore=2)).holdings.hand(A) == Hand.of(ore=2)
    low = Holdings(Hand.of(ore=1, wool=3), (Hand(),) * 3)
    for picks, code in ((Hand.of(ore=2), "catan_express.bank_short"), (Hand.of(wool=3), "catan_express.plenty_count")):
        with pytest.raises(IllegalAction) as exc:
            year_of_plenty(low, A, picks)
        assert codes(exc) == code
    last = Holdings(Hand.of(grain=1), (Hand(),) * 3)
    assert year_of_plenty(last, B, Hand.of(grain=1)).holdings.hand(B) == Hand.of(grain=1)


def test_road_building_gives_two_pieces_or_what_is_left():
    assert [road_building_pieces(r, f) for r, f in ((15, 8), (1, 0), (0, 1), (1, 1), (0, 0))] == [2, 1, 1, 2, 0]


# --- conservation through random sequences ------------------------------------------------

def _random_step(h: Holdings, rng: SeededRng, players: int) -> Holdings:
    """One random card move of any kind the rules know; refusals leave the holdings as they were."""
    seat, other = rng.randint(0, players - 1), rng.randint(0, players - 1)
    some = Hand(tuple(rng.randint(0, 2) for _ in RESOURCES))
    r = rng.choice(RESOURCES)
    kind = rng.randint(0, 9)
    hexes = [Hex(i, 0) for i in range(4)]
    buildings = {x: [(rng.randint(0, players - 1), rng.choice(["settlement", "city"])) for _ in range(3)]
                 for x in hexes}
    try:
        if kind == 0:
            tokens = {x: rng.randint(2, 12) for x in hexes}
            terrains = {x: rng.choice(["forest", "hills", "pasture", "fields", "mountains", "gold_river", "desert"])
                        for x in hexes}
            p = production(rng.randint(2, 12), tokens, terrains, rng.choice(hexes), buildings)
            h = distribute(h, p.owed).holdings
            for s, n in p.gold.items():
                due = min(n, h.bank.total)
                start = rng.randint(0, h.bank.total - due)
                picks = Hand()
                for card in h.bank.cards()[start:start + due]:
                    picks = picks + Hand.of({card: 1})
                h = take_gold(h, s, picks, n).holdings
        elif kind == 1:
            h = pay_build(h, seat, rng.choice(["settlement", "city", "development_card", "rail", "ferry"])).holdings
        elif kind == 2:
            owners = {rng.randint(0, players - 1) for _ in range(2)} - {seat}
            h = pay_build(h, seat, rng.choice(["rail", "ferry"]), parallel_owners=owners,
                          free=bool(rng.randint(0, 1))).holdings
        elif kind == 3:
            h = bank_trade(h, seat, Hand.of({r: trade_ratio(r, ("generic",))}), Hand.of({rng.choice(RESOURCES): 1}),
                           ("generic",)).holdings
        elif kind == 4:
            offer = _first(h.hand(seat), rng.randint(1, 3))
            wanted = [c for c in h.hand(other).cards() if c not in offer.resources()]
            h = player_trade(h, seat, offer, other, Hand.of({rng.choice(wanted): 1}) if wanted else some).holdings
        elif kind == 5:
            for s, due in discards_due(h).items():
                h = discard(h, s, _first(h.hand(s), due), due).holdings
        elif kind == 6:
            victims = robbable(h, seat, hexes[0], buildings)
            if victims:
                h = rob(h, seat, victims[0], hexes[0], buildings, rng).holdings
        elif kind == 7:
            h = monopoly(h, seat, r).holdings
        elif kind == 8:
            h = year_of_plenty(h, seat, _first(h.bank, min(2, h.bank.total))).holdings
        else:
            h = give(h, seat, other, Hand.of({r: 1}), reason="fare").holdings
    except IllegalAction:
        pass
    return h


def _first(hand: Hand, n: int) -> Hand:
    out = Hand()
    for card in hand.cards()[:n]:
        out = out + Hand.of({card: 1})
    return out


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32), steps=st.integers(1, 120))
def test_bank_and_hands_always_hold_the_whole_bank(players, seed, steps):
    h = Holdings.start(players)
    full = h.totals()
    # Deal a start so that trades, robberies and discards have cards to move.
    h = distribute(h, {s: Hand.each(2) for s in range(players)}).holdings
    for i in range(steps):
        h = _random_step(h, SeededRng(seed, i), players)
        assert h.totals() == full


@given(bank=st.tuples(*[st.integers(0, 6)] * 5),
       owed=st.dictionaries(st.integers(0, 3), st.tuples(*[st.integers(0, 4)] * 5), max_size=4))
def test_shortage_rule_property(bank, owed):
    """Per resource: all owed are paid in full, or the one player owed takes what is left, or
    nobody gets any."""
    h = Holdings(Hand(bank), (Hand(),) * 4)
    want = {s: Hand(c) for s, c in owed.items()}
    out = distribute(h, want).holdings
    assert out.totals() == h.totals()
    for i, r in enumerate(RESOURCES):
        wanting = [s for s in want if want[s][r]]
        got = {s: out.hand(s)[r] for s in range(4)}
        total = sum(want[s][r] for s in wanting)
        if total <= bank[i]:
            assert all(got[s] == (want[s][r] if s in want else 0) for s in range(4))
        elif len(wanting) == 1:
            assert got[wanting[0]] == bank[i] and out.bank[r] == 0
        else:
            assert sum(got.values()) == 0 and out.bank[r] == bank[i]


# --- every message exists in both languages -----------------------------------------------

def _keys_in(module) -> tuple[set[str], set[str]]:
    source = Path(module.__file__).read_text(encoding="utf-8")
    errors = set(re.findall(r'(?:IllegalAction\(|_need\(.*?|_check_sides\(.*?)"(catan_express\.[a-z_]+)"', source))
    events = {f"catan_express.ev.{k}" for k in re.findall(r'_ev\(\s*"([a-z_]+)"', source)}
    return errors, events


def test_every_code_and_event_is_in_both_catalogs():
    errors, events = set(), set()
    for module in (economy_mod, cards_mod):
        e, v = _keys_in(module)
        errors |= e
        events |= v
    assert len(errors) >= 20 and len(events) >= 18
    keys = {message_key_of(c) for c in errors} | events
    keys |= {f"catan_express.{group}.{r.value}" for group in ("resource", "cards") for r in Resource}
    keys |= {f"catan_express.card.{k.value}" for k in DevCard}
    keys |= {f"catan_express.reason.{k}" for k in ("settlement", "city", "development_card", "rail", "ferry", "parallel", "fare")}
    for lang in ("en", "ja"):
        assert sorted(k for k in keys if k not in catalog(lang)) == [], lang


def test_events_read_in_both_languages():
    h = holdings(a=Hand.of(lumber=1, ore=1, brick=1))
    out = pay_build(h, A, "rail", parallel_owners=[B])
    assert [translate("en", e.key, e.params, ["Ann", "Bob"]) for e in out.events] == [
        "Ann paid 1 lumber, 1 ore for a rail.", "Ann gave 1 brick to Bob for building beside their piece."]
    assert translate("ja", out.events[0].key, out.events[0].params, ["アン", "ボブ"]) == \
        "アンが線路の費用として材木1枚、鉱石1枚を支払いました。"
    for lang in ("en", "ja"):
        for e in out.events:
            assert "{" not in translate(lang, e.key, e.params, ["Ann", "Bob"])
