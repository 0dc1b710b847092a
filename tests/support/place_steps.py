"""The steps of real decisions whose options are places, and the checks every game's pick
pictures must pass (render.pick, render.kit.picking): each place located inside the board
image, no region over 25 options, pictures legible at 400 px with badges that do not overlap.
"""
from __future__ import annotations

import math
from typing import Any, Iterator, NamedTuple, Sequence

from games.core.choices import Pick
from render import pick, registry
from render.kit import picking
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes


class PlaceStep(NamedTuple):
    picks: tuple[str, ...]  # what leads to the step (picks taken without asking included)
    options: list[Pick]


def place_steps(game: Any, state: Any, seat: int) -> Iterator[PlaceStep]:
    """Every step of the seat's decision with at least one place among its options."""
    decision = game.decision(state, seat)
    if not decision.choices:
        return
    seen: set[tuple[str, ...]] = set()

    def walk(picks: tuple[str, ...]) -> Iterator[PlaceStep]:
        stop = decision.walk(list(picks))
        if stop.move is not None or stop.group is not None or stop.picks in seen:
            return
        seen.add(stop.picks)
        if any(o.place is not None for o in stop.options):
            yield PlaceStep(stop.picks, list(stop.options))
        for o in stop.options:
            if decision.entry_group(o.value) is None:
                yield from walk((*stop.picks, o.value))

    yield from walk(())


def check_located(game_name: str, view: Any, options: Sequence[Pick]) -> list[picking.Mark]:
    """Every place of the step is found on the board image, inside it; the marks."""
    places = [o.place for o in options if o.place is not None]
    marks = pick.locate(game_name, view, places)
    w, h = registry.get(game_name).places.size(view)
    for place, mark in zip(places, marks):
        assert mark is not None, place
        for x, y in mark.points():
            assert 0 <= x <= w and 0 <= y <= h, (place, (x, y), (w, h))
    assert len({m.spot for m in marks}) == len(marks), "two options share a spot"
    return marks  # type: ignore[return-value]


def check_regions(game_name: str, marks: Sequence[picking.Mark]) -> list[list[int]]:
    """The step's regions: every mark in exactly one, none over 25."""
    regions = pick.plan(game_name, marks)
    assert sorted(i for r in regions for i in r) == list(range(len(marks)))
    assert all(1 <= len(r) <= picking.OPTIONS_AT_MOST for r in regions), [len(r) for r in regions]
    return regions


def check_pictures_legible(game_name: str, view: Any, options: Sequence[Pick], names: Sequence[str],
                           lang: str) -> list[picking.Picture]:
    """The step's places located (check_located), split into regions (check_regions), and each
    region's picture, its places numbered from 1, legible (check_legible); the pictures."""
    places = [o.place for o in options if o.place is not None]
    marks = check_located(game_name, view, options)
    return [check_legible(game_name, view, names, lang, [places[i] for i in region], list(range(1, len(region) + 1)))
            for region in check_regions(game_name, marks)]


def check_legible(game_name: str, view: Any, names: Sequence[str], lang: str, places: Sequence[Any],
                  numbers: Sequence[int]) -> picking.Picture:
    """The region's picture: its smallest text at least 7 px when shown 400 px wide, one badge
    per number, no two badges overlapping."""
    with recording_text_sizes() as sizes:
        pic = pick.picture(game_name, view, names, lang, places, numbers)
    shown = sizes.smallest_at(pic.image.width)
    assert shown is not None and shown >= MIN_TEXT_PX_AT_400, (sizes.smallest(), pic.image.width)
    assert sorted(b.number for b in pic.badges) == sorted(numbers)
    diameter, _ = picking.badge_size(pic.image.width)
    for i, a in enumerate(pic.badges):
        for b in pic.badges[i + 1:]:
            gap = math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
            assert gap >= diameter * 0.9, (a.number, b.number, gap, diameter)
    return pic
