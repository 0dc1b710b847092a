"""A throwaway PostgreSQL server for the tests: initdb in a temporary directory, listening on
loopback only, on a free port, with its unix socket in that directory too.

The server is shared by the whole test run (started the first time a test asks for it,
stopped when the interpreter exits); each test gets a database of its own, copied from a
migrated template (see tests/support/backends.py).

initdb and postgres refuse to run as root, so as root they run as an unprivileged user
(`postgres` if it exists, else `nobody`) that owns the temporary directory.

Without PostgreSQL's server programs the PostgreSQL half of the tests is skipped with a
message saying how to install them - except in CI (environment variable CI set, which
.ci/run does), where a missing server is a failure: CI must run both backends.
"""
from __future__ import annotations

import atexit
import json
import os
import threading
from typing import Any, Sequence

from bot.store.local_pg import (
    INSTALL_HINT,
    OWNER_FILE,
    PG_MAJOR,
    SUPERUSER,
    PostgresServer,
    PostgresUnavailable,
    find_bindir,
)

__all__ = ["INSTALL_HINT", "OWNER_FILE", "PG_MAJOR", "SUPERUSER", "PostgresServer", "PostgresUnavailable",
           "find_bindir", "in_ci", "shared_server"]

# The server itself lives in bot/store/local_pg.py (the bench starts one too); this module
# keeps the test run's single shared instance.

_lock = threading.Lock()
_server: PostgresServer | None = None
_failure: BaseException | None = None


def shared_server() -> PostgresServer:
    """The test run's server, started on first use and stopped at exit. Raises
    PostgresUnavailable when there are no server programs, RuntimeError when they would not
    start (remembered: later callers get the same error without trying again)."""
    global _server, _failure
    with _lock:
        if _server is not None:
            return _server
        if _failure is not None:
            raise _failure
        bindir = find_bindir()
        if bindir is None:
            _failure = PostgresUnavailable(INSTALL_HINT)
            raise _failure
        server = PostgresServer(bindir)
        try:
            server.start()
        except BaseException as exc:
            server.stop()
            _failure = exc
            raise
        atexit.register(server.stop)
        _server = server
        return server


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


def _scans(plan: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    found = []
    if "Relation Name" in plan:
        found.append((plan["Node Type"], plan.get("Alias", ""), plan.get("Index Name")))
    for child in plan.get("Plans", []):
        found += _scans(child)
    return found


async def plan_scans(tx: Any, sql: str, params: Sequence[Any]) -> list[tuple[str, str, str | None]]:
    """(node type, alias, index) of every scan in PostgreSQL's plan for `sql`, asked in the
    caller's transaction (a plan test's whole check is which indexes these name)."""
    (row,) = await tx.fetchall("EXPLAIN (FORMAT JSON) " + sql, params)
    (plan,) = json.loads(next(iter(row.values())))
    return _scans(plan["Plan"])
