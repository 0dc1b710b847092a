"""Images drawn off the event loop's interpreter: a pool of worker processes that render and
encode (and shrink) pictures, so a burst of posts no longer competes with acknowledgements for
the GIL.

    pool = RenderPool(workers=2)          # 0: in a thread of this process, as before
    pool.start()                          # spawns the workers and warms them up in the background
    data, alt = await pool.draw("steam", "board", view, names, "en", route=game_id)
    files = await pool.call(shrink_files, files, route=game_id)
    made = await pool.call(draw_timelapse, record, names, "en", route=game_id)
    await pool.close()

Design:

* Workers are started with the "spawn" context: a fresh interpreter that imports what it
  needs, never a fork of a process that runs an event loop and threads (a fork copies their
  locks in whatever state they are in).
* `workers` single-process executors, each picked by `route % workers` (the game's id), so
  one game's boards always go to the same process and find its static layers and board
  palette (render.kit.encode) warm there. A call without a route goes by its game and names.
* What crosses to a worker is small and cheap to write on the event loop: a pydantic view
  goes as its JSON text without default values, with the name of its model (an abandoned
  game's mark as a flag around it), and the worker validates it back into the same model.
  Measured over whole 4-player games (mean size, max, time to write):

      game             JSON, no defaults          pickle of the model
      ticket_to_ride    2.3 KiB (3.3)  0.02 ms     2.6 KiB (3.5)   0.04 ms
      ginga             2.2 KiB (6.5)  0.03 ms     2.9 KiB (7.5)   0.36 ms
      santa_fe          2.8 KiB (3.7)  0.04 ms     3.4 KiB (4.2)   0.39 ms
      steam             3.3 KiB (4.4)  0.05 ms    10.8 KiB (18.2)  0.68 ms
      catan_express    19.8 KiB (39)   0.22 ms    15.3 KiB (30)    0.25 ms

  (plain JSON with defaults is 5-25% larger). What comes back is the PNG bytes and alt text.
* A worker that dies (BrokenProcessPool: killed, out of memory, a crash in C) is replaced and
  the call tried once more on the new one; if that fails too, the picture is drawn in a thread
  of this process (logged): a post never goes out without its board because of the pool.
* Each worker imports every renderer and loads the fonts when it starts (`warm`), so the first
  move after a start is not the one that pays for imports. `close` waits for running work and
  stops the workers. Each worker keeps its own static layers (a few MB to 25 MB each), so
  memory grows with the worker count; a layer is drawn once per worker that needs it.
* "spawn" starts each worker by importing the parent's main module under another name, as
  multiprocessing does: a script that starts a pool must keep its work under
  `if __name__ == "__main__":` (the `railyard` entry point and `dev.py` do).

Measured with `railyard bench --stored-games N` (a burst of 50 moves on 50 games while the
dispatcher draws and delivers their ~47 boards; this 2-core machine shared with other jobs, so
the figures vary by tens of ms from run to run): the bot's process spends about half the CPU
with workers (0.9 s instead of 1.9 s for the burst); the acknowledgements, which mostly wait
their turn in the one event loop (the loopback Discord shares it), gain less: median of four
bursts each, p50 224 / p99 481 ms in threads, 210 / 395 ms with 2 workers, 256 / 448 ms with 1.

The process-wide pool (`current`, `install`, `uninstall`) is how callers deep in the Discord
adapter find the bot's pool without threading it through every function; with none installed,
`current()` draws in threads.
"""
from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import multiprocessing
import os
import threading
from collections import Counter
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Hashable, Sequence, TypeVar

log = logging.getLogger("railyard.render.pool")

T = TypeVar("T")
KINDS = ("board", "hand", "final")


# --- what runs in a worker (and in a thread when there are no workers) -----------------------------
def draw_picture(game: str, kind: str, view: Any, names: Sequence[str], lang: str) -> tuple[bytes, str]:
    """(PNG bytes, alt text) of the `kind` image (board / hand / final) of a game's view. A
    failing alt text is logged and left empty: a wording bug must not cost the picture."""
    from render import registry as renderers

    if kind not in KINDS:
        raise ValueError(f"no image kind {kind!r}")
    renderer = renderers.get(game)
    data = getattr(renderer, kind)(view, list(names), lang)
    try:
        description = renderer.describe(kind, view, list(names), lang) or ""
    except Exception:  # noqa: BLE001
        log.exception("describing the %s of a %s game failed", kind, game)
        description = ""
    return data, description


