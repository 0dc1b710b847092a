"""Checks every game must pass, written once and called from each game's property tests."""
from __future__ import annotations

import random
from typing import Any


def walk_checking_round_trips(game: Any, seed: int, n: int, steps: int, options: Any = None) -> None:
    """Play up to `steps` random legal moves. At every step: each legal move survives its
    notation, `apply` leaves its input unchanged, and the state round-trips through JSON."""
    rng = random.Random(seed)
    state = game.setup(n, options, seed)
    for _ in range(steps):
        if game.result(state) is not None:
            break
        seat = rng.choice(sorted(game.active_players(state)))
        legal = game.legal_actions(state, seat)
        for action in legal:
            assert game.parse_action(game.format_action(action)) == action
        action = rng.choice(legal)
        snapshot = state.model_dump_json()
        state = game.apply(state, seat, action).state
        assert game.load_state(snapshot).model_dump_json() == snapshot  # input unchanged, JSON round-trip
    # The stored JSON is the whole state: reloading it gives an equal state.
    assert game.load_state(game.dump_state(state)) == state
