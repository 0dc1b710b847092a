"""What the benches and simulations know of particular games, kept out of the rules packages:
a game's own bench lines (`railyard bench <game>` prints them after the shared figures), its
bulk simulations (`python -m tools.games.<game>.simulate`) and whatever else measures it.

`BENCH_LINES` names, per game, the function `(game) -> list[str]` of its own figures; a game
without an entry has only the shared ones. Listed by name, imported when that game is benched."""
from __future__ import annotations

from typing import Any, Callable

from games.catalog import load

BENCH_LINES: dict[str, str] = {
    "steam": "tools.games.steam.bench:benchmark_lines",
    "catan_express": "tools.games.catan_express.bench:benchmark_lines",
    "ginga": "tools.games.ginga.bench:benchmark_lines",
}


def bench_lines(name: str) -> Callable[[Any], list[str]] | None:
    target = BENCH_LINES.get(name)
    if target is None:
        return None
    return load(target)
