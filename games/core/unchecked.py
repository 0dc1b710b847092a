"""Pydantic models made without validation, from values the caller vouches for.

The rules make thousands of small values a game (events, offers, the result of each move);
validating each cost more than the move itself where random games are played by the
thousand. The values are the same, so the dump and the equality are too."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

_new = object.__new__
_set = object.__setattr__


def shallow(model: BaseModel) -> Any:
    """A pydantic model's copy sharing its field values (the caller replaces what it changes)."""
    new = _new(type(model))
    _set(new, "__dict__", dict(model.__dict__))
    _set(new, "__pydantic_fields_set__", model.__pydantic_fields_set__)  # never changed here
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


def made(cls: type[BaseModel], fields: dict[str, Any], given: set[str]) -> Any:
    """A model from values the caller vouches for: every field in `fields`, of its declared
    type, `given` the names passed (what pydantic would record as set)."""
    new = _new(cls)
    _set(new, "__dict__", fields)
    _set(new, "__pydantic_fields_set__", given)
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new
