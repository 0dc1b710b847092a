"""The one registration of every game: data/games.json names, per game, its rules, its
renderer and its look on Discord; its words are in data/<game>/ (rules), data/<game>/render/
and data/<game>/discord/ (games/core/i18n.py reads them all). Each layer reads
its own column from here (games.registry the rules, render.registry the renderer, the Discord
adapter the look), so adding a game is one entry, and a test checks every entry's parts.
This module reads the data; the layers import what it names through `load`."""
from __future__ import annotations

import importlib
import json
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from games.core.errors import DataError
from games.core.i18n import DATA_DIR

GAMES_FILE = DATA_DIR / "games.json"


class GameEntry(BaseModel):
    rules: str  # "module:attribute" of the Game object
    renderer: str  # "module:attribute" of the renderer object
    look: str  # module that registers the game's Discord look


@lru_cache(maxsize=1)
def entries() -> dict[str, GameEntry]:
    try:
        raw = json.loads(GAMES_FILE.read_text(encoding="utf-8"))
        return {name: GameEntry.model_validate(entry) for name, entry in raw.items()}
    except (OSError, ValueError, ValidationError) as exc:  # pydantic's error is a ValueError too
        raise DataError(f"{GAMES_FILE} cannot be read: {exc}") from exc


def load(target: str) -> Any:
    """The object a "module:attribute" entry names, imported now."""
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise DataError(f"{target!r} is not \"module:attribute\"")
    return getattr(importlib.import_module(module_name), attr)
