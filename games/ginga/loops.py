"""The longest loop through a placed tile (GT-10, GT-11): exact, and fast on a full board.

The loop graph's nodes are occupied cells; its edges join orthogonal neighbours (a success
edge between two tiles, or the two halves of a tile with exits on both). We want the longest
simple cycle through a cell of the placed tile. Longest cycle is NP-hard in general, and a
depth-first search, even with colour-count bounds and memory of (cell, reachable region)
pairs, took tens of seconds on some near-complete 8×8 grids. But every board fits in 8×8
cells, and on a grid that narrow a *frontier DP* ("plug DP", the broken-profile method for
Hamiltonian cycles) is exact with a hard bound on the work:

* Cells are visited row by row. The state is the frontier: for each of the ≤ 9 places where a
  piece of the future cycle may cross the line between visited and unvisited cells, whether a
  path end crosses there and how the ends pair up (a balanced bracket word: "(" and ")" are the
  two ends of one open path). A state keeps the best value reaching it.
* A cell is unused, or used by exactly two of its four sides (left/up coming in, right/down
  going out, each only along an edge of the loop graph). Joining the two ends of one open path
  closes a cycle; that is allowed only when no other path is open, so the cycle is simple and
  is the only one. A flag in the state says whether a cell of the placed tile is on it; once
  both tile cells are behind the frontier, states without the flag are dropped.
* The value is the number of used cells, with the used edges packed below it in the same int,
  so "max" keeps the longest and the cycle itself can be read back for drawing.

The number of states is bounded by the bracket words of the frontier (Motzkin numbers: 835 for
9 places, twice that with the flag) whatever the board, so the worst case is the complete 8×8
grid: any real board's states are a subset of it. Only the cells that can be on a cycle through
the tile are scanned (its component, with dead ends removed), along the narrower side.

`longest_cycle` returns the length and the cells in cycle order; `brute_force_cycle` (for
tests) enumerates every simple cycle.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from games.ginga.board import STRIDE, bits

_VAL = 1 << 128  # one used cell in a DP value; the used edges live in the bits below
_FLAG = 1 << 40  # state bit: a cell of the placed tile is on the path structure
_FRONT = _FLAG - 1


class Graph:
    """The loop graph as direction masks (joined to the east/west/south/north neighbour)."""

    __slots__ = ("e", "w", "s", "n", "nodes")

    def __init__(self, join_e: int, join_s: int) -> None:
        self.e = join_e
        self.w = join_e << 1
        self.s = join_s
        self.n = join_s << STRIDE
        self.nodes = self.e | self.w | self.s | self.n

    def neighbours(self, mask: int) -> int:
        return (((mask & self.e) << 1) | ((mask & self.w) >> 1) | ((mask & self.s) << STRIDE)
                | ((mask & self.n) >> STRIDE))

    def flood(self, seed: int, allowed: int) -> int:
        e, w, s, n = self.e, self.w, self.s, self.n
        reached = frontier = seed & allowed
        while frontier:
            frontier = (((frontier & e) << 1) | ((frontier & w) >> 1) | ((frontier & s) << STRIDE)
                        | ((frontier & n) >> STRIDE)) & allowed & ~reached
            reached |= frontier
        return reached

    def core(self, mask: int) -> int:
        """`mask` without the cells that cannot be on a cycle inside it: repeatedly drop
        those with fewer than two neighbours in it."""
        e, w, s, n = self.e, self.w, self.s, self.n
        while True:
            a = mask & e & (mask >> 1)
            b = mask & w & (mask << 1)
            c = mask & s & (mask >> STRIDE)
            d = mask & n & (mask << STRIDE)
            two = (a & b) | ((a | b) & c) | ((a | b | c) & d)
            if two == mask:
                return mask
            mask = two


def cycle_region(join_e: int, join_s: int, cells: Iterable[int]) -> int:
    """The cells a cycle through `cells` may use: their component, without dead ends."""
    g = Graph(join_e, join_s)
    core = g.core(g.nodes)
    seed = 0
    for c in cells:
        seed |= 1 << c
    if not core & seed:
        return 0
    return g.flood(seed, core)


def longest_cycle(join_e: int, join_s: int, cells: Sequence[int],
                  work: list[int] | None = None) -> tuple[int, list[int]]:
    """The longest simple cycle of the loop graph through any of `cells` (bit numbers):
    (number of cells, the cells in cycle order); (0, []) when there is none. `work`, if
    given, gets the number of DP states visited appended (for the benchmark)."""
    region = cycle_region(join_e, join_s, cells)
    if not region:
        return 0, []
    xs = [i % STRIDE for i in bits(region)]
    ys = [i // STRIDE for i in bits(region)]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    transpose = (x1 - x0) > (y1 - y0)  # scan along the narrower side: fewer frontier states
    if transpose:
        width, height = y1 - y0 + 1, x1 - x0 + 1

        def glob(u: int, v: int) -> int:
            return (y0 + u) * STRIDE + (x0 + v)
    else:
        width, height = x1 - x0 + 1, y1 - y0 + 1

        def glob(u: int, v: int) -> int:
            return (y0 + v) * STRIDE + (x0 + u)
    tile = set(cells)
    # Per local cell (row-major in (v, u)): column, edge to u+1?, edge to v+1?, tile cell?
    layout = []
    last_tile = -1
    for v in range(height):
        for u in range(width):
            i = glob(u, v)
            node = region >> i & 1
            right = down = False
            if node and u + 1 < width:
                j = glob(u + 1, v)
                right = bool(region >> j & 1) and _joined(join_e, join_s, i, j)
            if node and v + 1 < height:
                j = glob(u, v + 1)
                down = bool(region >> j & 1) and _joined(join_e, join_s, i, j)
            is_tile = node and i in tile
            if is_tile:
                last_tile = v * width + u
            layout.append((u, right, down, is_tile))
    value = _frontier_dp(layout, width, last_tile, work)
    if not value:
        return 0, []
    length = value // _VAL
    edges = value % _VAL
    return length, _order(edges, width, glob)


def _joined(join_e: int, join_s: int, i: int, j: int) -> bool:
    a, b = min(i, j), max(i, j)
    if b - a == 1:
        return bool(join_e >> a & 1)
    return bool(join_s >> a & 1)


def _frontier_dp(layout: list[tuple[int, bool, bool, bool]], width: int, last_tile: int,
                 work: list[int] | None = None) -> int:
    """Best value (cells × _VAL + used edges) of a single cycle through a tile cell; 0 if none."""
    cur: dict[int, int] = {0: 0}
    best = 0
    visited = 0
    full = 2 * width  # bit position of the plug right of the last column
    for k, (u, right, down, is_tile) in enumerate(layout):
        if u == 0 and k:
            # A new row: the plug right of the last cell must be empty; shift by one place.
            cur = {(st << 2) & _FRONT | (st & _FLAG): val for st, val in cur.items() if not (st >> full) & 3}
        sh = 2 * u
        sh1 = sh + 2
        clear = ~(15 << sh)
        e_bit = (1 << k) if right else 0  # used edges: bit k (east), bit 64 + k (south)
        s_bit = (1 << (64 + k)) if down else 0
        flag_here = _FLAG if is_tile else 0
        nxt: dict[int, int] = {}
        get = nxt.get
        visited += len(cur)
        for state, val in cur.items():
            pl = (state >> sh) & 3
            pu = (state >> sh1) & 3
            base = state & clear
            if pl == 0 and pu == 0:
                if get(base, -1) < val:  # the cell stays off the cycle
                    nxt[base] = val
                if right and down:  # a new path starts here
                    new = base | (1 << sh) | (2 << sh1) | flag_here
                    nv = val + _VAL + e_bit + s_bit
                    if get(new, -1) < nv:
                        nxt[new] = nv
                continue
            if pl == 0 or pu == 0:  # one end comes in and goes on, right or down
                p = pl | pu
                if down:
                    new = base | (p << sh) | flag_here
                    nv = val + _VAL + s_bit
                    if get(new, -1) < nv:
                        nxt[new] = nv
                if right:
                    new = base | (p << sh1) | flag_here
                    nv = val + _VAL + e_bit
                    if get(new, -1) < nv:
                        nxt[new] = nv
                continue
            nv = val + _VAL
            if pl == 1 and pu == 2:  # the two ends of one path meet: a cycle closes here
                if not base & _FRONT and (base & _FLAG or is_tile) and nv > best:
                    best = nv
                continue
            if pl == 2 and pu == 1:  # the ends of two different paths join
                new = base | flag_here
            elif pl == 1:  # "(" "(": the partner of the upper one becomes "("
                new = (base ^ (3 << (2 * _partner_right(state, u + 1)))) | flag_here
            else:  # ")" ")": the partner of the left one becomes ")"
                new = (base ^ (3 << (2 * _partner_left(state, u)))) | flag_here
            if get(new, -1) < nv:
                nxt[new] = nv
        if k == last_tile:  # past the tile: only structures that hold a tile cell matter
            nxt = {st: v for st, v in nxt.items() if st & _FLAG}
        cur = nxt
    if work is not None:
        work.append(visited)
    return best


def _partner_right(state: int, pos: int) -> int:
    depth = 0
    while True:
        c = (state >> (2 * pos)) & 3
        if c == 1:
            depth += 1
        elif c == 2:
            depth -= 1
            if depth == 0:
                return pos
        pos += 1


def _partner_left(state: int, pos: int) -> int:
    depth = 0
    while True:
        c = (state >> (2 * pos)) & 3
        if c == 2:
            depth += 1
        elif c == 1:
            depth -= 1
            if depth == 0:
                return pos
        pos -= 1


def _order(edges: int, width: int, glob) -> list[int]:
    """The cycle's cells in order, from its used edges (local numbering)."""
    adjacency: dict[int, list[int]] = {}
    for bit in bits(edges):
        k = bit % 64
        other = k + 1 if bit < 64 else k + width
        adjacency.setdefault(k, []).append(other)
        adjacency.setdefault(other, []).append(k)
    start = min(adjacency)
    order = [start]
    prev, node = None, start
    while True:
        a, b = adjacency[node]
        nxt = b if a == prev else a
        if nxt == start:
            break
        order.append(nxt)
        prev, node = node, nxt
    return [glob(k % width, k // width) for k in order]


def brute_force_cycle(join_e: int, join_s: int, cells: Iterable[int]) -> int:
    """Length of the longest simple cycle through any of `cells`, by plain enumeration of
    every simple path from each cell (no pruning at all). For tests on small boards."""
    g = Graph(join_e, join_s)
    adjacency = {v: list(bits(g.neighbours(1 << v))) for v in bits(g.nodes)}
    best = 0
    for s in cells:
        if s not in adjacency:
            continue
        stack = [(s, 1 << s, 1)]
        while stack:
            v, used, length = stack.pop()
            for w in adjacency[v]:
                if w == s and length >= 3:
                    best = max(best, length)
                elif not used >> w & 1:
                    stack.append((w, used | 1 << w, length + 1))
    return best
