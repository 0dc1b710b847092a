"""Numbered migrations, on both backends: fresh databases get them all (once, however many
processes start together), reopening is a no-op, a newer database is refused, and a
failing migration leaves the previous version intact. Both schemas end up the same."""
from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.store import MIGRATIONS_PG_DIR, MigrationError, Store, StoreBackend, load_migrations
from bot.store.migrate import migrate, split_statements
from bot.store.pg import migrate_pg
from tests.support.backends import Backend

EXPECTED_TABLES = {"games", "seats", "actions", "timers", "outbox", "user_prefs", "schema_migrations",
                   "outbox_parts", "delivery_notices", "live_boards", "standing_orders"}
POSTGRES_ONLY = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


def _migrations(backend: Backend):
    return load_migrations(MIGRATIONS_PG_DIR) if backend.kind == "postgres" else load_migrations()


async def _schema(store: StoreBackend) -> tuple[dict[str, list[str]], set[str]]:
    """Table -> column names (in order), and the index names, whichever backend."""
    async with store.read() as tx:
        if store.kind == "sqlite":
            tables = [r["name"] for r in await tx.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
            columns = {t: [r["name"] for r in await tx.fetchall(f"PRAGMA table_info({t})")] for t in tables}
            indexes = {r["name"] for r in await tx.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
        else:
            rows = await tx.fetchall(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")
            columns = {}
            for r in rows:
                columns.setdefault(r["table_name"], []).append(r["column_name"])
            # the indexes a CREATE INDEX made (not those behind PRIMARY KEY / UNIQUE constraints)
            indexes = {r["indexname"] for r in await tx.fetchall(
                "SELECT indexname FROM pg_indexes i WHERE schemaname = current_schema() AND NOT EXISTS"
                " (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)")}
    return columns, indexes


async def test_fresh_database_gets_every_migration(backend: Backend) -> None:
    store = await backend.open()  # nothing applied before
    try:
        migrations = _migrations(backend)
        assert store.applied_migrations == [m.version for m in migrations]
        assert await store.schema_version() == migrations[-1].version
        columns, _ = await _schema(store)
        async with store.read() as tx:
            recorded = await tx.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
        assert EXPECTED_TABLES <= set(columns)
        assert [(r["version"], r["name"]) for r in recorded] == [(m.version, m.name) for m in migrations]
    finally:
        await store.close()


@POSTGRES_ONLY
async def test_both_backends_end_with_the_same_schema(tmp_path: Path, backend: Backend) -> None:
    """PostgreSQL's one migration gives what SQLite's four give: same tables, same columns
    in the same order, same named indexes (the shared statements rely on it)."""
    async with await Store.open(tmp_path / "reference.sqlite3") as reference, await backend.open() as store:
        assert await _schema(store) == await _schema(reference)


async def test_reopening_is_a_no_op(backend: Backend) -> None:
    await (await backend.open()).close()
    before = len((await backend.dump())["schema_migrations"])
    store = await backend.open()
    try:
        assert store.applied_migrations == []
        assert len((await backend.dump())["schema_migrations"]) == before == len(_migrations(backend))
    finally:
        await store.close()


async def test_processes_starting_together_migrate_once(backend: Backend) -> None:
    stores = await asyncio.gather(*(backend.open() for _ in range(4)))
    try:
        # each migration applied by exactly one of them (which one may differ per file)
        applied = sorted(v for s in stores for v in s.applied_migrations)
        assert applied == [m.version for m in _migrations(backend)]
        assert len((await backend.dump())["schema_migrations"]) == len(_migrations(backend))
    finally:
        for s in stores:
            await s.close()


async def test_many_new_sqlite_files_opened_by_four_at_once(tmp_path: Path) -> None:
    # Switching a new file to WAL can be refused at once ("database is locked") rather than
    # waited for, when another opener holds a read lock; before the retry about one round
    # in eight failed, so 25 rounds catch it nearly always.
    for round_no in range(25):
        path = tmp_path / f"fresh-{round_no}.db"
        stores = await asyncio.gather(*(Store.open(path) for _ in range(4)), return_exceptions=True)
        try:
            failures = [s for s in stores if isinstance(s, BaseException)]
            assert failures == [], f"round {round_no}: {failures[0]!r}"
            assert sorted(v for s in stores for v in s.applied_migrations) == [
                m.version for m in load_migrations()]
        finally:
            for s in stores:
                if not isinstance(s, BaseException):
                    await s.close()


async def test_connection_pragmas(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        async with store.read() as tx:
            assert (await tx.fetchall("PRAGMA foreign_keys"))[0]["foreign_keys"] == 1
            assert (await tx.fetchall("PRAGMA synchronous"))[0]["synchronous"] == 2  # FULL
            assert (await tx.fetchall("PRAGMA journal_mode"))[0]["journal_mode"] == "wal"
    finally:
        await store.close()


async def test_newer_database_is_refused_clearly_and_left_alone(db_path: Path) -> None:
    await (await Store.open(db_path)).close()
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(MigrationError) as info:
        await Store.open(db_path)
    message = str(info.value)
    assert "99" in message and "newer" in message
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 99
    conn.close()


async def test_failing_migration_rolls_back_to_the_previous_version(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_first.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (folder / "0002_broken.sql").write_text(
        "CREATE TABLE b (y INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    import aiosqlite

    path = tmp_path / "m.sqlite3"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        with pytest.raises(MigrationError, match="0002_broken"):
            await migrate(conn, load_migrations(folder), now=1.0)
    conn2 = sqlite3.connect(path)
    assert conn2.execute("PRAGMA user_version").fetchone()[0] == 1
    names = {r[0] for r in conn2.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "a" in names and "b" not in names
    conn2.close()

    # fixed, it applies on the next start (only the missing one)
    (folder / "0002_broken.sql").write_text("CREATE TABLE b (y INTEGER);\n")
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await migrate(conn, load_migrations(folder), now=2.0) == [2]
        assert await migrate(conn, load_migrations(folder), now=3.0) == []


@POSTGRES_ONLY
async def test_newer_postgresql_database_is_refused_clearly_and_left_alone(backend: Backend) -> None:
    await (await backend.open()).close()
    await backend.sql("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 0)")
    with pytest.raises(MigrationError) as info:
        await backend.open()
    message = str(info.value)
    assert "99" in message and "newer" in message
    assert [r[0] for r in (await backend.dump())["schema_migrations"]][-1] == 99


@POSTGRES_ONLY
async def test_failing_postgresql_migration_rolls_back_to_the_previous_version(
        backend: Backend, tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_first.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (folder / "0002_broken.sql").write_text(
        "CREATE TABLE b (y INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    conn = await asyncpg.connect(backend.url)
    try:
        with pytest.raises(MigrationError, match="0002_broken"):
            await migrate_pg(conn, load_migrations(folder), now=1.0)
        tables = {r[0] for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        assert "a" in tables and "b" not in tables
        assert await conn.fetchval("SELECT MAX(version) FROM schema_migrations") == 1
        # the lock is let go after a failure: the fixed file applies on the next start
        (folder / "0002_broken.sql").write_text("CREATE TABLE b (y INTEGER);\n")
        assert await migrate_pg(conn, load_migrations(folder), now=2.0) == [2]
        assert await migrate_pg(conn, load_migrations(folder), now=3.0) == []
    finally:
        await conn.close()


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "0003_c.sql").write_text("CREATE TABLE c (x);")
    with pytest.raises(MigrationError, match="0003"):
        load_migrations(tmp_path)
    (tmp_path / "3_bad_name.sql").write_text("")
    with pytest.raises(MigrationError, match="NNNN_name"):
        load_migrations(tmp_path)


def test_statement_splitting_respects_strings_comments_and_triggers() -> None:
    sql = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN
        UPDATE t SET x = 'c;d';
    END;
    -- trailing comment
    """
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(MigrationError):
        split_statements("CREATE TABLE t (x")
