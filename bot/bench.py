"""`railyard bench [game]`: speed figures printed, never asserted (the machines are shared and
noisy; compare figures within one run).

1. One move end to end through the sessions service in the late game: load the game from
   SQLite, validate and apply the move, commit action + snapshot + outbox in one
   transaction, render the board and encode the PNG. p50 / p95 over the second half of
   several games (every seat is a "person", so each move takes the act() path).
2. Render + encode alone for the last late-game board.
3. Random full games per second (rules only, random bots, 4 players or the most allowed).
4. Whatever the game adds: a game may define `benchmarks() -> list[str]` (e.g. its hardest
   scoring positions) and those lines are printed too.
"""
from __future__ import annotations

import random
import resource
import tempfile
import time
from pathlib import Path

from games import registry


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def run_bench(game_name: str = "ticket_to_ride", games: int = 200, moves: int = 200) -> int:
    from bot.sessions import Actor, SessionService
    from bot.store import Store
    from render import registry as renderers

    game = registry.get(game_name)
    renderer = renderers.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    players = min(4, game.max_players)
    print(f"Railyard bench — {game_name}, {players} players")

    # 1. end-to-end moves in the late game ------------------------------------------
    samples: list[float] = []
    apply_only: list[float] = []
    seed = 1
    late_view = None
    with tempfile.TemporaryDirectory() as tmp:
        async with Store(Path(tmp) / "bench.sqlite3") as store:
            while len(samples) < moves:
                service = SessionService(store, new_seed=lambda s=seed: s)
                channel = f"bench-{seed}"
                people = [Actor(user_id=f"u{i}", name=f"P{i}") for i in range(players)]
                await service.create(game_name, channel, None, people[0], options={})
                for p in people[1:]:
                    await service.join(channel, p)
                outcome = await service.start(channel, people[0])
                rng = random.Random(seed)
                by_user = {p.user_id: p for p in people}
                state = await service.rebuild(outcome.game_id)
                times: list[float] = []
                views = []
                while outcome.status == "active":
                    seat = min(outcome.waiting)
                    actor = by_user[outcome.seat_user_ids[seat]]
                    action = smart.choose(game, state, seat, rng)
                    text = game.format_action(action)
                    t0 = time.perf_counter()
                    outcome = await service.act(channel, actor, text)
                    renderer.board(outcome.view, outcome.names, "en")
                    times.append(time.perf_counter() - t0)
                    views.append(outcome.view)
                    t1 = time.perf_counter()
                    state = game.apply(state, seat, action).state  # follow along for the bot
                    apply_only.append(time.perf_counter() - t1)
                half = len(times) // 2
                samples.extend(times[half:])
                late_view = views[-2] if len(views) > 1 else views[-1]
                seed += 1
    print(f"  move end to end (load, validate, apply, commit, render, encode), late game, n={len(samples)}:")
    print(f"      p50 {_pct(samples, 0.5) * 1000:6.1f} ms   p95 {_pct(samples, 0.95) * 1000:6.1f} ms"
          f"   max {max(samples) * 1000:6.1f} ms   (target p95 ≤ 60 ms)")
    print(f"  rules apply alone: p50 {_pct(apply_only, 0.5) * 1e6:6.0f} µs")

    # 2. render + encode alone -------------------------------------------------------
    names = [f"P{i}" for i in range(players)]
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
        state = game.setup(players, None, g)
        while game.result(state) is None:
            seat = min(game.active_players(state))
            state = game.apply(state, seat, bot.choose(game, state, seat, rng)).state
            actions += 1
    elapsed = time.perf_counter() - t0
    print(f"  random {players}-player games: {games / elapsed:6.1f} games/s   ({actions / elapsed:,.0f} actions/s,"
          f" {actions / games:.0f} actions a game; target ≥ 50 games/s)")

    # 4. the game's own figures ------------------------------------------------------
    extra = getattr(game, "benchmarks", None)
    if callable(extra):
        for line in extra():
            print(f"  {line}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory (RSS): {peak:.0f} MiB")
    return 0
