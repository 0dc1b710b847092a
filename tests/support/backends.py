"""The store and sessions tests run on both backends: the `backend` fixture (parametrised
"sqlite" / "postgres") hands a test an empty database and ways to reach it from outside
the store under test.

    store = await backend.open()              # a store on the test's database (open_store)
    rows = await backend.dump()               # every row of every table, read separately
    await backend.sql("UPDATE games SET snapshot = ? WHERE id = ?", junk, game_id)
    other = await backend.fresh()             # another empty database of the same kind

SQLite databases are files in the test's tmp_path. On PostgreSQL (the shared test server,
tests/support/postgres.py) a test's database is a schema of its own, migrated when the
first store opens it and dropped after the test.

The conftest files of tests/store and tests/sessions re-export `backend` and `pg_server`.
"""
from __future__ import annotations

import itertools
import os
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from bot.store import StoreBackend, open_store
from bot.store.pg import to_dollar
from tests.support import dump_db
from tests.support import postgres

DATABASE = "railyard_tests"
_names = itertools.count(1)
_database_ready = False


class Backend:
    kind: str
    url: str

    async def open(self, **kwargs: Any) -> StoreBackend:
        """A store on this database (migrated on open, like the bot's)."""
        return await open_store(self.url, **kwargs)

    async def dump(self) -> dict[str, list[tuple]]:
        raise NotImplementedError

    async def sql(self, statement: str, *params: Any) -> None:
        """Run one statement (`?` placeholders) on a connection of its own and commit it:
        how tests damage rows behind the store's back."""
        raise NotImplementedError

    async def fresh(self) -> "Backend":
        """Another empty database."""
        raise NotImplementedError

    async def cleanup(self) -> None:
        pass


class SqliteBackend(Backend):
    kind = "sqlite"

    def __init__(self, folder: Path, name: str = "railyard.sqlite3") -> None:
        self.folder = folder
        self.path = folder / name
        self.url = f"sqlite:///{self.path}"

    async def dump(self) -> dict[str, list[tuple]]:
        return dump_db(self.path)

    async def sql(self, statement: str, *params: Any) -> None:
        conn = sqlite3.connect(self.path)
        try:
            conn.execute(statement, params)
            conn.commit()
        finally:
            conn.close()

    async def fresh(self) -> "SqliteBackend":
        return SqliteBackend(self.folder, f"more-{next(_names)}.sqlite3")


async def _admin(server: postgres.PostgresServer) -> asyncpg.Connection:
    """A connection to the tests' database, created on first use."""
    global _database_ready
    if not _database_ready:
        conn = await asyncpg.connect(server.dsn())
        try:
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", DATABASE):
                await conn.execute(f'CREATE DATABASE "{DATABASE}"')
        finally:
            await conn.close()
        _database_ready = True
    return await asyncpg.connect(server.dsn(DATABASE))


class PgBackend(Backend):
    """A schema of its own in the tests' database: the store's URL sets search_path to it,
    so the store (which names no schema) sees only that schema's tables. Creating a schema
    and migrating it costs a fraction of CREATE DATABASE, whose checkpoint and copy took
    0.2-0.4 s a test on a busy 2-core machine."""

    kind = "postgres"

    def __init__(self, server: postgres.PostgresServer, schema: str) -> None:
        self.server = server
        self.schema = schema
        self.url = f"{server.dsn(DATABASE)}?search_path={schema}"
        self._more: list[PgBackend] = []

    @classmethod
    async def create(cls, server: postgres.PostgresServer) -> "PgBackend":
        schema = f"t_{os.getpid()}_{next(_names)}"
        admin = await _admin(server)
        try:
            await admin.execute(f'CREATE SCHEMA "{schema}"')
        finally:
            await admin.close()
        return cls(server, schema)

    async def _connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.url)

    async def dump(self) -> dict[str, list[tuple]]:
        conn = await self._connect()
        try:
            tables = [r[0] for r in await conn.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                " AND table_type = 'BASE TABLE' ORDER BY table_name")]
            out: dict[str, list[tuple]] = {}
            for table in tables:
                width = await conn.fetchval(
                    "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema()"
                    " AND table_name = $1", table)
                order = ", ".join(str(i) for i in range(1, width + 1))
                rows = await conn.fetch(f'SELECT * FROM "{table}" ORDER BY {order}')
                out[table] = [tuple(r) for r in rows]
            return out
        finally:
            await conn.close()

    async def sql(self, statement: str, *params: Any) -> None:
        conn = await self._connect()
        try:
            await conn.execute(to_dollar(statement), *params)
        finally:
            await conn.close()

    async def fresh(self) -> "PgBackend":
        more = await PgBackend.create(self.server)
        self._more.append(more)
        return more

    async def cleanup(self) -> None:
        admin = await _admin(self.server)
        try:
            # a store a failed test left open must not hold the schema's tables
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()")
            for schema in [self.schema, *(m.schema for m in self._more)]:
                await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await admin.close()


@pytest.fixture(scope="session")
def pg_server() -> postgres.PostgresServer:
    """The PostgreSQL test server; skipped without PostgreSQL, except in CI where that fails."""
    try:
        return postgres.shared_server()
    except postgres.PostgresUnavailable as exc:
        missing = str(exc)
    if postgres.in_ci():
        pytest.fail(f"{missing}. CI (the CI environment variable is set) must run the PostgreSQL"
                    " half of the store and sessions tests.", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {missing}")


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "sqlite":
        made: Backend = SqliteBackend(tmp_path)
    else:
        made = await PgBackend.create(request.getfixturevalue("pg_server"))
    try:
        yield made
    finally:
        await made.cleanup()
