"""Broken copies of a game's bundled JSON data files, and the checks that its loader refuses
them with a DataError: every game reads its map, tiles or tracks from such a file, and a
broken one must stop the game with words that say which file and what is wrong."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from games.core.errors import DataError


def broken_copy(source: Path, folder: Path, breakage: Callable[[Any], Any]) -> Path:
    """A copy of the data file `source` in `folder`, under the same name, with `breakage(data)`
    applied to its data first."""
    data = json.loads(source.read_text(encoding="utf-8"))
    breakage(data)
    bad = folder / source.name
    bad.write_text(json.dumps(data), encoding="utf-8")
    return bad


def assert_names_the_file_and_the_fault(load: Callable[[Path], Any], bad: Path, needle: str) -> None:
    """`load(bad)` raises a DataError whose message holds the file's path and `needle`."""
    with pytest.raises(DataError) as err:
        load(bad)
    assert str(bad) in str(err.value) and needle in str(err.value)


def assert_unreadable_is_refused(load: Callable[[Path], Any], bad: Path, text: str) -> None:
    """A file at `bad` holding `text`, which is not JSON, is refused with a DataError."""
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DataError):
        load(bad)