def draw_timelapse(record: Any, names: Sequence[str], lang: str) -> Any:
    """A finished game's timelapse (render.timelapse.Timelapse) from its record: every turn
    replayed and drawn, seconds of work, so with workers it runs in one (the game's lane,
    where its static layers are warm) rather than beside the acknowledgements. The drawing
    function is looked up when called, as draw_picture's renderers are."""
    from render import timelapse

    return timelapse.timelapse(record, list(names), lang)


def _draw_sent(game: str, kind: str, sent: tuple, names: list[str], lang: str) -> tuple[tuple[bytes, str], int]:
    return draw_picture(game, kind, received(sent), names, lang), os.getpid()


def _call_here(fn: Callable[..., T], args: tuple) -> tuple[T, int]:
    return fn(*args), os.getpid()


def warm() -> int:
    """Import every renderer (with its game's models) and load the fonts, then move what was
    loaded out of the garbage collector's way (it stays for the life of the worker)."""
    from render import registry as renderers
    from render.kit import fonts
    from render.kit.text import draw_text
    from PIL import Image

    for name in renderers.names():
        try:
            renderers.get(name).palette  # imports the game's render package
        except Exception:  # noqa: BLE001 - one broken renderer must not stop the others
            log.exception("renderer %s could not be loaded", name)
    for bold in (False, True):
        fonts.font(24, bold)
        fonts.coverage(bold)
    fonts.emoji_font()
    draw_text(Image.new("RGB", (80, 30)), (2, 2), "Aあ🚂", 16, (255, 255, 255))
    gc.collect()
    gc.freeze()
    return os.getpid()


# --- views across the process boundary ---------------------------------------------------------------
def sendable(view: Any) -> tuple:
    """A small, picklable form of a view: a pydantic model as (module, class, JSON text), an
    abandoned game's mark around it, anything else as it is (pickled)."""
    from pydantic import BaseModel

    from render.kit.ended import AbandonedView

    if isinstance(view, AbandonedView):
        return ("abandoned", sendable(view.view))
    if isinstance(view, BaseModel):
        cls = type(view)
        return ("model", cls.__module__, cls.__qualname__, view.model_dump_json(exclude_defaults=True))
    return ("object", view)


def received(sent: tuple) -> Any:
    """The view `sendable` made `sent` from."""
    kind = sent[0]
    if kind == "abandoned":
        from render.kit.ended import abandoned

        return abandoned(received(sent[1]))
    if kind == "model":
        _, module, qualname, text = sent
        cls: Any = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        return cls.model_validate_json(text)
    return sent[1]


