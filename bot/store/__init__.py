"""SQLite persistence for Railyard (aiosqlite, WAL, numbered migrations)."""
from bot.store.db import (
    OUTBOX_BASE_DELAY,
    OUTBOX_KEEP_DEAD,
    OUTBOX_KEEP_DELIVERED,
    OUTBOX_MAX_DELAY,
    PAUSE_ENV,
    PAUSE_MARKER_ENV,
    Store,
    Tx,
)
from bot.store.errors import ChannelBusy, MigrationError, StaleVersion, StoreError
from bot.store.migrate import MIGRATIONS_DIR, Migration, load_migrations
from bot.store.models import (
    ActionRow,
    DeliveryContact,
    GameRow,
    OutboxPart,
    OutboxRow,
    SeatRow,
    TimerRow,
    UserPrefs,
)

__all__ = [
    "ActionRow", "ChannelBusy", "DeliveryContact", "GameRow", "MIGRATIONS_DIR", "Migration",
    "MigrationError", "OUTBOX_BASE_DELAY", "OUTBOX_KEEP_DEAD", "OUTBOX_KEEP_DELIVERED",
    "OUTBOX_MAX_DELAY", "OutboxPart", "OutboxRow", "PAUSE_ENV", "PAUSE_MARKER_ENV",
    "SeatRow", "StaleVersion", "Store", "StoreError", "TimerRow", "Tx", "UserPrefs",
    "load_migrations",
]
