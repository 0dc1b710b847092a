"""Which games Railyard knows: the rules column of data/games.json (games/catalog.py), plus
games that tests register for themselves."""
from __future__ import annotations

from functools import lru_cache

from games.catalog import entries, load
from games.core.protocol import Game

# name -> "module:attribute"; imported on first use so one broken game cannot stop the others.
_GAMES: dict[str, str] = {name: entry.rules for name, entry in entries().items()}


class UnknownGame(KeyError):
    pass


def register(name: str, target: str) -> None:
    """Add a game by "module:attribute" (tests register small fixture games this way)."""
    _GAMES[name] = target
    get.cache_clear()


def unregister(name: str) -> None:
    _GAMES.pop(name, None)
    get.cache_clear()


def names() -> list[str]:
    return list(_GAMES)


@lru_cache(maxsize=None)
def get(name: str) -> Game:
    try:
        target = _GAMES[name]
    except KeyError:
        raise UnknownGame(name) from None
    return load(target)
