"""Seeded randomness.

Every random decision in a game comes from the seed stored in the game's state plus a
counter of how many draws were made so far, so replaying the action log from the seed
reproduces the game exactly. Never use the global `random` functions in games/.
"""
from __future__ import annotations

import hashlib
import random
from typing import MutableSequence, TypeVar

T = TypeVar("T")


def derive(seed: int, counter: int, salt: str = "") -> int:
    """A stable 64-bit number from (seed, counter, salt); the same on every Python version."""
    digest = hashlib.blake2b(f"{seed}:{counter}:{salt}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class SeededRng:
    """A private `random.Random` for one (seed, counter) pair: shuffles and dice rolls."""

    def __init__(self, seed: int, counter: int, salt: str = "") -> None:
        self._rng = random.Random(derive(seed, counter, salt))

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._rng.shuffle(items)

    def randint(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)

    def choice(self, items):  # noqa: ANN001 - any sequence
        return self._rng.choice(items)
