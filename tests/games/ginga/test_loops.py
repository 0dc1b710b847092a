"""The loop search (GT-10, GT-11): exact on hand-built boards, equal to a plain brute force on
thousands of random small boards, and a real cycle every time."""
from __future__ import annotations

import random
import time

import pytest

from games.ginga.board import Board, Placed, index
from games.ginga.loops import Graph, brute_force_cycle, longest_cycle
from games.ginga.tiles import tileset


def grid_graph(w: int, h: int, p: float = 1.0, rng: random.Random | None = None, x0: int = 3, y0: int = 3):
    """Join masks of a w×h block of cells (each edge kept with probability p)."""
    je = js = 0
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            if x + 1 < x0 + w and (rng is None or rng.random() < p):
                je |= 1 << index(x, y)
            if y + 1 < y0 + h and (rng is None or rng.random() < p):
                js |= 1 << index(x, y)
    return je, js


def assert_is_cycle(je: int, js: int, cycle: list[int], length: int, through: list[int]) -> None:
    g = Graph(je, js)
    assert len(cycle) == length == len(set(cycle)) and length % 2 == 0 and length >= 4
    assert set(cycle) & set(through)
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        assert g.neighbours(1 << a) >> b & 1, (a, b)


def naive_first_cycle(je: int, js: int, s: int) -> int:
    """What a naive search reports: the first cycle through s that a depth-first walk (lowest
    cell first) closes."""
    g = Graph(je, js)

    def walk(v: int, path: list[int]) -> int:
        for w in (b for b in range(256) if g.neighbours(1 << v) >> b & 1):
            if w == s and len(path) >= 3:
                return len(path)
            if w not in path:
                found = walk(w, path + [w])
                if found:
                    return found
        return 0

    return walk(s, [s])


def test_square_of_four_and_ring_of_six_and_twelve():
    je, js = grid_graph(2, 2)
    assert longest_cycle(je, js, [index(3, 3)])[0] == 4
    je, js = grid_graph(3, 2)
    length, cycle = longest_cycle(je, js, [index(4, 3)])
    assert length == 6
    assert_is_cycle(je, js, cycle, 6, [index(4, 3)])
    # a 4×4 ring (the inner 2×2 left out): 12 cells
    je, js = grid_graph(4, 4)
    for x in (4, 5):
        je &= ~(1 << index(x, 4)) & ~(1 << index(x, 5))
        js &= ~(1 << index(x, 4))
    for y in (4, 5):
        js &= ~(1 << index(4, y)) & ~(1 << index(5, y))
    je &= ~(1 << index(3, 4)) & ~(1 << index(3, 5)) & ~(1 << index(5, 4)) & ~(1 << index(5, 5))
    js &= ~(1 << index(4, 3)) & ~(1 << index(5, 3)) & ~(1 << index(4, 5)) & ~(1 << index(5, 5))
    length, cycle = longest_cycle(je, js, [index(3, 3)])
    assert length == 12
    assert_is_cycle(je, js, cycle, 12, [index(3, 3)])


def test_the_longest_loop_must_snake_where_a_naive_search_stops_at_a_short_one():
    # A full 4×4 block: every cell is on a 4-cycle, but the longest loop through the corner
    # visits all 16 cells, snaking in and out.
    je, js = grid_graph(4, 4)
    s = index(3, 3)
    assert naive_first_cycle(je, js, s) == 8  # along the top row, down, back: 8 cells
    length, cycle = longest_cycle(je, js, [s])
    assert length == 16 == brute_force_cycle(je, js, [s])
    assert_is_cycle(je, js, cycle, 16, [s])
    # Snaking through a comb: a 5×4 block without two inner edges still has a 20-cell loop.
    je, js = grid_graph(5, 4)
    js &= ~(1 << index(4, 3)) & ~(1 << index(6, 4))
    assert longest_cycle(je, js, [s])[0] == brute_force_cycle(je, js, [s])


