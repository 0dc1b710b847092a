"""The PostgreSQL store (asyncpg): the same interface and statements as the SQLite one, for
deployments of several bot processes on one database.

Usage::

    store = await PgStore.open("postgresql://user:secret@host/railyard", min_size=1, max_size=10)
    async with store.write() as tx:     # one PostgreSQL transaction, READ COMMITTED
        await tx.update_game(game_id, expected_version=7, now=now, snapshot=...)
    async with store.read() as tx:      # REPEATABLE READ, READ ONLY: one snapshot throughout
        row = await tx.get_game(game_id)

Transactions take a connection from a pool for their duration, so unlike SQLite's Store
they really run side by side. A write transaction is READ COMMITTED; what makes a move
safe is the version guard (`UPDATE games ... WHERE id = ? AND version = ?`, row count
checked) and, for the methods that read before they write, the row locks described in
bot/store/sql.py. A read transaction is REPEATABLE READ so that all its queries see one
committed state, as SQLite's read transactions do.

The shared statements use `?` placeholders; this module rewrites them to `$1, $2 ...`
(`to_dollar`), and so `fetchall` / `execute` accept `?` too. A `?` inside a string literal,
a quoted name or a comment is left alone. (PostgreSQL's JSONB operators `?`, `?|`, `?&`
cannot be written through these methods; nothing in Railyard uses them.)

Migrations (bot/store/migrations_pg) are applied at open, under an advisory lock, so
several processes starting together apply each one once.
"""
from __future__ import annotations

import time
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from functools import lru_cache
from typing import Any, AsyncIterator, Callable, Iterator, Sequence
from urllib.parse import parse_qsl, urlencode

import asyncpg

from bot.store.errors import Conflict, MigrationError, StoreError
from bot.store.migrate import MIGRATIONS_PG_DIR, Migration, failure, load_migrations, refuse_newer
from bot.store.sql import CHANNEL_INDEX, Row, SqlTx, StoreCommon

# pg_advisory_lock key held while migrating: any fixed number, the same in every process
MIGRATION_LOCK_KEY = 0x5261696C79617264 & 0x7FFFFFFFFFFFFFFF  # "Railyard"


@lru_cache(maxsize=1024)
def to_dollar(sql: str) -> str:
    """`?` placeholders -> `$1, $2, ...`, outside string literals, quoted names and comments."""
    out: list[str] = []
    n = 0
    i, end = 0, len(sql)
    while i < end:
        ch = sql[i]
        if ch in ("'", '"'):
            close = sql.find(ch, i + 1)
            while close != -1 and close + 1 < end and sql[close + 1] == ch:  # '' and "" escapes
                close = sql.find(ch, close + 2)
            stop = end if close == -1 else close + 1
            out.append(sql[i:stop])
            i = stop
        elif sql.startswith("--", i):
            stop = sql.find("\n", i)
            stop = end if stop == -1 else stop
            out.append(sql[i:stop])
            i = stop
        elif sql.startswith("/*", i):
            stop = sql.find("*/", i + 2)
            stop = end if stop == -1 else stop + 2
            out.append(sql[i:stop])
            i = stop
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _row_count(status: str) -> int:
    """The row count at the end of a command tag ("UPDATE 3", "INSERT 0 1", "DELETE 0")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


MASK = "***"
# libpq reads a password from the query string too (`?password=...`).
_SECRET_QUERY_KEYS = ("password", "sslpassword", "passfile")


def mask_url(url: str) -> str:
    """A database URL with its password (in the user info or the query) replaced by ***, for
    messages, logs and the settings' repr."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return MASK if url else ""
    netloc, slash, tail = rest.partition("/")
    # rpartition: an unescaped @ inside a password still leaves the host as the last part.
    userinfo, at, host = netloc.rpartition("@")
    if at:
        user, colon, _password = userinfo.partition(":")
        netloc = f"{user}:{MASK}@{host}" if colon else f"{user}@{host}"
    path, q, query = tail.partition("?")
    if q:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, MASK if k.lower() in _SECRET_QUERY_KEYS else v) for k, v in pairs], safe="*")
    return f"{scheme}://{netloc}{slash}{path}{q}{query}"


