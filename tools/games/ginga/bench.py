"""Loop-scoring figures for `railyard bench ginga` (GT-11: the worst case must stay fast).

The loop search's work is the number of frontier states its DP visits (see loops.py). It is
largest where the loop graph is large, dense and full of cycles, so the figures come from:

* HARD_BOARDS: full 8×8 boards of all 32 tiles, found by a hill climb that rearranges the
  tiles (which tile where, which way round, and the domino tiling itself) to maximise that
  work — dense boards of four- and five-exit tiles with many overlapping loops. They need not
  be reachable in play (a superset of real positions is only harder). Regenerate with
  `python -m tools.games.ginga.bench --search SEEDS ITERATIONS`.
* The complete 8×8 grid: every cell joined to every neighbour. No tile set can build it (there
  are not enough exits), but any real board's DP states are a subset of its states, so it
  bounds every position from above.
* Real games between scorer bots: every placement's loop scored as the rules do.

Each figure is the time of `longest_cycle` for one placed tile (best of three runs, so a
scheduler hiccup does not count), taking every tile of the board in turn as the one placed.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from games.ginga.board import Board, Placed, index, parse_cell
from games.ginga.loops import longest_cycle

# "T<n>@<cell><r|d|l|u>" per tile; the DP-work figure in the comment is from the search.
HARD_BOARDS = {
    "A": ("T3@E6u T10@G5l T12@I5l T5@J5d T21@L5l T26@G6l T6@H6r T28@K7u T27@L7u T1@E7d T22@F8u T30@G7r "
          "T32@J7l T31@G9u T29@H8d T24@J8l T15@K8d T18@L8d T25@F9l T19@I9d T7@J9d T14@F10l T2@G10r "
          "T20@K11u T13@L11u T17@E12u T23@G11l T16@H11d T9@I11d T11@J12u T4@F12r T8@L12l"),  # 9501 states
    "B": ("T10@E6u T21@F5d T30@G5d T7@I5l T16@J6u T2@K5d T4@L6u T14@H6r T13@E7d T31@F7d T23@G8u T3@H7r "
          "T15@K7l T1@L8u T8@H8r T9@K8l T24@F9l T18@G10u T29@H9d T27@I9d T6@J9d T32@K9d T17@L9d T19@E11u "
          "T28@F11u T26@G11d T22@H12u T5@I12u T11@J12u T12@K12u T20@L11d T25@E12r"),  # 8788 states
    "C": ("T15@E6u T14@F6u T18@G5r T13@J5l T32@L5l T16@H6l T29@I7u T27@J6d T6@L6l T5@E7r T11@H7l T9@K8u "
          "T19@L7d T26@F8l T31@G9u T22@I8l T23@J8d T30@E9r T21@H9r T24@K9r T4@E10d T1@F11u T25@H10l "
          "T28@I10d T12@J11u T3@K10r T2@G11r T20@K11d T8@L12u T17@E12r T10@H12l T7@I12r"),  # 8296 states
}
DIRS = {"r": 0, "d": 1, "l": 2, "u": 3}


def parse_board(spec: str) -> Board:
    board = Board()
    for token in spec.split():
        tile, rest = token.split("@")
        xy = parse_cell(rest[:-1])
        assert xy is not None, token
        board.add(Placed(int(tile[1:]) - 1, xy[0], xy[1], DIRS[rest[-1]]))
    return board


def complete_grid() -> Board:
    """The complete 8×8 grid graph as a board's join masks (not buildable with real tiles)."""
    board = Board()
    for y in range(4, 12):
        for x in range(4, 12):
            if x < 11:
                board.join_e |= 1 << index(x, y)
            if y < 11:
                board.join_s |= 1 << index(x, y)
    board.placed = [Placed(0, x, y, 0) for y in range(4, 12) for x in range(4, 12, 2)]
    return board


def time_placement(board: Board, p: Placed, repeat: int = 3) -> tuple[float, int, int]:
    """(seconds, loop length, DP states) of scoring the loop through tile p on board."""
    (lx, ly), (rx, ry) = p.cells
    cells = [index(lx, ly), index(rx, ry)]
    best = float("inf")
    length = work = 0
    for _ in range(repeat):
        states: list[int] = []
        t0 = time.perf_counter()
        length, _ = longest_cycle(board.join_e, board.join_s, cells, states)
        best = min(best, time.perf_counter() - t0)
        work = states[0] if states else 0
    return best, length, work


def board_figures(board: Board) -> tuple[float, float, int, int]:
    """(worst s, median s, longest loop, most DP states) over every tile as the one placed."""
    results = [time_placement(board, p) for p in board.placed]
    times = [r[0] for r in results]
    return max(times), statistics.median(times), max(r[1] for r in results), max(r[2] for r in results)


