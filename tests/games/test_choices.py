"""The menu model itself (games/core/choices.py), on a small hand-made decision."""
import random

import pytest

from games.core.choices import Amount, Choice, Decision, Group, Part, Pick, TooManyMoves
from games.core.errors import IllegalAction
from games.core.events import Event


def pick(step, value):
    return Pick(step=step, value=value, label=Event(key=f"w.{value}"))


DECISION = Decision(seat=0, choices=[
    Choice(notation="place A at 1", path=(pick("tile", "A"), pick("where", "1"))),
    Choice(notation="place B at 1", path=(pick("tile", "B"), pick("where", "1"))),
    Choice(notation="place B at 2", path=(pick("tile", "B"), pick("where", "2"))),
    Choice(notation="stop", path=(pick("tile", "stop"),)),
])


def test_an_option_that_makes_the_whole_move_says_where():
    first = {p.value: p for p in DECISION.first_step()}
    a = first["A"].label
    assert a.key == "choice.then" and a.params["first"]["key"] == "w.A" and a.params["then"]["key"] == "w.1"
    assert first["B"].label.key == "w.B" and first["stop"].label.key == "w.stop"


def test_walk_asks_only_where_there_is_a_choice_and_refuses_what_is_not_offered():
    assert DECISION.walk(["A"]).move == "place A at 1"  # its one place is taken without asking
    stop = DECISION.walk(["B"])
    assert stop.move is None and [o.value for o in stop.options] == ["1", "2"]
    assert DECISION.walk(["B", "2"]).move == "place B at 2"
    with pytest.raises(IllegalAction):
        DECISION.walk(["C"])


def test_groups_and_amounts_spell_one_move_and_check_their_bounds():
    group = Group(step="keep", items=(pick("keep", "3"), pick("keep", "1"), pick("keep", "2")), min=1, max=2,
                  template="keep {}")
    assert group.notation(["2", "3"]) == "keep 3,2"  # item order, whatever order they were picked in
    assert sorted(group.all_notations()) == sorted(["keep 3", "keep 1", "keep 2", "keep 3,1", "keep 3,2", "keep 1,2"])
    for bad in ([], ["1", "2", "3"], ["9"], ["1", "1"]):
        with pytest.raises(IllegalAction):
            group.notation(bad)
    bid = Amount(step="bid", label=Event(key="w.bid"), min=2, max=10, step_by=2, template="bid {}")
    assert bid.notation(6) == "bid 6" and bid.all_notations() == ["bid 2", "bid 4", "bid 6", "bid 8", "bid 10"]
    for bad in (1, 3, 12):
        with pytest.raises(IllegalAction):
            bid.notation(bad)


# --- counted groups: an item picked several times, sides, an entry --------------------------

def _trade() -> Group:
    """Give some of a hand of 2 ore and 1 wool, ask for up to 3 of brick, wool or ore: never one
    resource on both sides."""
    give = (pick("give", "wool"), pick("give", "ore"))
    get = (pick("get", "brick"), pick("get", "wool"), pick("get", "ore"))
    return Group(step="trade", items=give + get, most=(1, 2, 3, 3, 3), min=2, max=12,
                 template="trade {} {}", sep="+", counted="{n}{value}", exclusive=True,
                 parts=(Part(step="give", size=2, min=1, max=3), Part(step="get", size=3, min=1, max=9)),
                 entry=pick("what", "trade"))


def test_an_item_may_be_picked_as_often_as_the_group_says():
    group = Group(step="ex", items=(pick("c", "Denver"), pick("c", "Reno")), most=(2, 1), min=1, max=3,
                  template="exchange {}")
    assert group.notation(["Reno", "Denver", "Denver"]) == "exchange Denver,Denver,Reno"
    assert sorted(group.all_notations()) == sorted(["exchange Denver", "exchange Reno", "exchange Denver,Reno",
                                                    "exchange Denver,Denver", "exchange Denver,Denver,Reno"])
    with pytest.raises(IllegalAction):
        group.notation(["Reno", "Reno"])  # one Reno card only
    assert group.counts_of("exchange Denver,Denver") == (2, 0)
    assert group.counts_of("exchange Reno,Denver") is None  # not the group's one spelling
    assert group.counts_of("exchange Reno,Reno") is None


def test_a_group_of_two_sides_spells_each_side_in_its_blank():
    group = _trade()
    assert group.notation_of((0, 2, 1, 0, 0)) == "trade 2ore 1brick"
    assert group.counts_of("trade 1wool+2ore 3brick+3ore") is None      # ore on both sides
    assert group.counts_of("trade 1wool+2ore 3brick") == (1, 2, 3, 0, 0)
    with pytest.raises(IllegalAction) as err:
        group.notation_of((0, 2, 0, 0, 0))                                # nothing asked
    assert err.value.code == "choice.pick_count" and err.value.params == {"min": 1, "max": 9}
    with pytest.raises(IllegalAction):
        group.notation_of((0, 1, 0, 0, 1))                                # ore given and asked
    # every pick listed once, each read back to itself
    moves = group.all_notations()
    assert len(moves) == len(set(moves)) == group.count()
    assert all(group.notation_of(group.counts_of(m)) == m for m in moves)
    assert group.count(limit=5) == 6  # counting stops just past a limit


def test_a_groups_edges_are_its_bounds_and_one_step_beyond():
    group = _trade()
    inside, outside = group.edges()
    assert all(group.problem(c) is None for c in inside)
    assert all(group.problem(c) is not None for c in outside)
    written = {group.write(c) for c in inside}
    assert {"trade 2ore 1brick", "trade 1wool 3ore", "trade 1wool+2ore 1brick"} <= written
    beyond = {group.write(c) for c in outside}
    assert {"trade 3ore 1brick", "trade 1wool 4ore", "trade 1wool 1wool"} <= beyond
    rng = random.Random(1)
    drawn = [group.sample(rng) for _ in range(30)]
    assert all(d is not None and group.problem(d) is None for d in drawn)


def test_a_group_with_an_entry_is_opened_from_the_first_step():
    decision = Decision(seat=0, choices=DECISION.choices, groups=[_trade()])
    assert [p.value for p in decision.first_step()] == ["A", "B", "stop", "trade"]
    stop = decision.walk(["trade"])
    assert stop.group == 0 and stop.move is None and not stop.options
    with pytest.raises(IllegalAction):
        decision.walk(["trade", "ore"])
    assert decision.holds("trade 2ore 1brick") and decision.holds("stop")
    assert not decision.holds("trade 2ore 2ore")
    assert len(decision.all_notations()) == len(DECISION.choices) + _trade().count()


def test_a_group_too_big_to_list_says_so():
    big = Group(step="ask", items=tuple(pick("get", r) for r in "abcde"), most=(19,) * 5, min=1, max=95,
                template="ask {}", sep="+", counted="{n}{value}")
    with pytest.raises(TooManyMoves):
        big.all_notations()
    assert big.count(limit=100) == 101 and big.counts_of("ask 19a+4e") == (19, 0, 0, 0, 4)


def test_a_group_whose_counts_sides_or_template_do_not_fit_its_items_is_refused_when_made():
    items = (pick("c", "a"), pick("c", "b"))
    for bad in ({"most": (2,)}, {"parts": (Part(step="give", size=1, min=1, max=1),), "template": "x {}"},
                {"template": "x {} {}"}):
        with pytest.raises(ValueError):
            Group(step="g", items=items, min=1, max=2, **{"template": "x {}", **bad})
