"""Santa Fe's menus (games/santa_fe/decisions.py): what a person picks, in order, and what
stays private."""
import random
from string import Formatter

import pytest

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.i18n import LANGUAGES, has_key, translate
from games.santa_fe import decisions
from games.santa_fe.models import DOUBLE, Choice, SantaFeState
from tests.games.santa_fe.helpers import BOARD, GAME, RR, build, city, started, to_track
from tests.support.protocol_checks import catalog_keys, check_decisions, walk_checking_decisions

OPTIONS = [{}, {"advanced": True}, {"buy_track": True}, {"advanced": True, "buy_track": True}]


@pytest.mark.parametrize("options", OPTIONS, ids=["basic", "advanced", "buy_track", "advanced+buy_track"])
@pytest.mark.parametrize("block", range(3))
def test_every_legal_move_is_offered_once_for_every_option(options, block):
    for seed in range(block * 4, block * 4 + 4):
        walk_checking_decisions(GAME, 1000 + seed, 2 + seed % 4, 2500, options)


# ---------------------------------------------------------------- the secret card choice (SF-2)
def test_the_card_choice_is_secret_and_another_players_choice_leaves_it_unchanged():
    s = started(3)
    mine = GAME.decision(s, 2)
    assert mine.secret and mine.key == "choose.1" and not mine.groups
    for seat in (0, 1):  # the others choose, one after the other
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[-1]).state
        assert GAME.decision(s, 2) == mine
    assert GAME.decision(s, 0).empty and GAME.decision(s, 0).key is None  # chosen: nothing more to pick


def test_a_held_spur_goes_with_every_card_and_says_so():
    s = started(3).clone()
    s.round = 2
    s.players[1].spur = RR["UP"]
    d = GAME.decision(s, 1)
    assert d.key == "choose.2" and d.secret
    picks = d.first_step()
    assert "double" in [p.value for p in picks]
    assert all(c.notation.endswith("+spur") for c in d.choices)
    assert all(p.label.key == "santa_fe.choice.with_spur" for p in picks)
    assert all(len(c.path) == 1 for c in d.choices)  # one pick: the spur is not a separate question


def test_only_the_card_choice_and_the_exchange_are_secret():
    rng = random.Random(5)
    phases = set()
    for seed in range(8):
        s = GAME.setup(2 + seed % 4, OPTIONS[seed % 4], seed)
        for _ in range(300):
            if GAME.result(s) is not None:
                break
            for seat in GAME.active_players(s):
                d = GAME.decision(s, seat)
                phases.add(s.phase)
                assert d.secret == (s.phase in ("choose", "exchange")), s.phase
                assert (d.key is not None) == (s.phase in ("choose", "exchange")), s.phase
            seat = rng.choice(sorted(GAME.active_players(s)))
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    assert {"choose", "track", "draw", "engineer", "buy"} <= phases


# ---------------------------------------------------------------- the double-turn exchange (SF-3)
def exchange_position(hands: dict[int, list[str]], deck: int | None = None, n: int = 3) -> SantaFeState:
    """The exchange step before the second track-laying turn: the seats in `hands` played a
    double turn and hold exactly those city cards; `deck` city cards are left to draw."""
    s = started(n).clone()
    pool = list(s.deck) + [c for p in s.players for c in p.hand]
    for seat, names in hands.items():
        want = [city(name) for name in names]
        for c in want:
            pool.remove(c)
        s.players[seat].hand = sorted(want)
    for seat, p in enumerate(s.players):
        if seat not in hands:  # the others keep what they can of their hands
            kept = [c for c in p.hand if c in pool and not pool.remove(c)]
            while len(kept) < len(p.hand):
                kept.append(pool.pop())
            p.hand = sorted(kept)
    s.deck = pool
    if deck is not None:
        s.removed, s.deck = s.deck[deck:], s.deck[:deck]
    s.phase, s.round, s.track_turn = "exchange", 2, 2
    for seat, p in enumerate(s.players):
        if seat in hands:
            p.doubles -= 1
            p.revealed, p.exchanged = Choice(card=DOUBLE), False
        else:
            p.revealed, p.exchanged = Choice(card=p.hand[0]), True
    GAME.check_invariants(s)
    assert GAME.active_players(s) == set(hands)
    return s


