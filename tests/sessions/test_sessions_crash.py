"""A process killed in the middle of a move leaves the old state or the new one, never half.

The child processes are real Python interpreters working on the same database (a SQLite
file, or a PostgreSQL database: the server rolls back the dead connection's transaction);
they are killed with SIGKILL (no clean-up of any kind runs)."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from bot.store import PAUSE_ENV, PAUSE_MARKER_ENV
from tests.support import actor_for, make_service, open_all
from tests.support.backends import Backend

pytestmark = pytest.mark.slow  # real processes killed mid-move

ROOT = Path(__file__).resolve().parents[2]

CHILD_PRELUDE = textwrap.dedent(f"""
    import asyncio, random, sys
    sys.path.insert(0, {str(ROOT)!r})
    from games import registry
    registry.register("toy", "tests.support.toy_game:GAME")
    from bot.sessions import Actor, SessionError, SessionService
    from bot.store import open_store
""")

ONE_MOVE = CHILD_PRELUDE + textwrap.dedent("""
    async def main(url, channel, user_id, move):
        store = await open_store(url)
        service = SessionService(store)
        await service.act(channel, Actor(user_id, "x"), move)
        print("COMMITTED", flush=True)
    asyncio.run(main(*sys.argv[1:5]))
""")

MANY_MOVES = CHILD_PRELUDE + textwrap.dedent("""
    async def main(url, channel, seed):
        rng = random.Random(int(seed))
        store = await open_store(url)
        service = SessionService(store)
        last = None
        while True:
            status = await service.status(channel)
            if status.info.status != "active":
                print("OVER", flush=True)
                return
            seat = rng.choice(status.waiting)
            user_id = status.info.seats[seat].user_id
            actor = Actor(user_id, "x")
            if last is not None and rng.random() < 0.25:
                try:
                    await service.undo(channel, last)
                    print("UNDO", flush=True)
                    continue
                except SessionError:
                    pass
            view = await service.private_view(channel, user_id)
            await service.act(channel, actor, rng.choice(view.legal).notation)
            last = actor
            print("MOVE", flush=True)
    asyncio.run(main(*sys.argv[1:4]))
""")


async def _consistent(backend: Backend, toy_game, clock, game_id: int) -> tuple[int, int, int]:
    """Reopen the database and check that every move is whole: snapshot == replay of the log,
    one version bump and one outbox row per action row. Returns (version, actions, outbox)."""
    async with await backend.open() as store:
        service = make_service(store, clock)
        row = await store.get_game(game_id)
        actions = await store.actions(game_id)
        outbox = await store.outbox_rows(game_id)
        assert toy_game.load_state(row.snapshot) == await service.rebuild(game_id)
        starts = sum(1 for r in outbox if r.kind == "start")
        assert starts == 1
        assert len(outbox) == starts + len(actions)
        return row.version, len(actions), len(outbox)


async def _setup(backend: Backend, clock, rounds: int = 3):
    async with await backend.open() as store:
        service = make_service(store, clock)
        from tests.support import ALICE, BOB

        await service.create("toy", "chan-1", "g", ALICE, {"rounds": rounds})
        await service.join("chan-1", BOB)
        out = await open_all(service, "chan-1", await service.start("chan-1", ALICE))
        return out


async def test_killed_inside_the_move_transaction_keeps_the_old_state(
        backend: Backend, tmp_path: Path, toy_game, clock) -> None:
    out = await _setup(backend, clock)
    before = await _consistent(backend, toy_game, clock, out.game_id)
    mover = actor_for(out, 0)
    marker = tmp_path / "paused"
    env = {**os.environ, PAUSE_ENV: "60", PAUSE_MARKER_ENV: str(marker)}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", ONE_MOVE, backend.url, "chan-1", mover.user_id, "pass",
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        for _ in range(600):
            if marker.exists() or child.returncode is not None:
                break
            await asyncio.sleep(0.05)
        assert marker.exists(), (await child.stderr.read()).decode()
        # the move's rows are written (uncommitted) when the process dies
        os.kill(child.pid, signal.SIGKILL)
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()
    assert child.returncode == -signal.SIGKILL
    assert b"COMMITTED" not in await child.stdout.read()

    assert await _consistent(backend, toy_game, clock, out.game_id) == before
    # the game goes on normally afterwards
    async with await backend.open() as store:
        service = make_service(store, clock)
        again = await service.act("chan-1", mover, "pass", expected_version=out.version)
        assert again.version == out.version + 1
    assert (await _consistent(backend, toy_game, clock, out.game_id))[1] == before[1] + 1


async def test_killed_at_random_moments_never_leaves_half_a_move(
        backend: Backend, toy_game, clock) -> None:
    out = await _setup(backend, clock, rounds=200)
    rng = random.Random(7)
    progress = []
    for round_ in range(4):
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", MANY_MOVES, backend.url, "chan-1", str(round_),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            lines = 0
            target = rng.randint(5, 40)
            while lines < target:
                line = await asyncio.wait_for(child.stdout.readline(), timeout=60)
                assert line, (await child.stderr.read()).decode()
                lines += 1
            await asyncio.sleep(rng.random() * 0.05)
            child.send_signal(signal.SIGKILL)
        finally:
            if child.returncode is None:
                child.kill()
            await child.wait()
        version, actions, _ = await _consistent(backend, toy_game, clock, out.game_id)
        # every action row came with exactly one version bump (start + openings before)
        assert version - out.version == actions - 2
        progress.append(actions)
    assert progress == sorted(progress) and progress[-1] > progress[0]
