"""Where Santa Fe's places are on its board image, for pick pictures (render.kit.picking).

A track-laying option names a section (games/santa_fe/decisions.py): its code, and the city
its next tile is laid from when that is settled ("section" places). Its number goes on the
space that tile would take (on the half nearer the city it is laid from, when the section is
one space long), and the spaces still to build are traced round (their river and
mountain marks left in sight), so a person sees which way the line would run; an empty section open at both ends gets its number halfway along.
In the advanced game a space that costs money (SF-11: a river, a mountain line) gets its cost
beside the number ("$2"), as the menu says it: the map's own `space_cost`, with the player's
engineer.

Everything comes from the board's layout (render.santa_fe.layout), the one the board is drawn
with.
"""
from __future__ import annotations

import math

from games.core.choices import Place
from games.santa_fe.map import west
from games.santa_fe.models import SantaFeView
from render.kit.images import Places
from render.kit.picking import Mark, Point
from render.santa_fe.layout import BOARD_H, BOARD_W, TILE_W, Space, board_layout

# A crop keeps about a city marker and its name round the options, and shows at least a
# third of the map across: sections leaving one city stay apart by their spaces' length.
MARGIN = 48.0
FLOOR = 420.0


def _ends_of(space: Space) -> tuple[Point, Point]:
    dx, dy = math.cos(space.angle) * space.length / 2, math.sin(space.angle) * space.length / 2
    (x, y) = space.center
    return (x - dx, y - dy), (x + dx, y + dy)


def _track(spaces: tuple[Space, ...]) -> tuple[Point, ...]:
    """A line through `spaces` (in order along the section), from the first one's start to
    the last one's end."""
    first, _ = _ends_of(spaces[0])
    _, last = _ends_of(spaces[-1])
    return (first, *(s.center for s in spaces), last)


def _cost_note(view: SantaFeView, sid: int, built: int, ends: list[int]) -> str | None:
    """What the next tile costs from each possible end (SF-11), as the menu prints it; None
    when it is free or the game is not the advanced one."""
    if not view.options.advanced:
        return None
    board = west()
    engineer = view.viewer is not None and view.players[view.viewer].engineer
    costs = sorted({board.space_cost(sid, built, engineer, end) for end in ends})
    if costs[-1] == 0:
        return None
    return f"${costs[0]}" if len(costs) == 1 else f"${costs[0]}–{costs[-1]}"


def locate(view: SantaFeView, place: Place) -> Mark | None:
    if place.kind != "section" or not 1 <= len(place.at) <= 2:
        return None
    board = west()
    sid = board.section_by_code.get(place.at[0].lower())
    if sid is None:
        return None
    layout = board_layout()
    spaces = layout.sections[sid].spaces
    built = view.sec_built[sid]
    if built >= len(spaces):
        return None
    if len(place.at) == 2:
        start = board.city_index.get(place.at[1])
        if start not in board.ends[sid]:
            return None
        end = board.ends[sid].index(start)
        if built and view.sec_from[sid] != end:
            return None  # a section under way is built on from the end it started at
        step = 1 if end == 0 else -1
        first = layout.space_index(sid, built, end)
        rest = spaces[first::step] if step > 0 else spaces[first::-1]
        spot = rest[0].center
        if len(spaces) == 1:  # either end's tile takes the one space: each number on its end's half
            near = _ends_of(spaces[0])[end]
            spot = ((spot[0] + near[0]) / 2, (spot[1] + near[1]) / 2)
        return Mark(spot=spot, line=_track(rest), note=_cost_note(view, sid, built, [end]), keep=TILE_W)
    if built:
        return None
    line = _track(spaces)
    half = len(spaces) // 2
    if len(spaces) % 2:
        middle = spaces[half].center
    else:
        (x0, y0), (x1, y1) = spaces[half - 1].center, spaces[half].center
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
    return Mark(spot=middle, line=line, note=_cost_note(view, sid, 0, [0, 1]), keep=TILE_W)


def size(view: SantaFeView) -> tuple[int, int]:
    return BOARD_W, BOARD_H


# City markers are values on white discs: pick numbers go on dark badges.
PLACES = Places(locate=locate, size=size, margin=MARGIN, floor=FLOOR, dark_badges=True)
