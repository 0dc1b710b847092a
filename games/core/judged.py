"""The answer a refusal worked out, handed to the handler that makes the same move.

A game whose check of a move is the move's own work (Steam's build and delivery checks lay the
track or find the route) would do that work twice per move: once when the referee asks for the
refusal, once in the handler. The refusal keeps its answer here with what it was worked out from;
the handler takes it if it is for the very same inputs, else works it out anew. A kept answer is
taken once (no two moves share its events) and is per thread (render threads and a bench's
threads never see each other's).
"""
from __future__ import annotations

import threading
from typing import Callable, Generic, TypeVar

Inputs = TypeVar("Inputs")
Answer = TypeVar("Answer")


class LastJudgement(Generic[Inputs, Answer]):
    """One kept (inputs, answer) per thread."""

    def __init__(self) -> None:
        self._local = threading.local()

    def keep(self, inputs: Inputs, answer: Answer) -> None:
        self._local.kept = (inputs, answer)

    def take(self, same: Callable[[Inputs], bool], work: Callable[[], Answer]) -> Answer:
        """The kept answer if `same(kept inputs)`, else `work()`; either way nothing stays kept."""
        kept = getattr(self._local, "kept", None)
        self._local.kept = None
        if kept is not None and same(kept[0]):
            return kept[1]
        return work()