# --- the pool ----------------------------------------------------------------------------------------
class RenderPool:
    """`workers` worker processes (0: threads of this process); see the module's docstring."""

    def __init__(self, workers: int = 0, *, context: str = "spawn") -> None:
        if workers < 0:
            raise ValueError("workers must be 0 or more")
        self.workers = workers
        self.context = context
        self._executors: list[Executor | None] = [None] * workers
        self._warming: list[Future | None] = [None] * workers
        self._lock = threading.Lock()
        self._closed = False
        self.served: Counter[int] = Counter()  # pid -> pictures and calls it did
        self.replaced = 0  # workers replaced after dying
        self.in_thread = 0  # calls that fell back to a thread because the workers kept dying

    @property
    def in_processes(self) -> bool:
        return self.workers > 0 and not self._closed

    def __repr__(self) -> str:
        return f"RenderPool(workers={self.workers}, closed={self._closed})"

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Start every worker and let it warm up in the background (it then takes work)."""
        if self._closed:
            return
        for index in range(self.workers):
            self._executor(index)

    async def ready(self) -> list[int]:
        """Wait until every worker has warmed up; their pids."""
        self.start()
        pids = []
        for index in range(self.workers):
            for attempt in range(2):
                warming = self._warming[index]
                try:
                    pids.append(await asyncio.wrap_future(warming) if warming is not None else 0)
                    break
                except BrokenProcessPool:
                    self._replace(index, self._executors[index])
                    if attempt:
                        raise
        return pids

    async def close(self) -> None:
        """Let running work finish, then stop the workers (new calls then run in threads)."""
        self._closed = True
        with self._lock:
            executors = [e for e in self._executors if e is not None]
            self._executors = [None] * self.workers
        for executor in executors:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    def _new_executor(self) -> Executor:
        return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context(self.context))

    def _executor(self, index: int) -> Executor:
        with self._lock:
            executor = self._executors[index]
            if executor is None:
                executor = self._executors[index] = self._new_executor()
                # the first job of a fresh worker: imports and fonts before any picture
                self._warming[index] = executor.submit(warm)
            return executor

    def _replace(self, index: int, broken: Executor | None) -> None:
        with self._lock:
            if self._executors[index] is not broken or broken is None:
                return  # another call replaced it already
            self._executors[index] = None
            self.replaced += 1
        log.warning("render worker %d died; starting another", index)
        broken.shutdown(wait=False, cancel_futures=True)
        if not self._closed:
            self._executor(index)

    # ------------------------------------------------------------------ work
    def lane(self, route: Hashable) -> int:
        """Which worker serves `route` (a game id: always the same one for a game)."""
        if isinstance(route, int):
            return route % self.workers
        return hash(route) % self.workers

    async def draw(self, game: str, kind: str, view: Any, names: Sequence[str], lang: str, *,
                   route: Hashable | None = None) -> tuple[bytes, str]:
        """(PNG bytes, alt text) of a game's image; a renderer's own error is raised."""
        names = list(names)
        if not self.in_processes:
            return await asyncio.to_thread(draw_picture, game, kind, view, names, lang)
        return await self._run(route if route is not None else (game, tuple(names)),
                               _draw_sent, (game, kind, sendable(view), names, lang),
                               lambda: draw_picture(game, kind, view, names, lang),
                               what=f"the {kind} of a {game} game")

    async def call(self, fn: Callable[..., T], *args: Any, route: Hashable | None = None) -> T:
        """fn(*args) in a worker (fn and args picklable: a module-level function)."""
        if not self.in_processes:
            return await asyncio.to_thread(fn, *args)
        return await self._run(route if route is not None else getattr(fn, "__name__", ""),
                               _call_here, (fn, args), lambda: fn(*args),
                               what=getattr(fn, "__qualname__", "a call"))

    async def _run(self, route: Hashable, job: Callable[..., Any], args: tuple, here: Callable[[], Any], *,
                   what: str) -> Any:
        index = self.lane(route)
        for _ in range(2):  # a worker that dies is replaced and the call tried once more
            if self._closed:
                break
            try:
                executor = self._executor(index)
            except OSError:  # no process could be started (out of memory, process limit)
                log.exception("no render worker could be started; drawing %s in a thread", what)
                self.in_thread += 1
                break
            try:
                value, pid = await asyncio.wrap_future(executor.submit(job, *args))
            except BrokenProcessPool:
                self._replace(index, executor)
                continue
            except RuntimeError:  # shut down meanwhile: the bot is closing
                if not self._closed:
                    raise
                break
            self.served[pid] += 1
            return value
        else:
            log.error("render worker %d died twice in a row; drawing %s in a thread", index, what)
            self.in_thread += 1
        return await asyncio.to_thread(here)


# --- the process-wide pool ---------------------------------------------------------------------------
_IN_THREADS = RenderPool(0)
_current: RenderPool = _IN_THREADS


def current() -> RenderPool:
    """The installed pool (the running bot's), or one that draws in threads."""
    return _current


def install(pool: RenderPool) -> None:
    global _current
    _current = pool


def uninstall(pool: RenderPool) -> None:
    """Back to threads, if `pool` is still the installed one."""
    global _current
    if _current is pool:
        _current = _IN_THREADS
