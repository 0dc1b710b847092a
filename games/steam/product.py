"""Moves listed as every combination of a few choices, made only when one is looked at.

Urbanize (town × colour × supply space) and City Growth (city × supply space) have hundreds
of legal moves that differ only in their parts; a bot picks one of them at random and needs
the count and that one move, not a few hundred validated models. `Product` is that list as a
read-only sequence — the same length, the same order (the last part varies fastest), the same
move at every index — and `Chain` joins two such lists as `+` would.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod
from typing import Any


class Product(Sequence):
    def __init__(self, make: Callable[..., Any], parts: Sequence[Sequence[Any]]) -> None:
        self._make = make
        self._parts = tuple(tuple(p) for p in parts)
        self._len = prod(len(p) for p in self._parts) if self._parts else 0

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        if not isinstance(index, int):
            raise TypeError("a Product takes integer indices only")
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(index)
        picked = []
        for part in reversed(self._parts):
            index, k = divmod(index, len(part))
            picked.append(part[k])
        return self._make(*reversed(picked))


class Chain(Sequence):
    def __init__(self, first: Sequence[Any], second: Sequence[Any]) -> None:
        self._first, self._second = first, second

    def __len__(self) -> int:
        return len(self._first) + len(self._second)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        if not isinstance(index, int):
            raise TypeError("a Chain takes integer indices only")
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        n = len(self._first)
        return self._first[index] if index < n else self._second[index - n]
