"""The render pool (render/pool.py): views of all five games cross to a worker small and whole,
a worker draws what this process would, a dead worker is replaced and the call retried, and
workers that keep dying leave the picture to a thread. Real games, real processes."""
from __future__ import annotations

import io
import logging
import multiprocessing
import os
import pickle
import signal
from concurrent.futures import ProcessPoolExecutor

import pytest
from PIL import Image, ImageChops

from games import registry as games
from render import registry as renderers
from render.kit.encode import shrink_files
from render.kit.ended import abandoned, is_abandoned
from render.pool import RenderPool, draw_picture, received, sendable
from tests.support.bot_games import bot_states

GAMES = ["ticket_to_ride", "ginga", "santa_fe", "steam", "catan_express"]
NAMES = ["Alice", "山田太郎", "Zoë", "Bob", "Carol", "Dan"]


@pytest.fixture(scope="module")
def played() -> dict[str, list]:
    """A whole game of each, random bots, up to four players."""
    return {name: bot_states(games.get(name), min(4, games.get(name).max_players), 9, "random")
            for name in GAMES}


def mean_error(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size
    h = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L").histogram()
    return sum(i * n for i, n in enumerate(h)) / sum(h)


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("name", GAMES)
def test_every_view_crosses_whole_and_small(name, played):
    game = games.get(name)
    renderer = renderers.get(name)
    states = played[name]
    players = min(4, game.max_players)
    for state in (states[0], states[len(states) // 2], states[-1]):
        for seat in (None, 0):
            view = game.view(state, seat)
            sent = sendable(view)
            back = received(pickle.loads(pickle.dumps(sent)))
            assert type(back) is type(view) and back == view
            assert len(pickle.dumps(sent)) < 48 * 1024  # JSON text: a few KiB
    view = game.view(states[len(states) // 2], None)
    back = received(sendable(view))
    assert same_pixels(renderer.board_image(back, NAMES[:players], "ja"), renderer.board_image(view, NAMES[:players], "ja"))
    marked = received(sendable(abandoned(view)))
    assert is_abandoned(marked) and marked.view == view


async def test_a_worker_draws_and_a_dead_one_is_replaced(played):
    game = games.get("ginga")
    view = game.view(played["ginga"][-1], None)
    pool = RenderPool(1)
    try:
        (first,) = await pool.ready()
        assert first != os.getpid()
        data, alt = await pool.draw("ginga", "board", view, NAMES[:4], "en", route=12)
        assert alt == draw_picture("ginga", "board", view, NAMES[:4], "en")[1] and alt
        # the board as this process draws it, in the worker's 256 colours (its own palette)
        drawn = renderers.get("ginga").board_image(view, NAMES[:4], "en")
        assert mean_error(Image.open(io.BytesIO(data)), drawn) < 1.5
        big = [("board.png", data), ("notes.txt", b"words")]
        small = await pool.call(shrink_files, big, route=12)
        assert small[1] == big[1] and Image.open(io.BytesIO(small[0][1])).width == Image.open(io.BytesIO(data)).width // 2
        assert pool.served == {first: 2}

        os.kill(first, signal.SIGKILL)
        data, _ = await pool.draw("ginga", "hand", game.view(played["ginga"][-2], 1), NAMES[:4], "en", route=12)
        assert Image.open(io.BytesIO(data)).format == "PNG"
        assert pool.replaced == 1 and pool.in_thread == 0
        (second,) = await pool.ready()
        assert second not in (first, os.getpid()) and pool.served[second] == 1
    finally:
        await pool.close()
    with pytest.raises(ProcessLookupError):
        os.kill(second, 0)
    assert not pool.in_processes  # closed: later calls draw in threads
    data, _ = await pool.draw("ginga", "board", view, NAMES[:4], "en")
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


class DyingPool(RenderPool):
    """Every worker it starts exits before taking any work."""

    def _new_executor(self):
        return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=os._exit, initargs=(3,))


async def test_workers_that_keep_dying_leave_the_picture_to_a_thread(played, caplog, expect_error):
    expect_error('railyard.render.pool', 'died twice in a row')
    view = games.get("ginga").view(played["ginga"][3], None)
    pool = DyingPool(1)
    try:
        with caplog.at_level(logging.WARNING, logger="railyard.render.pool"):
            data, alt = await pool.draw("ginga", "board", view, NAMES[:4], "ja", route=5)
    finally:
        await pool.close()
    assert (data, alt) == draw_picture("ginga", "board", view, NAMES[:4], "ja")
    assert pool.in_thread == 1 and pool.replaced == 2 and not pool.served
    assert any("died twice" in r.getMessage() for r in caplog.records)


async def test_no_workers_draws_in_a_thread(played):
    view = games.get("ginga").view(played["ginga"][-1], None)
    pool = RenderPool(0)
    pool.start()
    assert not pool.in_processes and await pool.ready() == []
    assert await pool.draw("ginga", "board", view, NAMES[:4], "en") == draw_picture("ginga", "board", view, NAMES[:4], "en")
    assert not pool.served
