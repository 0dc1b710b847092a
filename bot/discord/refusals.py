"""What the adapter itself refuses, as exceptions the one error handler (errors.py) answers."""
from __future__ import annotations

from typing import Any


class UserError(Exception):
    """A request the adapter itself refuses; `key` names a catalog message."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class StaleClick(Exception):
    """A component drawn for another version or another game than the channel's current one."""

    def __init__(self, ended: bool = False) -> None:
        super().__init__("stale click")
        self.ended = ended
