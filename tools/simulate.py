"""Bot games in bulk, for any game: the loop that plays a seating out with the game's own bots,
the seatings a simulation cycles through, and a pool that plays them on several cores.

What a simulation counts is particular to its game (tools/games/<game>/simulate.py keeps only
that: the seatings it cycles through, what it reads off each game, and its report); how a game
is played out is the same for all:

    played = play_out(game, Seating(4, {"map": "main"}, seed=7, lineup=lineup_for(3, 4)),
                      watch=lambda state, seat, action, result: ..., check=True)
    stats = run(measure, seatings, jobs=2)   # measure(seating) -> what the game counts

A bot draws from one generator seeded with the seating's seed, so a seating always plays the
same game.
"""
from __future__ import annotations

import multiprocessing
import random
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, TypeVar

T = TypeVar("T")
# watch(state before, seat, action, ApplyResult): called after every move
Watch = Callable[[Any, int, Any, Any], None]


@dataclass(frozen=True)
class Seating:
    """One game to play: the player count, the game's options, the seed and a bot per seat."""

    players: int
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    seed: int = 1
    lineup: tuple[str, ...] = ()


@dataclass
class Played:
    state: Any
    moves: int
    seconds: float
    finished: bool  # False: stopped at the move cap, the game still running


def lineup_for(index: int, players: int, all_random: bool = False) -> tuple[str, ...]:
    """The builder bot in every seat; every fourth game one seat (which one varies) plays
    randomly, so the games also meet moves no planner would make."""
    if all_random:
        return ("random",) * players
    seats = ["builder"] * players
    if index % 4 == 3:
        seats[(index // 4) % players] = "random"
    return tuple(seats)


def play_out(game: Any, seating: Seating, *, watch: Watch | None = None, check: bool = False,
             move_cap: int | None = None) -> Played:
    """Play the seating to its end (or to `move_cap` moves), the lowest waited-on seat moving
    first; with `check`, the game's invariants after every move."""
    bots = game.bots()
    rng = random.Random(seating.seed)
    started = time.perf_counter()
    state = game.setup(seating.players, seating.options, seating.seed)
    moves = 0
    while not game.is_over(state) and (move_cap is None or moves < move_cap):
        seat = min(game.active_players(state))
        action = bots[seating.lineup[seat]].choose(game, state, seat, rng)
        result = game.apply(state, seat, action)
        if watch is not None:
            watch(state, seat, action, result)
        state = result.state
        if check:
            game.check_invariants(state)
        moves += 1
    return Played(state, moves, time.perf_counter() - started, game.is_over(state))


def run(measure: Callable[[Any], T], work: Sequence[Any], jobs: int = 1, chunksize: int = 2) -> list[T]:
    """`measure` of every item of `work`, in order; on `jobs` processes when more than one."""
    if jobs <= 1:
        return [measure(item) for item in work]
    # Fresh interpreters, not forks: the caller may be a threaded process (a test run with an
    # event loop and its child watcher), and a fork copies its threads' state half-way.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(measure, work, chunksize=chunksize))


def run_games(play: Callable[..., T], plans: Sequence[tuple], jobs: int = 1, chunksize: int = 2) -> list[T]:
    """`play(*plan)` for every plan (a game's arguments), in order, on `jobs` processes; `play`
    must be a module-level function, for the processes to find it."""
    return run(_play, [(play, plan) for plan in plans], jobs, chunksize)


def _play(job: tuple[Callable[..., T], tuple]) -> T:
    play, plan = job
    return play(*plan)


def spread(values: Sequence[int] | Sequence[float]) -> str:
    """Mean, tenth and ninetieth percentiles, median and range of some figures."""
    if not values:
        return "-"
    q = statistics.quantiles(values, n=10) if len(values) > 1 else [values[0]] * 9
    return (f"mean {statistics.mean(values):.1f}, p10 {q[0]:.0f}, median {statistics.median(values):.0f},"
            f" p90 {q[-1]:.0f}, range {min(values)}–{max(values)}")


def shares(counter: Counter) -> str:
    """Each value with its count and share, in order."""
    total = sum(counter.values()) or 1
    return "  ".join(f"{k}: {v} ({100 * v / total:.0f}%)" for k, v in sorted(counter.items()))
