"""Bots that can fill a seat. A bot picks one of the seat's legal actions; it decides from the
seat's own view (never the full state), so it cannot peek at other hands or the deck."""
from __future__ import annotations

import random
from typing import Any


class RandomBot:
    """Uniformly random legal moves: for fuzzing, and as a beginner-level opponent."""

    name = "random"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        actions = game.legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return rng.choice(actions)
