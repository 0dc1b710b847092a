"""Catan Express's own lines for `railyard bench catan_express` (tools/bench.py prints what
`benchmark_lines` returns).

1. Random full games, 4 players, rules only: every move is `legal_actions` (the whole menu,
   offers included), a random pick by kind, and `apply` — the way other engines are timed with
   random players (`random_games`). Also the random bot's own path, which lists the offers only
   when it draws one.
2. The builder bot's decision time by phase over whole games.
3. `apply` and `view` at late boards: the last quarter of the moves of builder games.
"""
from __future__ import annotations

import random
import time
from collections import defaultdict
from typing import Any, Callable

from games.core.stats import percentile
from games.catan_express.bots import RandomBot


def random_games(game: Any, games: int = 5, players: int = 4, first_seed: int = 1, menu: bool = True,
                 options: dict | None = None, clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Random full games timed end to end (by `clock`: wall time, or time.process_time for
    the CPU time). With `menu`, each move takes the full `legal_actions` list and picks from
    it; without, the random bot chooses its own way."""
    bot = RandomBot()
    actions = 0
    started = clock()
    for g in range(games):
        rng = random.Random(first_seed + g)
        state = game.setup(players, options, first_seed + g)
        while state.phase != "over":
            seat = min(game.active_players(state))
            if menu:
                action = bot.pick(game.legal_actions(state, seat), rng)
            else:
                action = bot.choose(game, state, seat, rng)
            state = game.apply(state, seat, action).state
            actions += 1
    elapsed = clock() - started
    return {"games": games, "actions": actions, "seconds": elapsed, "games_per_s": games / elapsed,
            "actions_per_s": actions / elapsed, "actions_per_game": actions / games}


def random_lines(game: Any, games: int = 5) -> list[str]:
    lines = []
    for menu, how in ((True, "legal_actions + pick + apply"), (False, "the random bot's own menus + apply")):
        r = random_games(game, games, menu=menu)
        lines.append(f"random 4-player games ({how}): {r['games_per_s']:.2f} games/s,"
                     f" {r['actions_per_s']:,.0f} actions/s, {r['actions_per_game']:.0f} actions a game")
    return lines


def builder_lines(game: Any, games: int = 4, players: int = 4) -> list[str]:
    """Builder games on both maps: decision time by phase, `apply` and `view` late in the game."""
    bot = game.bots()["builder"]
    by_phase: dict[str, list[float]] = defaultdict(list)
    late_apply: list[float] = []
    late_view: list[float] = []
    for g in range(games):
        rng = random.Random(g)
        state = game.setup(players, {"map": ("main", "islands")[g % 2]}, g)
        played = []
        while state.phase != "over":
            seat = min(game.active_players(state))
            t0 = time.perf_counter()
            action = bot.choose(game, state, seat, rng)
            by_phase[state.phase].append(time.perf_counter() - t0)
            played.append((state, seat, action))
            state = game.apply(state, seat, action).state
        for before, seat, action in played[len(played) * 3 // 4:]:
            t0 = time.perf_counter()
            game.apply(before, seat, action)
            late_apply.append(time.perf_counter() - t0)
        for before, seat, _ in played[len(played) * 3 // 4::7]:
            t0 = time.perf_counter()
            game.view(before, seat)
            late_view.append(time.perf_counter() - t0)
    every = [x for xs in by_phase.values() for x in xs]
    ms = 1000
    return [
        f"builder decisions over {games} {players}-player games: p50 {percentile(every, 0.5) * ms:.2f} ms,"
        f" p95 {percentile(every, 0.95) * ms:.2f} ms, max {max(every) * ms:.1f} ms; by phase (p50/p95 ms): "
        + ", ".join(f"{ph} {percentile(xs, 0.5) * ms:.2f}/{percentile(xs, 0.95) * ms:.2f}" for ph, xs in sorted(by_phase.items())),
        f"apply at late boards (last quarter of those games, n={len(late_apply)}): p50"
        f" {percentile(late_apply, 0.5) * ms:.2f} ms, p95 {percentile(late_apply, 0.95) * ms:.2f} ms,"
        f" max {max(late_apply) * ms:.1f} ms",
        f"view (with its legal menu) at late boards (n={len(late_view)}): p50 {percentile(late_view, 0.5) * ms:.2f} ms,"
        f" p95 {percentile(late_view, 0.95) * ms:.2f} ms, max {max(late_view) * ms:.1f} ms",
    ]


def benchmark_lines(game: Any) -> list[str]:
    return random_lines(game) + builder_lines(game)