class PgTx(SqlTx):
    """A transaction on one pooled connection."""

    def __init__(self, conn: asyncpg.Connection, writable: bool) -> None:
        self._conn = conn
        self.writable = writable
        # see bot/store/sql.py: a write transaction locks the game / outbox row it reads
        self._lock = " FOR NO KEY UPDATE" if writable else ""

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        return await self._conn.fetch(to_dollar(sql), *params)

    async def _fetchone(self, sql: str, params: Sequence[Any]) -> Row | None:
        return await self._conn.fetchrow(to_dollar(sql), *params)

    async def _exec(self, sql: str, params: Sequence[Any]) -> int:
        # without arguments asyncpg uses the simple protocol, which also takes several
        # statements at once (maintenance scripts through `execute`)
        return _row_count(await self._conn.execute(to_dollar(sql), *params))

    def _guarded(self) -> AbstractAsyncContextManager[Any]:
        return self._conn.transaction()  # nested: a savepoint

    def _skip_locked(self, alias: str) -> str:
        # what the UPDATE of a claim takes anyway, and weaker than FOR UPDATE: an
        # outbox_parts insert (a foreign key's KEY SHARE lock) never waits for a claim
        return f" FOR NO KEY UPDATE OF {alias} SKIP LOCKED"

    def _is_channel_busy(self, exc: BaseException) -> bool:
        return isinstance(exc, asyncpg.UniqueViolationError) and exc.constraint_name == CHANNEL_INDEX


async def migrate_pg(conn: asyncpg.Connection, migrations: list[Migration], now: float) -> list[int]:
    """Apply the migrations this database lacks; return the versions applied. Each runs in its
    own transaction with its schema_migrations row; the whole run holds an advisory lock, so
    a second process starting at the same time waits, then finds nothing left to do."""
    latest = migrations[-1].version
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK_KEY)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
        refuse_newer(current, latest)
        applied: list[int] = []
        for migration in migrations:
            if migration.version <= current:
                continue
            try:
                async with conn.transaction():
                    for statement in migration.statements:
                        await conn.execute(statement)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        migration.version, migration.name, now,
                    )
            except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                raise failure(migration, exc) from exc
            applied.append(migration.version)
        return applied
    finally:
        if not conn.is_closed():
            await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK_KEY)


class PgStore(StoreCommon):
    """A PostgreSQL database. Open with `await PgStore.open(url)`; close with `await
    store.close()` (or `async with await PgStore.open(url) as store`).

    `min_size` / `max_size`: the connection pool's bounds (a transaction holds one
    connection; more concurrent transactions than `max_size` wait for one)."""

    kind = "postgresql"

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10, connect_timeout: float = 15.0,
                 clock: Callable[[], float] = time.time) -> None:
        if min_size < 0 or max_size < 1 or min_size > max_size:
            raise StoreError(f"pool sizes must satisfy 0 <= min_size <= max_size, max_size >= 1"
                             f" (got {min_size}, {max_size})")
        self.url = url
        self.min_size = min_size
        self.max_size = max_size
        self.connect_timeout = connect_timeout
        self._pool: asyncpg.Pool | None = None
        self._init_common(clock)

    def __repr__(self) -> str:
        return f"PgStore({mask_url(self.url)!r})"

    async def connect(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.url, min_size=self.min_size, max_size=self.max_size, timeout=self.connect_timeout,
                server_settings={"application_name": "railyard"},
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
            raise StoreError(f"cannot connect to PostgreSQL at {mask_url(self.url)}: {exc}") from exc
        try:
            async with pool.acquire() as conn:
                self.applied_migrations = await migrate_pg(conn, load_migrations(MIGRATIONS_PG_DIR), self._clock())
        except BaseException as exc:
            pool.terminate()
            if isinstance(exc, (asyncpg.PostgresError, asyncpg.InterfaceError)):
                raise MigrationError(f"cannot migrate {mask_url(self.url)}: {exc}") from exc
            raise
        self._pool = pool

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is not open")
        return self._pool

    async def schema_version(self) -> int:
        async with self.read() as tx:
            rows = await tx.fetchall("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")
        return int(rows[0]["v"])

    # --- transactions ------------------------------------------------------------------
    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgTx]:
        """A read-only transaction: every query inside sees the same committed state."""
        with _conflicts():
            async with self.pool.acquire() as conn:
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    yield PgTx(conn, writable=False)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PgTx]:
        """A write transaction: committed when the block ends, rolled back if anything
        (StaleVersion included) escapes it. A deadlock or serialization failure, in the
        block or at COMMIT, leaves it as Conflict: nothing was written, and the caller's
        unit of work may be run again (bot/store/retry.py)."""
        with _conflicts():
            async with self.pool.acquire() as conn:
                async with conn.transaction():
                    yield PgTx(conn, writable=True)
                    await self._pause_before_commit()


@contextmanager
def _conflicts() -> Iterator[None]:
    """PostgreSQL's ways of saying "rolled back to settle a conflict, run it again" as the
    store's Conflict. Only these two: the other class 40 errors (an integrity violation at
    commit, a commit whose outcome is unknown) are not answered by running it again."""
    try:
        yield
    except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
        raise Conflict(f"{exc.sqlstate} {exc}") from exc
