"""Whole games played by a game's own bot, for tests that need real positions (a board late in
the game, a two-tile turn, a final result) rather than hand-built states.

Deterministic: the rules get `seed`, the bot draws from random.Random(seed), and when several
seats may act (simultaneous choices) the lowest seat moves first.
"""
from __future__ import annotations

import random
from typing import Any, NamedTuple


class Step(NamedTuple):
    state: Any  # before the move
    seat: int
    action: Any
    after: Any  # the state the move left


def bot_steps(game: Any, players: int, seed: int, bot: str, options: dict | None = None) -> list[Step]:
    """Every move of a whole game played by `game.bots()[bot]` in every seat."""
    chooser = game.bots()[bot]
    rng = random.Random(seed)
    state = game.setup(players, options or {}, seed)
    steps: list[Step] = []
    while not game.is_over(state):
        seat = min(game.active_players(state))
        action = chooser.choose(game, state, seat, rng)
        after = game.apply(state, seat, action).state
        steps.append(Step(state, seat, action, after))
        state = after
    return steps


def bot_states(game: Any, players: int, seed: int, bot: str, options: dict | None = None) -> list[Any]:
    """The states of such a game, from the setup to the end."""
    steps = bot_steps(game, players, seed, bot, options)
    return [steps[0].state, *(s.after for s in steps)] if steps else [game.setup(players, options or {}, seed)]
