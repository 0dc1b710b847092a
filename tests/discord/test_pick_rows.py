"""The chooser's part of pick pictures: which steps get one (`on_board`), and a region's options
drawn with their picture numbers in front of their labels while their ids keep the option's
index in the whole step (so a click means the same option whichever region showed it)."""
from __future__ import annotations

from bot.discord import chooser
from bot.discord.ui import base as ui_base
from games.core.choices import Pick, Place
from games.core.events import Event


def option(n: int, *, place: bool = True, named: bool = False) -> Pick:
    return Pick(step="test.step.where", value=f"v{n}", label=Event(key="choice.counted",
                                                                   params={"item": f"H{n}", "count": 1}),
                place=Place(kind="hex", at=(f"H{n}",), named=named) if place else None)


def test_a_step_is_shown_on_the_board_when_two_or_more_of_its_options_are_places() -> None:
    assert not chooser.on_board([option(1), option(2, place=False)])
    assert chooser.on_board([option(1), option(2), option(3, place=False)])
    named = [option(n, named=True) for n in range(chooser.NAMED_AT_MOST)]
    assert not chooser.on_board(named)  # cities by name, few: the names do
    assert chooser.on_board(named + [option(99, named=True)])


def test_region_options_carry_their_picture_number_and_their_index_in_the_step() -> None:
    options = [option(n) for n in range(40)]
    shown = [31, 7, 12, 30, 5, 22]  # a region, in reading order
    numbers = {i: k + 1 for k, i in enumerate(shown)}
    rows = chooser.stop_rows(5, 9, "v", (), options, "test.step.where", ui_base.GameUI(), "en",
                             shown=shown, numbers=numbers)
    select = rows[0][0].item
    assert [o.value for o in select.options] == [str(i) for i in shown]
    assert [o.label.split(" · ")[0] for o in select.options] == ["1", "2", "3", "4", "5", "6"]
    few = chooser.stop_rows(5, 9, "v", (), options, "test.step.where", ui_base.GameUI(), "en",
                            shown=[3, 4], numbers={3: 1, 4: 2})
    buttons = [b.item for b in few[0]]
    assert [b.label.split(" · ")[0] for b in buttons] == ["1", "2"]
    assert [b.custom_id.rsplit(":", 1)[1] for b in buttons] == ["3", "4"]
