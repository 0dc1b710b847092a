"""Reading a bundled data file (a map, a component list, a track) into its pydantic model.

Every game's data files are JSON validated by a model; a file that cannot be read, is not
JSON or does not fit the model is one kind of failure for whoever loads it: a DataError naming
what the file is, where it is and what is wrong."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from games.core.errors import DataError

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


class Names(BaseModel):
    """A thing's name in each language a data file gives it (a city, a map), none empty."""

    model_config = ConfigDict(extra="forbid")
    en: str
    ja: str

    @field_validator("en", "ja")
    @classmethod
    def _not_empty(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("names must not be empty")
        return v


def broken(what: str, path: Path | str, problem: str) -> DataError:
    """The one way a data file's fault is said: "<what> <path> is broken: <problem>"."""
    return DataError(f"{what} {path} is broken: {problem}")


def read_model(path: Path | str, model: type[M], what: str) -> M:
    """`model` validated from the JSON file at `path`; DataError "<what> <path> is broken: …"."""
    try:
        return model.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, ValidationError, TypeError) as exc:  # TypeError: a validator given the wrong shape
        raise broken(what, path, str(exc)) from exc


def read_built(path: Path | str, model: type[M], what: str, build: Callable[[M, Path], T]) -> T:
    """What `build(spec, path)` makes of the file's `model` (a map laid out from its rows and
    labels). A ValueError it raises (a label that does not parse, an edge between hexes that
    are not neighbours) is the file's fault, said as read_model says it."""
    spec = read_model(path, model, what)
    try:
        return build(spec, Path(path))
    except ValueError as exc:
        raise broken(what, path, str(exc)) from exc
