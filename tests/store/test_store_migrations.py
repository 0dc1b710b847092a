"""Numbered migrations: fresh databases get them all, reopening is a no-op, a newer
database is refused, and a failing migration leaves the previous version intact."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import MigrationError, Store, load_migrations
from bot.store.migrate import migrate, split_statements

EXPECTED_TABLES = {"games", "seats", "actions", "timers", "outbox", "user_prefs", "schema_migrations"}


async def test_fresh_database_gets_every_migration(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        migrations = load_migrations()
        assert store.applied_migrations == [m.version for m in migrations]
        assert await store.schema_version() == migrations[-1].version
        async with store.read() as tx:
            tables = {r["name"] for r in await tx.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            recorded = await tx.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
        assert EXPECTED_TABLES <= tables
        assert [(r["version"], r["name"]) for r in recorded] == [(m.version, m.name) for m in migrations]
    finally:
        await store.close()


async def test_reopening_is_a_no_op(db_path: Path) -> None:
    await (await Store.open(db_path)).close()
    before = sqlite3.connect(db_path).execute("SELECT COUNT(*) FROM schema_migrations").fetchone()
    store = await Store.open(db_path)
    try:
        assert store.applied_migrations == []
        after = sqlite3.connect(db_path).execute("SELECT COUNT(*) FROM schema_migrations").fetchone()
        assert before == after
    finally:
        await store.close()


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
