"""Reading a bundled data file (a map, a component list, a track) into its pydantic model.

Every game's data files are JSON validated by a model; a file that cannot be read, is not
JSON or does not fit the model is one kind of failure for whoever loads it: a DataError naming
what the file is, where it is and what is wrong."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from games.core.errors import DataError

M = TypeVar("M", bound=BaseModel)


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


def read_model(path: Path | str, model: type[M], what: str) -> M:
    """`model` validated from the JSON file at `path`; DataError "<what> <path> is broken: …"."""
    try:
        return model.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, ValidationError, TypeError) as exc:  # TypeError: a validator given the wrong shape
        raise DataError(f"{what} {path} is broken: {exc}") from exc
