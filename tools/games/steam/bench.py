"""Steam's own lines for `railyard bench steam` (tools/bench.py prints what `benchmark_lines` returns).

1. The worst case of the delivery search at locomotive 6: tools/games/steam/delivery_bench.py's dense
   network on each map (every place linked to every place a short run of track reaches), per
   cube, per player with a cube of every colour on every city, and per player with the cubes of
   a game's start.
2. The same search on real late boards: the last delivery phase of builder games, every seat's
   locomotive raised to 6, all of one seat's deliveries listed (as the chooser does).
3. The builder bot's decision time by phase over whole games.
"""
from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict

from games.core.stats import percentile
from tools.games.steam.delivery_bench import worst_case_report
from games.steam.map import MAP_IDS


def delivery_lines(repeat: int = 3, maps: tuple[str, ...] = MAP_IDS) -> list[str]:
    lines = []
    for map_id in maps:
        r = worst_case_report(map_id, seats=4, repeat=repeat)
        lines.append(f"delivery search, locomotive {r['locomotive']}, dense {map_id} network ({r['links']} links,"
                     f" {r['places']} places): per cube p50 {r['per_cube_ms']['p50']:.2f} / max"
                     f" {r['per_cube_ms']['max']:.2f} ms; per player, every colour on every city p50"
                     f" {r['per_player_ms']['p50']:.1f} / max {r['per_player_ms']['max']:.1f} ms"
                     f" (up to {max(r['deliveries_per_player'])} deliveries); with the starting cubes p50"
                     f" {r['per_player_setup_cubes_ms']['p50']:.1f} / max {r['per_player_setup_cubes_ms']['max']:.1f} ms")
    return lines


def game_lines(game, games: int = 3, players: int = 4) -> list[str]:
    """Builder games on each map: decision times, and the delivery search at locomotive 6 on
    each game's last delivery phase."""
    bot = game.bots()["builder"]
    by_phase: dict[str, list[float]] = defaultdict(list)
    late: list[float] = []
    found: list[int] = []
    for g in range(games):
        map_id = MAP_IDS[g % len(MAP_IDS)]
        rng = random.Random(g)
        state = game.setup(players, {"map": map_id}, g)
        last_deliver = None
        while state.phase != "over":
            seat = game.current(state)
            t0 = time.perf_counter()
            action = bot.choose(game, state, seat, rng)
            by_phase[state.phase].append(time.perf_counter() - t0)
            if state.phase == "deliver" and not state.pending:
                last_deliver = state
            state = game.apply(state, seat, action).state
        if last_deliver is not None:
            board = last_deliver.clone()
            for p in board.players:
                p.locomotive = 6
            for seat in range(players):
                t0 = time.perf_counter()
                found.append(len(game.deliveries(board, seat)))
                late.append(time.perf_counter() - t0)
    every = [x for xs in by_phase.values() for x in xs]
    lines = [f"builder decisions over {games} {players}-player games: p50 {percentile(every, 0.5) * 1000:.1f} ms,"
             f" p95 {percentile(every, 0.95) * 1000:.1f} ms, max {max(every) * 1000:.1f} ms; by phase (p95): "
             + ", ".join(f"{ph} {percentile(xs, 0.95) * 1000:.1f}" for ph, xs in sorted(by_phase.items()))]
    if late:
        lines.append(f"delivery search on the last delivery phase of those games at locomotive 6: per player p50"
                     f" {statistics.median(late) * 1000:.1f} ms, max {max(late) * 1000:.1f} ms"
                     f" (up to {max(found)} deliveries)")
    return lines


def benchmark_lines(game) -> list[str]:
    return delivery_lines() + game_lines(game)