def _exchange_menu_is_sound(d: Decision, hand_size: int) -> None:
    """No move both keeps the hand and gives cards away; each move is offered once."""
    notations = d.all_notations()
    assert len(notations) == len(set(notations))
    keep = [c for c in d.choices if c.notation == "exchange none"]
    assert len(keep) == 1 and len(keep[0].path) == 1
    assert all(g.min >= 1 and "none" not in [i.value for i in g.items] for g in d.groups)
    for text in notations:
        assert text == "exchange none" or "none" not in text.split(" ", 1)[1].split(","), text
        assert len(text.split(",")) <= hand_size


def test_the_exchange_menu_cannot_combine_keeping_the_hand_with_cards():
    s = exchange_position({0: ["Denver", "Omaha", "Reno", "El Paso"]})
    d = GAME.decision(s, 0)
    check_decisions(GAME, s)
    _exchange_menu_is_sound(d, 4)
    group, = d.groups
    assert (group.min, group.max) == (1, 4)
    assert group.notation(["Reno", "Denver"]) == GAME.format_action(GAME.parse_action("exchange Denver,Reno"))
    for bad in ([], ["none"], ["none", "Denver"], ["Denver", "Denver"]):
        with pytest.raises(IllegalAction):
            group.notation(bad)
    with pytest.raises(IllegalAction):
        d.walk(["none", "Denver"])


def test_two_cards_of_one_city_can_both_go_each_move_still_once():
    s = exchange_position({0: ["Denver", "Denver", "Reno", "Reno", "Omaha"]})
    d = GAME.decision(s, 0)
    check_decisions(GAME, s)
    _exchange_menu_is_sound(d, 5)
    # "keep my hand" and the one group: no entry of its own for both cards of a city
    assert [p.value for p in d.first_step()] == ["none"]
    group, = d.groups  # each city once, picked up to as many times as the hand holds it
    assert dict(zip([i.value for i in group.items], group.limits())) == {"Denver": 2, "Reno": 2, "Omaha": 1}
    assert (group.min, group.max) == (1, 5)
    both = GAME.format_action(GAME.parse_action("exchange Denver,Denver"))
    assert group.notation(["Denver", "Denver"]) == both
    assert dict(zip([i.value for i in group.items], group.counts_of(both))) == {"Denver": 2, "Reno": 0, "Omaha": 0}
    # Both Reno cards with both Denver cards: one spelling, reached one way.
    text = GAME.format_action(GAME.parse_action("exchange Reno,Reno,Denver,Denver"))
    assert group.notation(["Reno", "Denver", "Reno", "Denver"]) == text and d.all_notations().count(text) == 1
    # a third Denver card is not in the hand: refused by the menu and by the rules
    with pytest.raises(IllegalAction):
        group.notation(["Denver", "Denver", "Denver"])
    assert "exchange Denver,Denver,Denver" not in d.all_notations()
    # every way to give cards away is one pick of the group (the hand as a multiset)
    assert sorted(d.all_notations()) == sorted(GAME.format_action(a) for a in GAME.legal_actions(s, 0))


def test_the_exchange_key_changes_only_when_the_deck_limits_the_exchange():
    s = exchange_position({0: ["Denver", "Omaha"], 1: ["Reno", "Boise"]}, deck=3)
    d0 = GAME.decision(s, 0)
    assert d0.secret and d0.key == "exchange.2.2"
    after = GAME.apply(s, 1, GAME.parse_action("exchange Boise")).state  # deck 3 -> 2: still enough
    assert GAME.decision(after, 0) == d0
    after = GAME.apply(s, 1, GAME.parse_action("exchange Boise,Reno")).state  # deck 3 -> 1
    d1 = GAME.decision(after, 0)
    assert d1.key != d0.key and d1.groups[0].max == 1
    assert "exchange Denver,Omaha" not in d1.all_notations()


# ---------------------------------------------------------------- track laying (SF-6 … SF-12)
def test_a_placement_with_a_single_end_takes_the_fewest_picks():
    s = to_track(build(started(3), "UP", "Chicago>Omaha"), 0)
    d = GAME.decision(s, 0)
    check_decisions(GAME, s)
    up = [c for c in d.choices if c.path[0].value == "UP"]
    assert len(up) > 1  # several placements: the railroad, then the section
    for choice in up:
        assert len(choice.path) == 2 and choice.path[1].step == decisions.SECTION
        assert d.walk([p.value for p in choice.path]).move == choice.notation
        assert choice.path[1].label.key == "santa_fe.choice.place"  # says the direction, not "either end"
    for choice in d.choices:  # a railroad with one placement: its pick is the move
        if sum(c.path[0].value == choice.path[0].value for c in d.choices) == 1:
            assert d.walk([choice.path[0].value]).move == choice.notation


