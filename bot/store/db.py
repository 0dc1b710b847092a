"""The SQLite store: one aiosqlite connection per Store, every transaction behind a lock.

Usage::

    store = await Store.open(path)
    async with store.write() as tx:          # BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error)
        version = await tx.update_game(game_id, expected_version=7, now=now, snapshot=...)
        await tx.append_action(...)
    async with store.read() as tx:           # one consistent snapshot of the database
        row = await tx.get_game(game_id)

A Store's connection is shared by all its coroutines, so reads take the lock too: a read
must never see another coroutine's uncommitted write. Several Store objects (or processes)
on one file are serialised by SQLite itself (WAL, busy timeout, BEGIN IMMEDIATE) and by the
version guard in `update_game`. The statements themselves are shared with the PostgreSQL
store (bot/store/sql.py).
"""
from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Sequence

import aiosqlite

from bot.store.errors import StoreError
from bot.store.migrate import load_migrations, migrate
from bot.store.sql import CHANNEL_INDEX, Row, SqlTx, StoreCommon


_COUNTABLE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


class SqliteTx(SqlTx):
    """A transaction on the Store's one connection."""

    def __init__(self, conn: aiosqlite.Connection, writable: bool) -> None:
        self._conn = conn
        self.writable = writable

    # Each statement is one trip to the connection's thread (aiosqlite's execute_fetchall): a
    # cursor costs three (execute, fetch, close), and a move's transaction runs a dozen statements.
    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def _fetchone(self, sql: str, params: Sequence[Any]) -> Row | None:
        rows = await self._conn.execute_fetchall(sql, params)
        return rows[0] if rows else None

    async def _exec(self, sql: str, params: Sequence[Any]) -> int:
        """The rows a write changed, counted from a RETURNING row per changed row (a cursor's
        rowcount would take the two trips more); any other statement is run as it is."""
        if _COUNTABLE.match(sql) and " RETURNING " not in sql.upper():
            return len(await self._conn.execute_fetchall(f"{sql} RETURNING 1", params))
        async with self._conn.execute(sql, params) as cursor:
            return cursor.rowcount

    def _index(self, name: str) -> str:
        # pinned: with few pending rows SQLite's planner may otherwise walk a whole index
        return f" INDEXED BY {name}"

    def _is_channel_busy(self, exc: BaseException) -> bool:
        # SQLite names a partial unique index's columns, not the index
        return isinstance(exc, sqlite3.IntegrityError) and (
            "games.channel_id" in str(exc) or CHANNEL_INDEX in str(exc))


async def _switch_to_wal(conn: aiosqlite.Connection, timeout: float) -> str:
    """Ask for WAL and return the journal mode SQLite reports.

    Switching a new file to WAL needs an exclusive lock, and when several processes open
    the same new file at once SQLite answers "database is locked" at once instead of
    waiting through the busy timeout (its deadlock avoidance: a connection holding a read
    lock is never made to wait for a writer). So the switch is retried here, with a short
    pause, until the busy timeout is spent. Once one process has switched, the file stays
    in WAL and the others see it immediately."""
    deadline = time.monotonic() + timeout
    pause = 0.005
    while True:
        try:
            async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
                return str((await cursor.fetchone())[0])
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
            if time.monotonic() >= deadline:
                raise StoreError(f"cannot switch to WAL journal mode: {exc}") from exc
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.1)


class Store(StoreCommon):
    """One SQLite file. Open with `await Store.open(path)`; close with `await store.close()`
    (or use `async with await Store.open(path) as store`)."""

    kind = "sqlite"

    def __init__(self, path: str | Path, *, busy_timeout: float = 15.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self.busy_timeout = busy_timeout
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._init_common(clock)

    def __repr__(self) -> str:
        return f"Store({self.path!r})"

    async def connect(self) -> None:
        if self._conn is not None:
            return
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            mode = await _switch_to_wal(conn, self.busy_timeout)
            if str(mode).lower() != "wal" and self.path != ":memory:":
                raise StoreError(f"{self.path}: cannot switch to WAL journal mode (got {mode})")
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            self.applied_migrations = await migrate(conn, load_migrations(), self._clock())
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def close(self) -> None:
        if self._conn is not None:
            async with self._lock:
                conn, self._conn = self._conn, None
                await conn.close()

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreError("the store is not open")
        return self._conn

    async def schema_version(self) -> int:
        async with self.read() as tx:
            rows = await tx.fetchall("PRAGMA user_version")
        return int(next(iter(rows[0].values())))

    # --- transactions ------------------------------------------------------------------
    async def _rollback(self, conn: aiosqlite.Connection) -> None:
        if conn.in_transaction:
            try:
                await conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteTx]:
        """A read-only transaction: every query inside sees the same committed state."""
        async with self._lock:
            conn = self.conn
            await conn.execute("BEGIN")
            try:
                yield SqliteTx(conn, writable=False)
            finally:
                await self._rollback(conn)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteTx]:
        """A write transaction (BEGIN IMMEDIATE): committed when the block ends, rolled back
        if anything (StaleVersion included) escapes it."""
        async with self._lock:
            conn = self.conn
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteTx(conn, writable=True)
                await self._pause_before_commit()
                await conn.execute("COMMIT")
            except BaseException:
                await self._rollback(conn)
                raise
