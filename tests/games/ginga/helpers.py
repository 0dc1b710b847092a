"""Helpers for the Galactic Railway tests: hand-built positions and boards."""
from __future__ import annotations

from typing import Iterable, Sequence

from games.ginga.board import Board, Placed, index, parse_cell
from games.ginga.models import GingaState, Place
from games.ginga.notation import DIRECTIONS
from games.ginga.rules import GAME
from games.ginga.tiles import tileset

__all__ = ["GAME", "tid", "cell", "place", "placed_row", "state_with", "board_of_rows", "play_rows"]


def tid(name: str) -> int:
    tile = tileset().find(name)
    assert tile is not None, name
    return tile.index


def cell(name: str) -> tuple[int, int]:
    xy = parse_cell(name)
    assert xy is not None, name
    return xy


def place(tile: str, at: str, direction: str) -> Place:
    x, y = cell(at)
    return Place(tile=tid(tile), x=x, y=y, orient=DIRECTIONS[direction])


def placed_row(tile: str, at: str, direction: str, seat: int = 0) -> tuple:
    p = place(tile, at, direction)
    return (p.tile, p.x, p.y, p.orient, seat, 0, 0)


def state_with(placed: Iterable[tuple[str, str, str]] = (), hands: Sequence[Sequence[str]] = (("T1", "T2"), ("T3", "T4")),
               pile: Sequence[str] | None = None, current: int = 0, step: str = "place") -> GingaState:
    """A position built by hand (placements are not checked and score nothing)."""
    rows = [placed_row(*p) for p in placed]
    hand_ids = [[tid(t) for t in h] for h in hands]
    used = {r[0] for r in rows} | {t for h in hand_ids for t in h}
    if pile is None:
        pile_ids = [t for t in range(len(tileset())) if t not in used]
    else:
        pile_ids = [tid(t) for t in pile]
    return GingaState(n=len(hands), seed=0, start=0, pile=pile_ids, hands=hand_ids, placed=rows, current=current,
                   step=step)


def board_of_rows(placed: Iterable[tuple[str, str, str]]) -> Board:
    board = Board()
    for t, at, direction in placed:
        p = place(t, at, direction)
        board.add(Placed(p.tile, p.x, p.y, p.orient))
    return board


def play_rows(moves: Iterable[tuple[str, str, str]], n: int = 2) -> GingaState:
    """Place tiles one after the other through the rules (each must be legal), always as seat
    0 holding just that tile; the rest of the turn order is ignored. The last placement's
    points are in `state.placed[-1]` and `state.latest`."""
    state = state_with(hands=[[] for _ in range(n)], pile=[t.id for t in tileset().tiles])
    for t, at, direction in moves:
        hands = [[tid(t)]] + [[] for _ in range(n - 1)]
        pile = [x for x in state.pile if x != tid(t)]
        state = state.model_copy(update={"hands": hands, "pile": pile, "current": 0, "step": "place",
                                         "passes_in_row": 0})
        state = GAME.apply(state, 0, place(t, at, direction)).state
    return state


def cells_of(*names: str) -> list[int]:
    return [index(*cell(n)) for n in names]
