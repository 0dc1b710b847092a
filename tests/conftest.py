"""Shared test setup: the repository root on sys.path, the toy game registered, a fake clock,
and the test tiers.

Tiers: `slow` marks whole-game simulations, several processes, PostgreSQL and the benches.
`python3 dev.py test` runs everything (CI does); `python3 dev.py test --fast` leaves the slow
tier out. A module says it is slow with `pytestmark = pytest.mark.slow`; every test that
reaches the PostgreSQL server (the `pg_server` fixture, directly or through `backend`) is
marked here, so a new PostgreSQL test needs no marker of its own."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest_plugins = ["tests.support.log_guard"]  # an ERROR logged during a test fails it

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


class FakeClock:
    """An injectable clock (Unix seconds) that tests move forward by hand."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def toy_game():
    """Register the toy game (and its pictures) as 'toy' and return it."""
    from games import registry
    from tests.support.registered import registered_games

    with registered_games(toy="tests.support.toy_game:GAME"):
        yield registry.get("toy")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "railyard.sqlite3"




def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        backend = callspec.params.get("backend") if callspec is not None else None
        if backend == "postgres" or "pg_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
