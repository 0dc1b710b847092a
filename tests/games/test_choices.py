"""The menu model itself (games/core/choices.py), on a small hand-made decision."""
import pytest

from games.core.choices import Amount, Choice, Decision, Group, Pick
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
