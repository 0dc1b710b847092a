"""Recorded games: a game's seed, options and move list, replayed through the rules.

A record is plain JSON (what `railyard demo --record` writes and `railyard replay` reads):

    {"game": "ticket_to_ride", "players": 3, "options": {}, "seed": 42,
     "moves": [[0, "keep 4,17,22"], [1, "keep 3,9"], ...],
     "result": [{"seat": 0, "rank": 1, "total": 97}, ...]}     # optional: what to expect

Replaying checks every move against the rules (an illegal move stops the replay with its
position in the record) and the game's conservation invariants after every move.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from games import registry
from games.core.errors import IllegalAction
from games.core.protocol import Result


class ExpectedScore(BaseModel):
    seat: int
    rank: int
    total: int


class GameRecord(BaseModel):
    game: str
    players: int
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    moves: list[tuple[int, str]]
    result: list[ExpectedScore] | None = None
    # The seats' names when the record was made (an exported game); replay prints them.
    names: list[str] | None = None


class ReplayError(Exception):
    def __init__(self, index: int, seat: int, notation: str, error: IllegalAction) -> None:
        super().__init__(f"move {index + 1} (seat {seat}: {notation!r}) was refused: {error.code} {error.params}")
        self.index, self.error = index, error


def replay(record: GameRecord, check_invariants: bool = True) -> tuple[Any, Result | None]:
    game = registry.get(record.game)
    state = game.setup(record.players, record.options, record.seed)
    for index, (seat, notation) in enumerate(record.moves):
        try:
            state = game.apply(state, seat, game.parse_action(notation)).state
        except IllegalAction as exc:
            raise ReplayError(index, seat, notation, exc) from None
        if check_invariants:
            game.check_invariants(state)
    return state, game.result(state)


def scores(result: Result | None) -> list[ExpectedScore]:
    if result is None:
        return []
    return [ExpectedScore(seat=p.seat, rank=p.rank, total=p.total) for p in sorted(result.players, key=lambda p: p.seat)]