def real_game_times(game: Any, games: int = 8, players: int = 3) -> list[float]:
    """Loop-scoring times over whole games of `game` (Galactic Railway's rules object, given
    by the caller so this module stays below the rules that list it as their benchmark)."""
    from games.ginga.scoring import placed_key
    from games.ginga.board import board_of

    GAME = game

    times = []
    for seed in range(games):
        rng = random.Random(seed)
        bot = GAME.bots()["scorer"]
        state = GAME.setup(players, None, 9000 + seed)
        while GAME.result(state) is None:
            action = bot.choose(GAME, state, state.current, rng)
            state = GAME.apply(state, state.current, action).state
        key = placed_key(state)
        board = board_of(key)
        for p in board.placed:
            times.append(time_placement(board, p, repeat=1)[0])
    return times


def benchmark_lines(game: Any) -> list[str]:
    lines = ["loop scoring (longest loop through the placed tile; every tile of the board as the one placed):"]
    worst = 0.0
    for name, spec in HARD_BOARDS.items():
        w, med, length, work = board_figures(parse_board(spec))
        worst = max(worst, w)
        lines.append(f"    hard full board {name} (32 tiles): worst {w * 1000:5.1f} ms   median {med * 1000:5.1f} ms"
                     f"   longest loop {length}   DP states ≤ {work}")
    w, med, length, work = board_figures(complete_grid())
    lines.append(f"    complete 8×8 grid (upper bound, not buildable): worst {w * 1000:5.1f} ms   median {med * 1000:5.1f} ms"
                 f"   loop {length}   DP states ≤ {work}")
    times = sorted(real_game_times(game))
    p99 = times[min(len(times) - 1, int(0.99 * (len(times) - 1)))]
    lines.append(f"    finished scorer-bot games, every tile: worst {times[-1] * 1000:5.1f} ms   p99 {p99 * 1000:5.1f} ms"
                 f"   (n={len(times)})")
    lines.append(f"    worst case found on tile boards: {worst * 1000:.1f} ms (target ≤ 20 ms)")
    return lines


# ------------------------------------------------------------------------------- the search
def search(seed: int, iterations: int) -> tuple[int, str]:
    """Hill-climb a full board of all 32 tiles towards the most DP work; returns (work, spec)."""
    rng = random.Random(seed)
    pair: dict[tuple[int, int], tuple[int, int]] = {}
    for y in range(8):
        for x in range(0, 8, 2):
            pair[(x, y)], pair[(x + 1, y)] = (x + 1, y), (x, y)

    def flip(p: dict) -> bool:
        x, y = rng.randrange(7), rng.randrange(7)
        a, b, c, d = (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)
        if p[a] == b and p[c] == d:
            p[a], p[c], p[b], p[d] = c, a, d, b
            return True
        if p[a] == c and p[b] == d:
            p[a], p[b], p[c], p[d] = b, a, d, c
            return True
        return False

    for _ in range(400):
        flip(pair)

    def dominoes(p: dict) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        out, seen = [], set()
        for y in range(8):
            for x in range(8):
                if (x, y) not in seen:
                    seen |= {(x, y), p[(x, y)]}
                    out.append(((x, y), p[(x, y)]))
        return out

    def spec_of(p: dict, tiles: list[int], turned: list[bool]) -> str:
        out = []
        for ((a, b), t, f) in zip(dominoes(p), tiles, turned):
            lx, ly = b if f else a
            rx, ry = a if f else b
            d = "rdlu"[[(1, 0), (0, 1), (-1, 0), (0, -1)].index((rx - lx, ry - ly))]
            out.append(f"T{t + 1}@{'ABCDEFGHIJKLMNO'[4 + lx]}{5 + ly}{d}")
        return " ".join(out)

    def work_of(spec: str) -> int:
        board = parse_board(spec)
        return max(time_placement(board, board.placed[k], repeat=1)[2] for k in (0, 10, 21, 31))

    tiles = list(range(32))
    rng.shuffle(tiles)
    turned = [rng.random() < 0.5 for _ in range(32)]
    best = work_of(spec_of(pair, tiles, turned))
    for _ in range(iterations):
        p2, t2, f2 = dict(pair), list(tiles), list(turned)
        move = rng.random()
        if move < 0.4:
            i, j = rng.randrange(32), rng.randrange(32)
            t2[i], t2[j] = t2[j], t2[i]
        elif move < 0.7:
            f2[rng.randrange(32)] ^= True
        elif not flip(p2):
            continue
        work = work_of(spec_of(p2, t2, f2))
        if work >= best:
            pair, tiles, turned, best = p2, t2, f2, work
    return best, spec_of(pair, tiles, turned)


if __name__ == "__main__":  # python -m tools.games.ginga.bench [--search SEEDS ITERATIONS]
    if len(sys.argv) >= 2 and sys.argv[1] == "--search":
        seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 4
        iterations = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
        found = sorted((search(s, iterations) for s in range(seeds)), reverse=True)
        for work, spec in found:
            print(work, spec)
    else:
        from games import registry  # run as a script: the rules come from the registry

        print("\n".join(benchmark_lines(registry.get("ginga"))))
