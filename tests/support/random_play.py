"""Random play from a game's setup for the rules' property tests: whole games between bots with
the invariants checked on the way, and short walks of random legal moves that lead to the
positions a test then pokes at.

Deterministic for a seed: the rules get `seed` and every draw comes from random.Random(seed).
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence


def checked_game(game: Any, seed: int, n: int, max_steps: int, options: Any = None, *,
                 bots: Sequence[str] = ("random",), check_every: int = 1,
                 seat_of: Callable[[Any, list[int]], int] | None = None,
                 check: Callable[[Any], None] | None = None) -> tuple[Any, int]:
    """A whole game with `game.bots()[bots[seat % len(bots)]]` in each seat; the mover drawn at
    random among the active seats, or `seat_of(state, active)`. After every `check_every`-th
    move the state keeps the game's invariants (and passes `check`). Returns the final state
    and how many moves it took; a game still running after `max_steps` moves is a dead end."""
    rng = random.Random(seed)
    chosen = [game.bots()[bots[i % len(bots)]] for i in range(n)]
    state = game.setup(n, options, seed)
    for step in range(max_steps):
        if game.result(state) is not None:
            return state, step
        active = sorted(game.active_players(state))
        assert active, "no one can move but the game is not over"
        seat = seat_of(state, active) if seat_of is not None else rng.choice(active)
        state = game.apply(state, seat, chosen[seat].choose(game, state, seat, rng)).state
        if step % check_every == 0:
            game.check_invariants(state)
            if check is not None:
                check(state)
    raise AssertionError(f"seed {seed}: no end after {max_steps} actions")


def random_walk(game: Any, seed: int, n: int, steps: int, options: Any = None, *,
                seat_of: Callable[[Any], int] | None = None,
                offered: set | None = None) -> tuple[Any, random.Random]:
    """Up to `steps` random legal moves from the setup, fewer where the game ends first: the
    mover drawn among the active seats (or `seat_of(state)`), then one of its legal moves.
    Every legal move on the way goes into `offered` when given. Returns the state reached and
    the generator, to draw on from there."""
    rng = random.Random(seed)
    state = game.setup(n, options, seed)
    for _ in range(steps):
        if game.result(state) is not None:
            break
        seat = seat_of(state) if seat_of is not None else rng.choice(sorted(game.active_players(state)))
        legal = game.legal_actions(state, seat)
        if offered is not None:
            offered.update(legal)
        state = game.apply(state, seat, rng.choice(legal)).state
    return state, rng
