"""Live updates of the web table: who watches which game, and when a game's version changes.

Any process may serve any game, and a move may be committed by any process (a Discord click
on another shard, a bot, a deadline), so a change is learnt from the database: one statement
every `poll` seconds asks the version of every game watched in this process
(`game_versions`, primary-key look-ups: well under a millisecond for a few hundred games on
either backend), and nothing at all is asked while nobody watches. A move committed in this
process (a click on the table, a Discord interaction served here) wakes the poll at once
(`notify`), so its own viewers see it without waiting for the next tick.

(PostgreSQL's LISTEN/NOTIFY would spare the poll, but would need a dedicated connection per
process and a trigger or a NOTIFY in every commit path, and SQLite would still need the poll;
one cheap statement a second per process is the simpler shape for both.)
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict

from bot.store import StoreBackend

log = logging.getLogger("railyard.web")

CHUNK = 500  # ids per statement


class Watcher:
    def __init__(self, store: StoreBackend, poll: float = 1.0) -> None:
        self.store = store
        self.poll = poll
        self.versions: dict[int, int] = {}
        self._watchers: dict[int, int] = defaultdict(int)
        self._changed: dict[int, asyncio.Event] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.polls = 0  # statements run (tests, measurements)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="railyard-web-watcher")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for event in self._changed.values():
            event.set()  # streams still open end now

    @property
    def running(self) -> bool:
        return self._task is not None

    def notify(self, game_id: int) -> None:
        """A change of this game was committed in this process: look now."""
        if game_id in self._watchers:
            self._wake.set()

    @contextlib.contextmanager
    def watching(self, game_id: int, version: int):
        """While inside, the game is polled; `changed` waits on it."""
        self._watchers[game_id] += 1
        self.versions.setdefault(game_id, version)
        self._changed.setdefault(game_id, asyncio.Event())
        try:
            yield
        finally:
            self._watchers[game_id] -= 1
            if self._watchers[game_id] <= 0:
                del self._watchers[game_id]
                self.versions.pop(game_id, None)
                self._changed.pop(game_id, None)

    async def changed(self, game_id: int, known: int, timeout: float) -> int | None:
        """The game's version once it differs from `known` (None after `timeout`, or when stopping)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            current = self.versions.get(game_id)
            if current is not None and current != known:
                return current
            if not self.running:
                return None
            event = self._changed.get(game_id)
            if event is None:
                return None
            left = deadline - loop.time()
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(event.wait(), left)
            except asyncio.TimeoutError:
                return None

    async def _run(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), self.poll)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()
            ids = list(self._watchers)
            if not ids:
                continue
            try:
                found: dict[int, int] = {}
                async with self.store.read() as tx:
                    for at in range(0, len(ids), CHUNK):
                        found.update(await tx.game_versions(ids[at:at + CHUNK]))
                self.polls += 1
            except Exception:  # noqa: BLE001 - a database hiccup: the next tick tries again
                log.warning("the web table could not read the games' versions", exc_info=True)
                continue
            for game_id, version in found.items():
                if game_id in self.versions and self.versions[game_id] != version:
                    self.versions[game_id] = version
                    event = self._changed.get(game_id)
                    if event is not None:
                        event.set()
                        self._changed[game_id] = asyncio.Event()
