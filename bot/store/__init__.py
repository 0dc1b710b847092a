"""Persistence for Railyard: SQLite (aiosqlite, WAL) as the embedded default, PostgreSQL
(asyncpg) for several processes on one database, behind one interface (`StoreBackend`,
whose transactions are `StoreTx`), each with its own numbered migrations.

`open_store(url)` opens the store a DATABASE_URL names.

Several processes on one database (PostgreSQL, or SQLite on one machine) share the outbox
and the timers through claims: a process takes the rows it is about to deliver
(`claim_outbox`) and the timers it is about to fire (`claim_timers`) under its owner id
with a lease (`claimed_by`, `claimed_until`, migration 0005 / PostgreSQL 0002). Nobody else
takes a row while the lease runs; the holder renews it while a delivery runs
(`renew_claims`) and clears it by finishing the row (`mark_delivered`, `mark_failed`,
`give_up`) or rescheduling the timer (`set_timer`). Given the owner, finishing refuses a row
another process has taken over (ClaimLost, nothing written). A process killed with SIGKILL
just stops renewing: its rows and timers are free again once its lease has run out, and the
process that takes a row over counts the interrupted attempt (the row may be out in part,
which its delivery then looks for first, see bot/discord/outbox.py).

PostgreSQL may roll a transaction back to settle a deadlock or a serialization failure;
the store raises Conflict (nothing written) and the unit of work that opened the
transaction runs again (`retry_conflicts`, `retries_conflicts`: bot/store/retry.py).
"""
from __future__ import annotations

from typing import Any

from bot.store.base import (
    CLAIM_LEASE,
    OUTBOX_BASE_DELAY,
    OUTBOX_KEEP_DEAD,
    OUTBOX_KEEP_DELIVERED,
    OUTBOX_MAX_DELAY,
    OUTBOX_PRUNE_BATCH,
    PAUSE_ENV,
    PAUSE_MARKER_ENV,
    StoreBackend,
    StoreTx,
)
from bot.store.db import SqliteTx, Store
from bot.store.errors import ChannelBusy, ClaimLost, Conflict, MigrationError, StaleVersion, StoreError
from bot.store.migrate import MIGRATIONS_DIR, MIGRATIONS_PG_DIR, Migration, load_migrations
from bot.store.models import (
    ActionRow,
    DeliveryContact,
    GameRow,
    LeagueRow,
    LeagueTable,
    OutboxPart,
    OutboxRow,
    RatingRow,
    RatingRules,
    ResultRow,
    SeatRow,
    TimerRow,
    UserPrefs,
)
from bot.store.pg import PgStore, PgTx, mask_url
from bot.store.retry import retries_conflicts, retry_conflicts

# What the service layer annotates its transactions with: the interface, whichever backend.
Tx = StoreTx

URL_HELP = "DATABASE_URL must start with sqlite:/// or postgresql://"
# Settings that only a connection pool has; SQLite's Store (one connection) ignores them, so
# one set of settings serves either URL.
POOL_OPTIONS = frozenset({"min_size", "max_size", "connect_timeout"})


def parse_database_url(url: str) -> tuple[str, str]:
    """("sqlite", path) or ("postgresql", url) for a DATABASE_URL.

    `sqlite:///relative/path`, `sqlite:////absolute/path` and a bare path (no scheme, as the
    setting used to be) name a SQLite file; `postgresql://...` and `postgres://...` a
    PostgreSQL database. Anything else is a StoreError saying what is expected."""
    url = (url or "").strip()
    lowered = url.lower()
    if lowered.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if path:
            return "sqlite", path
        raise StoreError(f"{URL_HELP}: sqlite:/// needs a file path after it (got {url!r})")
    if lowered.startswith(("postgresql://", "postgres://")):
        return "postgresql", url
    if not url or "://" in url or lowered.startswith("sqlite:"):
        raise StoreError(f"{URL_HELP} (got {mask_url(url)!r})")
    return "sqlite", url


async def open_store(url: str, **kwargs: Any) -> StoreBackend:
    """Open (and migrate) the store `url` names; keyword arguments go to `Store` or `PgStore`
    (`clock` to both; pool sizes to PostgreSQL only)."""
    kind, target = parse_database_url(url)
    if kind == "sqlite":
        return await Store.open(target, **{k: v for k, v in kwargs.items() if k not in POOL_OPTIONS})
    return await PgStore.open(target, **kwargs)


__all__ = [
    "ActionRow", "ChannelBusy", "CLAIM_LEASE", "ClaimLost", "Conflict", "DeliveryContact", "GameRow", "LeagueRow", "LeagueTable", "MIGRATIONS_DIR", "MIGRATIONS_PG_DIR",
    "Migration", "MigrationError", "OUTBOX_BASE_DELAY", "OUTBOX_KEEP_DEAD", "OUTBOX_KEEP_DELIVERED",
    "OUTBOX_MAX_DELAY", "OUTBOX_PRUNE_BATCH", "OutboxPart", "OutboxRow", "PAUSE_ENV", "PAUSE_MARKER_ENV",
    "PgStore", "PgTx", "POOL_OPTIONS", "SeatRow", "SqliteTx", "StaleVersion", "Store", "StoreBackend",
    "RatingRow", "RatingRules", "ResultRow", "StoreError", "StoreTx", "TimerRow", "Tx", "URL_HELP", "UserPrefs", "load_migrations", "mask_url",
    "open_store", "parse_database_url", "retries_conflicts", "retry_conflicts",
]