def test_a_section_open_at_both_ends_asks_where_to_start():
    # Great Northern reaches Milwaukee, Chicago and Minneapolis; both Milwaukee–Minneapolis
    # lines are free, so its spur may start either of them from either end.
    s = to_track(build(started(3), "GN", "Milwaukee>Chicago", "Chicago>Minneapolis"), 0)
    s.players[0].spur_active, s.players[0].spur_used = RR["GN"], False
    d = GAME.decision(s, 0)
    check_decisions(GAME, s)
    assert "GN+spur" in [p.value for p in d.first_step()]
    stop = d.walk(["GN+spur", "Milwaukee-Minneapolis"])
    assert stop.step == decisions.END and {o.value for o in stop.options} == {"Milwaukee", "Minneapolis"}
    assert d.walk(["GN+spur", "Milwaukee-Minneapolis", "Minneapolis"]).move == "spur GN Minneapolis>Milwaukee"
    section_pick = next(o for o in d.walk(["GN+spur"]).options if o.value == "Milwaukee-Minneapolis")
    assert section_pick.label.key == "santa_fe.choice.section_ends"


def test_placement_labels_carry_terrain_costs_and_the_engineer_wording():
    s = to_track(started(3, advanced=True), 0)
    for p in (False, True):
        s.players[0].engineer = p
        for choice in GAME.decision(s, 0).choices:
            if choice.path[0].value in ("pass", "decline"):
                continue
            sid, end = GAME.parse_action(choice.notation).section, GAME.parse_action(choice.notation).end
            cost = BOARD.space_cost(sid, s.sec_built[sid], p, end)
            label = choice.path[-1].label
            if cost:
                assert label.params["cost"]["key"] == "santa_fe.choice.cost" and label.params["cost"]["params"]["cost"] == cost
            elif BOARD.river_at(sid, s.sec_built[sid], end):
                assert label.params["cost"]["key"] == "santa_fe.choice.river_free"
            else:
                assert label.params["cost"]["key"] == "santa_fe.choice.free"
    s.players[0].engineer = False
    basic = to_track(started(3), 0)
    assert all(c.path[-1].label.params.get("cost", "") == "" for c in GAME.decision(basic, 0).choices)


def test_pass_sits_beside_the_railroads_in_the_advanced_game():
    s = to_track(started(3, advanced=True), 0)
    first = [p.value for p in GAME.decision(s, 0).first_step()]
    assert first[-1] == "pass" and "pass" not in [p.value for p in GAME.decision(to_track(started(3), 0), 0).first_step()]


# ---------------------------------------------------------------- words
def _events(d: Decision) -> list[Event]:
    picks = [p for c in d.choices for p in c.path] + [p for g in d.groups for p in g.items]
    out = [e for p in picks for e in (p.label, p.detail) if e is not None]
    return out + ([d.prompt] if d.prompt is not None else [])


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def test_every_step_and_label_key_of_the_menus_exists_in_both_languages():
    rng = random.Random(11)
    keys: set[str] = set(decisions.STEPS)
    used_steps: set[str] = set()
    for seed in range(12):
        s = GAME.setup(2 + seed % 4, OPTIONS[seed % 4], seed)
        for _ in range(250):
            if GAME.result(s) is not None:
                break
            for seat in GAME.active_players(s):
                d = GAME.decision(s, seat)
                for group in d.groups:  # values unique among their siblings (a step's options: check_decisions)
                    assert len({i.value for i in group.items}) == len(group.items)
                steps = {p.step for c in d.choices for p in c.path} | {g.step for g in d.groups}
                used_steps |= steps
                keys |= steps
                for event in _events(d):
                    keys |= catalog_keys(event)
                    for lang in LANGUAGES:  # every placeholder is filled
                        text = translate(lang, event.key, event.params)
                        assert "{" not in text, (lang, event.key, text)
            seat = rng.choice(sorted(GAME.active_players(s)))
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    assert {decisions.CARD, decisions.RAILROAD, decisions.SECTION, decisions.EXCHANGE, decisions.EXCHANGE_CARDS,
            decisions.DRAW, decisions.BUY, decisions.ENGINEER} <= used_steps
    missing = [(lang, k) for lang in LANGUAGES for k in sorted(keys) if not has_key(lang, k)]
    assert not missing
    for key in keys:  # the two languages fill the same placeholders
        assert _placeholders(translate("en", key, {})) == _placeholders(translate("ja", key, {})), key
