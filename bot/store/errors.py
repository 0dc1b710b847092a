"""Errors raised by the store. None of them is shown to players as is: the sessions layer
turns them into SessionError codes with catalog messages."""
from __future__ import annotations


class StoreError(Exception):
    """Something is wrong with the database itself."""


class MigrationError(StoreError):
    """The schema cannot be brought to the version this code expects."""


class StaleVersion(StoreError):
    """A guarded write found the game at another version than the writer expected.

    Nothing was written (the transaction was rolled back). `current` is the version in the
    database now (None if the game does not exist)."""

    def __init__(self, game_id: int, expected: int, current: int | None) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, database has {current}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class ChannelBusy(StoreError):
    """A channel already has an open (lobby or active) game: the partial unique index said no."""

    def __init__(self, channel_id: str) -> None:
        super().__init__(f"channel {channel_id} already has an open game")
        self.channel_id = channel_id


class ClaimLost(StoreError):
    """A process tried to finish (mark delivered, failed, given up, record a part of) an
    outbox row that another process holds now: its own lease ran out and the other took the
    row over. Nothing was written (the transaction was rolled back); the row is the other
    process's to finish. `holder` is the owner id that holds it now."""

    def __init__(self, outbox_id: int, owner: str, holder: str | None) -> None:
        super().__init__(f"outbox row {outbox_id}: held by {holder}, not by {owner}")
        self.outbox_id = outbox_id
        self.owner = owner
        self.holder = holder


class Conflict(StoreError):
    """The database rolled a transaction back to settle a conflict with another one: a
    deadlock between two transactions (PostgreSQL 40P01) or a serialization failure (40001).

    Nothing was written. Running the whole transaction again, from its reads, is how the
    database means it to be answered (`retry_conflicts`, bot/store/retry.py); `reason` is the
    database's own message."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the database rolled the transaction back to settle a conflict: {reason}")
        self.reason = reason
