"""How fast the building phase answers on a busy board: the legal build listing and one build.

`busy_board` plays random legal builds on the Northeast map for four seats over several game
turns (three placements each, links lapsing at the end of each turn as ST-4 says) from a fixed
seed, so every run times the same mid/late-game board: many tiles, several owners, unowned
incomplete links, town tiles and crossings.

`report` times, on that board and for every seat, `legal_builds` and `apply_build` of one of
the listed builds, each on a fresh copy of the rails (nothing remembered from an earlier call,
as after a real move), and prints p50/p95 in milliseconds, wall clock and CPU:

    python -m tools.games.steam.build_bench
"""
from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from games.core.stats import percentile
from games.steam.building import Build, BuildTurn, apply_build, legal_builds
from games.steam.map import SteamMap, steam_map
from games.steam.tiles import Stock, TileSet, tileset
from games.steam.track import Rails, lapse


@dataclass
class Board:
    m: SteamMap
    rails: Rails
    stock: Stock
    turn: int


def fresh(rails: Rails) -> Rails:
    """The same rails as a new object: nothing computed about it yet."""
    return Rails(rails.tiles, rails.new_cities, rails.links, rails.next_id)


def busy_board(seed: int = 7, seats: int = 4, turns: int = 6, map_id: str = "northeast",
               tiles: TileSet | None = None) -> Board:
    """A board after `turns` game turns of random legal building by `seats` players."""
    tiles = tiles or tileset()
    m = steam_map(map_id)
    rnd = random.Random(seed)
    rails, stock = Rails(), tiles.full_stock()
    for turn in range(1, turns + 1):
        for seat in range(seats):
            bt = BuildTurn(seat, turn)
            while bt.placed < bt.limit:
                options = legal_builds(m, rails, stock, bt, tiles)
                if not options:
                    break
                done = apply_build(m, rails, stock, bt, rnd.choice(options), tiles)
                rails, stock, bt = done.rails, done.stock, done.turn
        rails, _ = lapse(m, rails, turn, tiles)
    return Board(m, rails, stock, turns + 1)


def _line(name: str, wall: list[float], cpu: list[float]) -> str:
    w, c = [x * 1000 for x in wall], [x * 1000 for x in cpu]
    return (f"{name:<18} p50 {statistics.median(w):6.2f} ms  p95 {percentile(w, 0.95):6.2f} ms"
            f"   (cpu p50 {statistics.median(c):6.2f}  p95 {percentile(c, 0.95):6.2f})  n={len(w)}")


def _timed(f):
    """f() with its wall-clock and CPU time; the CPU time shows the work itself when other
    processes share the machine."""
    w, c = time.perf_counter(), time.process_time()
    out = f()
    return out, time.perf_counter() - w, time.process_time() - c


def report(rounds: int = 20, seed: int = 7, turns: int = 8) -> str:
    tiles = tileset()
    t0 = time.perf_counter()
    board = busy_board(seed, turns=turns, tiles=tiles)
    made = time.perf_counter() - t0
    m, rails, stock = board.m, board.rails, board.stock
    rnd = random.Random(seed)
    times: dict[str, tuple[list[float], list[float]]] = {"legal_builds": ([], []), "apply_build (one)": ([], [])}
    counts = []
    for _ in range(rounds):
        for seat in range(4):
            bt = BuildTurn(seat, board.turn)
            r = fresh(rails)
            options, w, c = _timed(lambda: legal_builds(m, r, stock, bt, tiles))
            times["legal_builds"][0].append(w)
            times["legal_builds"][1].append(c)
            counts.append(len(options))
            if options:
                b: Build = rnd.choice(options)
                r = fresh(rails)
                _, w, c = _timed(lambda: apply_build(m, r, stock, bt, b, tiles))
                times["apply_build (one)"][0].append(w)
                times["apply_build (one)"][1].append(c)
    return "\n".join([
        f"busy Northeast board after {turns} turns of 4 seats: {len(rails.tiles)} tiles, {len(rails.links)} links "
        f"({sum(1 for x in rails.links if x.owner is None)} unowned); built in {made:.1f} s",
        f"legal builds per seat: {min(counts)}..{max(counts)}",
        *(_line(name, w, c) for name, (w, c) in times.items()),
    ])


if __name__ == "__main__":
    print(report())
