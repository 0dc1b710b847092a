"""The store tests run on SQLite and on PostgreSQL (tests/support/backends.py)."""
from __future__ import annotations

from tests.support.backends import backend, pg_server

__all__ = ["backend", "pg_server"]
