"""One interface, two backends: both stores (and their transactions) match the protocols
the service layer types against, a DATABASE_URL picks the backend, PostgreSQL's
placeholder rewriting leaves strings and comments alone, and passwords stay out of
messages."""
from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import (
    PgStore,
    PgTx,
    SqliteTx,
    Store,
    StoreBackend,
    StoreError,
    StoreTx,
    open_store,
    parse_database_url,
)
from bot.store.pg import mask_url, to_dollar
from tests.support.backends import Backend


def _members(protocol: type) -> dict[str, inspect.Signature]:
    names = [n for n in protocol.__dict__ if not n.startswith("_") or n in ("__aenter__", "__aexit__")]
    return {n: inspect.signature(getattr(protocol, n)) for n in names if callable(getattr(protocol, n))}


def _comparable(sig: inspect.Signature) -> list[tuple[str, object, object]]:
    # names, kinds and defaults must agree; annotations are strings here and may be spelled
    # differently (a subclass for the protocol's return type)
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


@pytest.mark.parametrize("protocol, implementations", [
    (StoreBackend, (Store, PgStore)),
    (StoreTx, (SqliteTx, PgTx)),
])
def test_both_backends_implement_the_whole_interface_with_the_same_signatures(protocol, implementations) -> None:
    wanted = _members(protocol)
    assert len(wanted) > 10  # the protocol really lists the methods
    for cls in implementations:
        for name, sig in wanted.items():
            assert hasattr(cls, name), f"{cls.__name__} lacks {name}"
            assert _comparable(inspect.signature(getattr(cls, name))) == _comparable(sig), (cls.__name__, name)
    # and the protocol lists everything public a transaction offers the service layer
    # (the *_sql methods hand the plan tests a statement's text; nothing else calls them)
    public_tx = {n for n in dir(SqliteTx) if not n.startswith("_") and not n.endswith("_sql")}
    if protocol is StoreTx:
        assert public_tx <= set(wanted) | {"writable"}, public_tx - set(wanted)


@pytest.mark.parametrize("url, expected", [
    ("sqlite:///railyard.sqlite3", ("sqlite", "railyard.sqlite3")),
    ("sqlite:///data/games.db", ("sqlite", "data/games.db")),
    ("sqlite:////var/lib/railyard/games.db", ("sqlite", "/var/lib/railyard/games.db")),
    ("railyard.sqlite3", ("sqlite", "railyard.sqlite3")),  # the old setting: a bare path
    ("/srv/railyard.sqlite3", ("sqlite", "/srv/railyard.sqlite3")),
    ("postgresql://bot:pw@db.internal:5432/railyard", ("postgresql", "postgresql://bot:pw@db.internal:5432/railyard")),
    ("postgres://bot@localhost/railyard", ("postgresql", "postgres://bot@localhost/railyard")),
])
def test_database_urls_name_a_backend(url: str, expected: tuple[str, str]) -> None:
    assert parse_database_url(url) == expected


@pytest.mark.parametrize("url", ["mysql://bot:secret@db/railyard", "sqlite://relative.db", "sqlite:///", "",
                                 "sqlite:memory"])
def test_other_urls_are_refused_with_what_is_expected(url: str) -> None:
    with pytest.raises(StoreError) as info:
        parse_database_url(url)
    assert "DATABASE_URL must start with sqlite:/// or postgresql://" in str(info.value)
    assert "secret" not in str(info.value)


async def test_open_store_opens_the_backend_the_url_names(backend: Backend) -> None:
    # pool sizes are accepted whatever the backend, so one set of settings serves both
    store = await open_store(backend.url, min_size=1, max_size=3)
    try:
        assert isinstance(store, PgStore if backend.kind == "postgres" else Store)
        assert await store.schema_version() >= 1
    finally:
        await store.close()


async def test_a_relative_sqlite_url_is_relative_to_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    async with await open_store("sqlite:///data.sqlite3") as store:
        assert isinstance(store, Store)
    assert (tmp_path / "data.sqlite3").is_file()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_wrong_password_or_host_is_a_store_error_without_the_password(backend: Backend) -> None:
    with pytest.raises(StoreError) as info:
        await PgStore.open("postgresql://nobody:hunter2@127.0.0.1:1/railyard", connect_timeout=5)
    assert "hunter2" not in str(info.value) and "127.0.0.1:1" in str(info.value)
    store = PgStore("postgresql://bot:hunter2@db:5432/railyard")
    assert "hunter2" not in repr(store)


def test_pool_sizes_are_checked() -> None:
    with pytest.raises(StoreError):
        PgStore("postgresql://db/railyard", min_size=5, max_size=2)


@pytest.mark.parametrize("sql, expected", [
    ("SELECT ? , ?", "SELECT $1 , $2"),
    ("SELECT 'a?b', ? -- why?\n, \"odd?name\", ?", "SELECT 'a?b', $1 -- why?\n, \"odd?name\", $2"),
    ("SELECT 'it''s?', ? /* ? */", "SELECT 'it''s?', $1 /* ? */"),
    ("SELECT 1", "SELECT 1"),
])
def test_question_marks_become_numbered_placeholders_outside_literals(sql: str, expected: str) -> None:
    assert to_dollar(sql) == expected


def test_passwords_are_masked() -> None:
    assert mask_url("postgresql://bot:s3cret@db:5432/railyard?sslmode=require") == \
        "postgresql://bot:***@db:5432/railyard?sslmode=require"
    assert mask_url("postgresql://bot@db/railyard") == "postgresql://bot@db/railyard"


@pytest.mark.parametrize("ci", ["", "1"])
def test_without_postgresql_the_half_is_skipped_with_a_hint_but_fails_in_ci(ci: str) -> None:
    """Run one two-backend test in a child pytest whose PostgreSQL folder holds nothing."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "RAILYARD_PG_BINDIR": str(root / "no-postgresql-here"), "CI": ci}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         f"{Path(__file__).resolve()}::test_open_store_opens_the_backend_the_url_names"],
        capture_output=True, text=True, env=env, cwd=root, timeout=120)
    out = done.stdout + done.stderr
    assert "apt install postgresql-15" in out and "brew install postgresql@15" in out, out
    if ci:
        assert done.returncode != 0 and "1 passed, 1 error" in out, out
    else:
        assert done.returncode == 0 and "1 passed, 1 skipped" in out, out
