"""Figures the bench commands print (tools/bench.py and the games' own bench lines)."""
from __future__ import annotations

from typing import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The value at fraction `q` (0.5: the median, 0.95: p95) of the sorted values, the nearest
    rank: a figure that was measured, never one interpolated between two."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]
