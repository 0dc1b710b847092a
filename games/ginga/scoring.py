"""Galactic Railway scoring: each placement scores at once (GT-9, GT-10); the end ranks by
total (GT-12)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.core.protocol import PlayerResult, Result, ScoreLine
from games.core.ranking import rank
from games.ginga.board import Board, Placed, board_of, index, xy
from games.ginga.loops import longest_cycle
from games.ginga.models import Best, GingaState
from games.ginga.tiles import tileset

CATEGORIES = ["stations", "loops"]


@dataclass(frozen=True)
class Score:
    """What one placement scores, and where (for the board image)."""

    stations: int  # station points: the stations of its network, 0 unless ≥ 2 and it has one
    station_cells: tuple[int, ...]  # cells (bits) of those stations
    loop: int  # cells of the longest loop through it (0 if none)
    loop_cells: tuple[int, ...]  # that loop's cells in order

    @property
    def points(self) -> int:
        return self.stations + self.loop


def placed_key(state: GingaState) -> tuple[Placed, ...]:
    return tuple(Placed(t, x, y, o) for t, x, y, o, *_ in state.placed)


def score_on(board: Board, p: Placed) -> Score:
    """Score tile `p` placed on `board` (which does not hold it yet)."""
    after = board.with_tile(p)
    tile = tileset().tiles[p.tile]
    (lx, ly), (rx, ry) = p.cells
    stations: tuple[int, ...] = ()
    station_points = 0
    if tile.station:  # GT-9: only a tile with a station scores stations
        stations = tuple(after.station_network(len(after.placed) - 1))
        if len(stations) >= 2:
            station_points = len(stations)
        else:
            stations = ()
    length, cycle = longest_cycle(after.join_e, after.join_s, [index(lx, ly), index(rx, ry)])
    return Score(stations=station_points, station_cells=stations, loop=length, loop_cells=tuple(cycle))


@lru_cache(maxsize=8192)
def evaluate(key: tuple[Placed, ...], tile: int, x: int, y: int, orient: int) -> Score:
    """The score of a (legal) placement on the board `key`; memoised, because the view, the
    move labels and the bot all ask for the same placements."""
    return score_on(board_of(key), Placed(tile, x, y, orient))


def cells_xy(cells: tuple[int, ...]) -> list[tuple[int, int]]:
    return [xy(c) for c in cells]


def totals(state: GingaState, seat: int) -> tuple[int, int]:
    """(station points, loop points) of a seat so far."""
    stations = loops = 0
    for _, _, _, _, who, st, lp in state.placed:
        if who == seat:
            stations += st
            loops += lp
    return stations, loops


def final_result(state: GingaState) -> Result:
    rows: list[PlayerResult] = []
    for seat in range(state.n):
        mine = [row for row in state.placed if row[4] == seat]
        station_scores = [row[5] for row in mine if row[5]]
        loop_scores = [row[6] for row in mine if row[6]]
        lines = [
            ScoreLine(category="stations", points=sum(station_scores), key="ginga.line.stations",
                      params={"count": len(station_scores), "best": max(station_scores, default=0)}),
            ScoreLine(category="loops", points=sum(loop_scores), key="ginga.line.loops",
                      params={"count": len(loop_scores), "best": max(loop_scores, default=0)}),
        ]
        rows.append(PlayerResult(
            seat=seat, rank=0, total=sum(line.points for line in lines), lines=lines,
            stats={"tiles": len(mine), "best_loop": max(loop_scores, default=0),
                   "best_stations": max(station_scores, default=0), "loops": len(loop_scores)},
        ))
    ties = rank(rows, (), "ginga.tie.shared")  # GT-12: equal scores share the place
    return Result(players=rows, categories=list(CATEGORIES), label_prefix="ginga", reason="end", ties=ties)


def score_history(state: GingaState) -> list[list[int]]:
    """Every seat's total after each turn that placed a tile (a turn is the run of placements
    by one seat; passes change no score). Derived from the placements, so games stored before
    this existed have their whole history too."""
    history: list[list[int]] = []
    running = [0] * state.n
    previous = None
    for _, _, _, _, who, st, lp in state.placed:
        if who != previous and previous is not None:
            history.append(list(running))
        running[who] += st + lp
        previous = who
    if previous is not None:
        history.append(list(running))
    return history


def bests(state: GingaState) -> list[Best]:
    """Per seat: the placement that scored the longest loop and the one that scored the most
    station points, with the cells that made them (replayed from the placements)."""
    out = [Best(seat=seat) for seat in range(state.n)]
    key = placed_key(state)
    for number, (tile, x, y, o, who, st, lp) in enumerate(state.placed):
        best = out[who]
        if lp > best.loop_points or st > best.station_points:
            score = evaluate(key[:number], tile, x, y, o)
            if lp > best.loop_points:
                best.loop_points, best.loop = lp, cells_xy(score.loop_cells)
            if st > best.station_points:
                after = board_of(key[: number + 1])
                nets = after.networks()
                track = [c for i, p in enumerate(after.placed) if nets[i] == nets[number] for c in p.cells]
                best.station_points, best.stations, best.track = st, cells_xy(score.station_cells), track
    return out
