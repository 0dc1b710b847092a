"""Fixtures for the sessions tests: a store (SQLite and PostgreSQL: every test that uses it
runs on both, see tests/support/backends.py) and a service with a fake clock."""
from __future__ import annotations

from typing import Any, Awaitable, Callable

import pytest
import pytest_asyncio

from bot.sessions import Outcome, SessionService
from bot.store import StoreBackend
from tests.support import PLAYERS, make_service
from tests.support.backends import Backend, backend, pg_server
from tests.support.registered import registered_games

__all__ = ["backend", "pg_server", "store", "service", "start_game", "bid_games", "bid_store", "svc"]


@pytest_asyncio.fixture
async def store(backend: Backend, toy_game: Any):
    s = await backend.open()
    yield s
    await s.close()


@pytest.fixture
def service(store: StoreBackend, clock: Any) -> SessionService:
    return make_service(store, clock)


StartGame = Callable[..., Awaitable[Outcome]]


@pytest.fixture
def start_game(service: SessionService) -> StartGame:
    """start_game(channel, players=2, bots=(), options=None, ...) -> the start Outcome."""

    async def _start(channel: str = "chan-1", players: int = 2, bots: tuple[str, ...] = (),
                     options: dict[str, Any] | None = None, guild: str = "guild-1",
                     svc: SessionService | None = None, locale: str = "en") -> Outcome:
        svc = svc or service
        await svc.create("toy", channel, guild, PLAYERS[0], options, locale)
        for actor in PLAYERS[1:players]:
            await svc.join(channel, actor)
        for bot in bots:
            await svc.add_bot(channel, PLAYERS[0], bot)
        return await svc.start(channel, PLAYERS[0])

    return _start


# --- the bid game (tests/support/bid_game.py), for standing orders and forced moves ----------
@pytest.fixture
def bid_games():
    with registered_games(bid="tests.support.bid_game:GAME", bid_hasty="tests.support.bid_game:HASTY",
                          bid_forced="tests.support.bid_game:FORCED", bid_keeping="tests.support.bid_game:KEEPING"):
        yield


@pytest_asyncio.fixture
async def bid_store(backend: Backend, bid_games: None):
    s = await backend.open()
    yield s
    await s.close()


@pytest.fixture
def svc(bid_store: StoreBackend, clock: Any) -> SessionService:
    """A service on a store where the bid games are registered."""
    return make_service(bid_store, clock)
