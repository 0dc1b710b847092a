"""`railyard bench`: speed figures printed, never asserted (the machines are shared and noisy;
compare figures within one run).

1. One move end to end through the sessions service at a late-game board: load the game
   from SQLite, validate and apply the move, commit action + snapshot + outbox in one
   transaction, render the board and encode the PNG. p50 / p95 over the late moves of
   several games (every seat is a "person" so each move takes the act() path).
2. Render + encode alone for a late-game board.
3. Random full games per second (rules only, random bots, 4 players).
"""
from __future__ import annotations

import random
import resource
import statistics
import tempfile
import time
from pathlib import Path

from games import registry

GAME = "ticket_to_ride"
LATE_TURN = 90  # moves after this turn count as "late game"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def run_bench(games: int = 200, moves: int = 200) -> int:
    from bot.sessions import Actor, SessionService
    from bot.store import Store
    from render import registry as renderers

    game = registry.get(GAME)
    renderer = renderers.get(GAME)
    planner = game.bots()["planner"]
    print(f"Railyard bench — {GAME}")

    # 1. end-to-end moves at late-game boards -------------------------------------
    samples: list[float] = []
    apply_only: list[float] = []
    seed = 1
    late_view = None
    with tempfile.TemporaryDirectory() as tmp:
        async with Store(Path(tmp) / "bench.sqlite3") as store:
            while len(samples) < moves:
                service = SessionService(store, new_seed=lambda s=seed: s)
                channel = f"bench-{seed}"
                people = [Actor(user_id=f"u{i}", name=f"P{i}") for i in range(4)]
                await service.create(GAME, channel, None, people[0], options={})
                for p in people[1:]:
                    await service.join(channel, p)
                outcome = await service.start(channel, people[0])
                rng = random.Random(seed)
                by_user = {p.user_id: p for p in people}
                state = await service.rebuild(outcome.game_id)
                while outcome.status == "active" and len(samples) < moves:
                    seat = min(outcome.waiting)
                    actor = by_user[outcome.seat_user_ids[seat]]
                    action = planner.choose(game, state, seat, rng)
                    text = game.format_action(action)
                    t0 = time.perf_counter()
                    outcome = await service.act(channel, actor, text)
                    png = renderer.board(outcome.view, outcome.names, "en")
                    elapsed = time.perf_counter() - t0
                    t1 = time.perf_counter()
                    state = game.apply(state, seat, action).state  # follow along for the planner
                    apply_only.append(time.perf_counter() - t1)
                    if getattr(outcome.view, "turn", 0) >= LATE_TURN:
                        samples.append(elapsed)
                        late_view = outcome.view
                        size = len(png)
                seed += 1
    print(f"  move end to end (load, validate, apply, commit, render, encode), late game, n={len(samples)}:")
    print(f"      p50 {_pct(samples, 0.5) * 1000:6.1f} ms   p95 {_pct(samples, 0.95) * 1000:6.1f} ms"
          f"   max {max(samples) * 1000:6.1f} ms   (target p95 ≤ 60 ms)")
    print(f"  rules apply alone: p50 {_pct(apply_only, 0.5) * 1e6:6.0f} µs")

    # 2. render + encode alone -------------------------------------------------------
    names = [f"P{i}" for i in range(late_view.n)]
    renderer.board(late_view, names, "en")  # static layer cached, as in a running bot
    times = []
    for _ in range(30):
        t0 = time.perf_counter()
        png = renderer.board(late_view, names, "en")
        times.append(time.perf_counter() - t0)
    print(f"  render + encode late-game board: p50 {_pct(times, 0.5) * 1000:6.1f} ms"
          f"   p95 {_pct(times, 0.95) * 1000:6.1f} ms   PNG {len(png) / 1024:.0f} KiB")

    # 3. random full games per second ------------------------------------------------
    bot = game.bots()["random"]
    t0 = time.perf_counter()
    actions = 0
    for g in range(games):
        rng = random.Random(g)
        state = game.setup(4, None, g)
        while game.result(state) is None:
            seat = min(game.active_players(state))
            state = game.apply(state, seat, bot.choose(game, state, seat, rng)).state
            actions += 1
    elapsed = time.perf_counter() - t0
    print(f"  random 4-player games: {games / elapsed:6.1f} games/s   ({actions / elapsed:,.0f} actions/s,"
          f" {actions / games:.0f} actions a game; target ≥ 50 games/s)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory (RSS): {peak:.0f} MiB")
    return 0
