"""Typed errors raised by the rules layer.

The rules never build user-facing sentences: an error carries a stable code and
parameters, and the message catalog (data/messages/*.json) turns it into English or
Japanese for whoever asked.
"""
from __future__ import annotations

from typing import Any


def message_key_of(code: str) -> str:
    """The catalog key of an error code: `<game>.error.<what>` for a game's `<game>.<what>`."""
    owner, dot, what = code.partition(".")
    return f"{owner}.error.{what}" if dot else f"error.{code}"


class CodedError(Exception):
    """An error a user is told about: a stable code (tests and catalogs rely on it) plus the
    parameters its message needs. A game's codes are named `<game>.<what>` and its messages
    `<game>.error.<what>` (every word of a game under its one prefix); the others are
    `error.<code>`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params

    @property
    def message_key(self) -> str:
        return message_key_of(self.code)


class IllegalAction(CodedError):
    """An action that the rules refuse."""


class DataError(Exception):
    """A bundled data file or a stored game that cannot be read. Says which and why."""
