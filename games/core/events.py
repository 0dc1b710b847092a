"""Events: what happened, as catalog keys and parameters (never sentences)."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Event(BaseModel):
    """Something that happened, for the log and the posts.

    `key` names a message in the catalog, `params` fill it. `to` is None for a public event;
    otherwise only those seats may see it (a card drawn blind, the tickets offered).
    A param holding a seat or a list of seats is named as one (`seat`, `seats`, `..._seat`,
    `..._seats`: games.core.i18n.is_seat_param) and is shown as the player's name; a param that
    is itself `{"key": ..., "params": {...}}` is translated too.
    """

    model_config = ConfigDict(frozen=True)
    key: str
    params: dict[str, Any] = Field(default_factory=dict)
    to: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        return self.to is None
