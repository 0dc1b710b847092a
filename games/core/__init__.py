"""The protocol every Railyard game implements, and the pieces they share."""
from games.core.errors import IllegalAction, DataError
from games.core.protocol import ApplyResult, Event, Game, Move, PlayerResult, Result, ScoreLine, Tie
from games.core.rng import SeededRng

__all__ = [
    "ApplyResult", "DataError", "Event", "Game", "IllegalAction", "Move", "PlayerResult",
    "Result", "ScoreLine", "SeededRng", "Tie",
]
