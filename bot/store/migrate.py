"""Numbered SQL migrations: bot/store/migrations/NNNN_name.sql (SQLite) and
bot/store/migrations_pg/NNNN_name.sql (PostgreSQL, applied by bot/store/pg.py), in order.

Each file runs in its own transaction together with a row in `schema_migrations` (and, on
SQLite, the bump of `PRAGMA user_version`), so a crash leaves the schema at one version or
the next. A database whose version is newer than the newest file here is refused with a
clear error (it was written by a newer Railyard; running old code on it could damage it).
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.store.errors import MigrationError

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
MIGRATIONS_PG_DIR = Path(__file__).resolve().parent / "migrations_pg"
_FILE_NAME = re.compile(r"^(\d{4})_([A-Za-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (SQLite's own tokenizer decides, so semicolons
    inside strings, comments and trigger bodies are handled)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    leftover = "\n".join(
        ln for ln in buffer.splitlines() if ln.strip() and not ln.strip().startswith("--")
    )
    if leftover.strip():
        raise MigrationError(f"incomplete SQL statement at the end of a migration: {leftover[:80]!r}")
    return statements


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name} is not named NNNN_name.sql")
        statements = split_statements(path.read_text(encoding="utf-8"))
        found.append(Migration(int(match.group(1)), match.group(2), tuple(statements)))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migrations must be numbered 1, 2, 3 ... without gaps; found {migration.version:04d}"
                f" where {expected:04d} was expected"
            )
    if not found:
        raise MigrationError(f"no migrations found in {directory}")
    return found


def refuse_newer(current: int, latest: int) -> None:
    if current > latest:
        raise MigrationError(
            f"the database schema is version {current}, but this Railyard only knows versions up to"
            f" {latest}. It was written by a newer Railyard: upgrade the code (or restore a backup"
            " made for this version); the database was not touched."
        )


def failure(migration: Migration, exc: BaseException) -> MigrationError:
    return MigrationError(f"migration {migration.version:04d}_{migration.name} failed: {exc}")


async def _user_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0])


async def migrate(conn: aiosqlite.Connection, migrations: list[Migration], now: float) -> list[int]:
    """Apply the migrations this database lacks; return the versions applied."""
    latest = migrations[-1].version
    current = await _user_version(conn)
    refuse_newer(current, latest)
    applied: list[int] = []
    for migration in migrations:
        if migration.version <= current:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await _user_version(conn)  # another process may have migrated meanwhile
            if migration.version <= current:
                await conn.execute("ROLLBACK")
                continue
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            for statement in migration.statements:
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, now),
            )
            await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
            await conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            if isinstance(exc, Exception) and not isinstance(exc, MigrationError):
                raise failure(migration, exc) from exc
            raise
        current = migration.version
        applied.append(migration.version)
    return applied
