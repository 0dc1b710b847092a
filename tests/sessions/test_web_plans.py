"""The web table's statements reach the big tables through an index on both backends: the live
updates' poll of the watched games' versions (once a second per process) and what a table
reads of a game (its row, seats and log), on a database of thousands of games."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store.db import SqliteTx
from bot.store.pg import PgTx
from bot.web.live import Watcher
from bot.web.table import NotShown, Tables
from tests.sessions.test_sessions_plans import RUNNING, STORED, Recorder, _explain, _fill
from tests.support import PLAYERS, make_service
from tests.support.backends import Backend


async def test_the_web_tables_statements_use_an_index(backend: Backend, toy_game: Any, clock: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    store = await backend.open()
    try:
        await _fill(store, clock())
        recorder = Recorder()
        recorder.install(monkeypatch, SqliteTx if backend.kind == "sqlite" else PgTx)
        service = make_service(store, clock)
        await service.create("toy", "web-plan", "guild-1", PLAYERS[0])
        await service.join("web-plan", PLAYERS[1])
        started = await service.start("web-plan", PLAYERS[0])
        recorder.on = True
        # the poll, with a few hundred games watched, as the watcher runs it
        watcher = Watcher(store, poll=0.01)
        watched = [100000 + STORED + i for i in range(1, RUNNING, 10)]
        with_watchers = [watcher.watching(g, 0) for g in watched]
        for w in with_watchers:
            w.__enter__()
        watcher.start()
        try:
            while watcher.polls < 2:
                await asyncio.sleep(0.01)
        finally:
            await watcher.stop()
            for w in with_watchers:
                w.__exit__(None, None, None)
        assert watcher.versions == {} and len(watched) >= 290
        # what a table reads of a game: its row, seats and log (a game keeps its table private until its host opens it)
        tables = Tables(service)
        with pytest.raises(NotShown):
            await tables.public_game(started.game_id, with_actions=True)
        recorder.on = False
        recorded = recorder.seen
        assert any(sql.startswith("SELECT id, version FROM games WHERE id IN") for sql in recorded)
        assert any(sql.startswith("SELECT game_id, seq, seat, kind") for sql in recorded)
        explained = await _explain(store, backend, recorded)
        bad = {sql: steps for sql, (steps, _) in explained.items() if steps}
        assert not bad, bad
    finally:
        await store.close()
