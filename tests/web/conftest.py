"""The web table's fixtures: the real server (bot/web) on a free loopback port, on a real SQLite
file, with the sessions service and a clock the tests move; games of every kind started through
the service, and an aiohttp client to ask the server as a browser would.

    web = Web(...)                      # see the `web` fixture
    game_id = await web.start_game("steam", humans=2)
    await web.advance(game_id, 6)       # six moves: the people's as their game's bot would choose
    status, data = await web.get_json(f"/g/{game_id}/table.json")
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.sessions import Actor, SessionService
from bot.store import open_store
from bot.web import Signer, WebTable
from bot.web.server import RateLimits
from games import registry
from tests.conftest import FakeClock

PEOPLE = [Actor(f"{900 + n}", name) for n, name in enumerate(["Alice", "Bob", "Carol", "Dave", "Erin"])]
LEAST = {"ticket_to_ride": 2, "ginga": 2, "santa_fe": 3, "steam": 3, "catan_express": 3}
GAMES = list(LEAST)
SECRET = b"k" * 32


class Web:
    def __init__(self, service: SessionService, table: WebTable, clock: FakeClock) -> None:
        self.service, self.table, self.clock = service, table, clock
        self.http: aiohttp.ClientSession | None = None
        self.channels = 0
        self.actors: dict[int, list[Actor]] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.table.port}"

    async def start_game(self, game: str, humans: int = 2, *, bots: int | None = None, public: bool = True,
                         options: dict[str, Any] | None = None, locale: str = "en") -> int:
        self.channels += 1
        channel = f"web-{self.channels}"
        people = PEOPLE[:humans]
        await self.service.create(game, channel, "guild-web", people[0], options or {}, locale=locale)
        for actor in people[1:]:
            await self.service.join(channel, actor)
        for _ in range(max(0, LEAST[game] - humans) if bots is None else bots):
            await self.service.add_bot(channel, people[0])
        if public:
            await self.service.settings(channel, people[0], public_table=True)
        outcome = await self.service.start(channel, people[0])
        self.actors[outcome.game_id] = people
        await self.service.run_bots(outcome.game_id)
        return outcome.game_id

    async def channel_of(self, game_id: int) -> str:
        ld, _ = await self.service.core.read_id(game_id)
        return ld.row.channel_id

    async def seat_of(self, game_id: int, actor: Actor) -> int:
        ld, _ = await self.service.core.read_id(game_id)
        seat = ld.seat_of(actor.user_id)
        assert seat is not None
        return seat

    async def advance(self, game_id: int, moves: int, seed: int = 7) -> int:
        """Make `moves` moves of the people, each as the game's first bot would choose it for
        them (the bots' own moves between them too); the moves made."""
        rng = random.Random(seed)
        made = 0
        while made < moves:
            ld, _ = await self.service.core.read_id(game_id)
            if ld.row.status != "active":
                break
            game = ld.game
            waiting = sorted(game.active_players(ld.state))
            seat = next(s for s in waiting if ld.seats[s].user_id)
            bot = next(iter(game.bots().values()))
            action = bot.choose(game, ld.state, seat, rng)
            user = ld.seats[seat]
            await self.service.act(ld.row.channel_id, Actor(str(user.user_id), user.display_name),
                                   game.format_action(action))
            await self.service.run_bots(game_id)
            made += 1
        return made

    def link_token(self, game_id: int, user_id: str, seat: int, *, hours: int = 12) -> str:
        url = self.table.link(game_id, user_id, seat)
        return url.split("#t=", 1)[1]

    async def player_token(self, game_id: int, actor: Actor) -> str:
        return self.link_token(game_id, actor.user_id, await self.seat_of(game_id, actor))

    async def get(self, path: str, *, token: str | None = None, headers: dict[str, str] | None = None,
                  method: str = "GET", **kw: Any) -> tuple[int, bytes, Any]:
        assert self.http is not None
        h = dict(headers or {})
        if token is not None:
            h["Authorization"] = f"Bearer {token}"
        async with self.http.request(method, self.url + path, headers=h, **kw) as response:
            return response.status, await response.read(), response.headers

    async def get_json(self, path: str, **kw: Any) -> tuple[int, Any]:
        import json

        status, body, _ = await self.get(path, **kw)
        return status, json.loads(body)

    async def page_csrf(self, game_id: int, token: str, nonce: str = "page-nonce") -> str:
        status, data = await self.get_json(f"/g/{game_id}/play/table.json", token=token,
                                           headers={"X-Railyard-Page": nonce})
        assert status == 200, data
        return data["csrf"]

    async def post_move(self, game_id: int, token: str, body: dict[str, Any], *, nonce: str = "page-nonce",
                        csrf: str | None = None, origin: str | None = None) -> tuple[int, Any]:
        import json

        csrf = csrf if csrf is not None else await self.page_csrf(game_id, token, nonce)
        headers = {"X-Railyard-Page": nonce, "X-Railyard-CSRF": csrf, "Content-Type": "application/json",
                   "Origin": origin or self.url}
        status, raw, _ = await self.get(f"/g/{game_id}/play/move", token=token, headers=headers, method="POST",
                                        data=json.dumps(body))
        return status, json.loads(raw)


@pytest.fixture
async def web(tmp_path: Path, clock: FakeClock):
    store = await open_store(f"sqlite:///{tmp_path / 'railyard.sqlite3'}", clock=clock)
    seeds = iter(range(4242, 4242 + 10_000))
    service = SessionService(store, clock=clock, new_seed=lambda: next(seeds))
    table = WebTable(service, base_url="http://127.0.0.1", port=0, signer=Signer(SECRET), clock=clock, poll=0.05)
    # the tests that count requests set their own
    table.limits = table.public_limits = RateLimits(rate=1000, burst=1000)
    await table.start()
    table.rebase(f"http://127.0.0.1:{table.port}")
    w = Web(service, table, clock)
    w.http = aiohttp.ClientSession()
    try:
        yield w
    finally:
        await w.http.close()
        await table.stop()
        await store.close()


def spectator_board(game_id: int, ld: Any, lang: str = "en") -> bytes:
    from render import registry as renderers

    return renderers.get(ld.row.game).board(ld.game.view(ld.state, None), ld.names, lang)


def game_of(name: str):
    return registry.get(name)