def test_no_loop_gives_zero():
    je, js = grid_graph(4, 1)  # a path
    assert longest_cycle(je, js, [index(3, 3), index(4, 3)]) == (0, [])
    assert longest_cycle(0, 0, [index(7, 7)]) == (0, [])
    je, js = grid_graph(2, 2)
    assert longest_cycle(je | (1 << index(5, 3)), js, [index(6, 3)]) == (0, [])  # a tail off a square


def test_the_complete_eight_by_eight_board_has_a_loop_through_every_cell():
    je, js = grid_graph(8, 8)
    t0 = time.perf_counter()
    length, cycle = longest_cycle(je, js, [index(7, 7), index(8, 7)])
    elapsed = time.perf_counter() - t0
    assert length == 64
    assert_is_cycle(je, js, cycle, 64, [index(7, 7), index(8, 7)])
    assert elapsed < 1.0  # ~10 ms on a laptop; only a gross regression fails this


@pytest.mark.parametrize("block", range(4))
def test_fast_search_equals_brute_force_on_random_grid_graphs(block):
    rng = random.Random(1000 + block)
    for _ in range(600):
        w, h = rng.randint(2, 5), rng.randint(2, 4)
        je, js = grid_graph(w, h, rng.choice((0.55, 0.7, 0.85, 1.0)), rng, x0=rng.randint(0, 3), y0=rng.randint(0, 3))
        g = Graph(je, js)
        node_list = [b for b in range(256) if g.nodes >> b & 1]
        if not node_list:
            continue
        a = rng.choice(node_list)
        cells = [a]
        nb = [b for b in range(256) if g.neighbours(1 << a) >> b & 1]
        if nb and rng.random() < 0.6:
            cells.append(rng.choice(nb))
        length, cycle = longest_cycle(je, js, cells)
        assert length == brute_force_cycle(je, js, cells), (je, js, cells)
        if length:
            assert_is_cycle(je, js, cycle, length, cells)


def random_tile_board(rng: random.Random, w: int, h: int) -> Board:
    """Real tiles on a random domino tiling of a w×h area (any way round, legality ignored)."""
    cells = {(x, y) for x in range(w) for y in range(h)}
    tiles = list(range(len(tileset())))
    rng.shuffle(tiles)
    board = Board()
    for y in range(h):
        for x in range(w):
            if (x, y) not in cells:
                continue
            options = [d for d in ((1, 0), (0, 1)) if (x + d[0], y + d[1]) in cells]
            if not options:
                cells.discard((x, y))
                continue
            dx, dy = rng.choice(options)
            cells -= {(x, y), (x + dx, y + dy)}
            flip = rng.random() < 0.5
            lx, ly = (x + dx, y + dy) if flip else (x, y)
            orient = {(1, 0): 0, (0, 1): 1, (-1, 0): 2, (0, -1): 3}[(dx, dy) if not flip else (-dx, -dy)]
            board.add(Placed(tiles.pop(), 4 + lx, 4 + ly, orient))
    return board


@pytest.mark.parametrize("block", range(4))
def test_fast_search_equals_brute_force_on_random_tile_boards(block):
    rng = random.Random(2000 + block)
    checked = 0
    for _ in range(400):
        w, h = rng.choice(((4, 4), (5, 4), (4, 5), (6, 3), (3, 6), (4, 3)))
        board = random_tile_board(rng, w, h)
        for p in rng.sample(board.placed, min(3, len(board.placed))):
            (lx, ly), (rx, ry) = p.cells
            cells = [index(lx, ly), index(rx, ry)]
            length, cycle = longest_cycle(board.join_e, board.join_s, cells)
            assert length == brute_force_cycle(board.join_e, board.join_s, cells)
            if length:
                assert_is_cycle(board.join_e, board.join_s, cycle, length, cells)
            checked += 1
    assert checked >= 1000
