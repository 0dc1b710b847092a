"""`railyard bench --stored-games N`: the database it fills looks like a real one, and the
run prints its one line. The figures themselves are never asserted (speed is measured by
the bench, not by tests)."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from bot.store.sql import unpack_actions
from tools.bench import fill_stored_games, run_stored_bench
from railyard.cli import main

pytestmark = pytest.mark.slow  # a bench


async def test_the_filled_database_holds_distinct_realistic_games(tmp_path: Path) -> None:
    db = tmp_path / "stored.sqlite3"
    counts = await fill_stored_games(db, "ticket_to_ride", 40, 4, templates=1)
    assert counts["games"] == 40 and 0 < counts["ongoing"] < 40

    conn = sqlite3.connect(db)
    games = conn.execute("SELECT id, channel_id, status, snapshot, version FROM games").fetchall()
    assert len({g[0] for g in games}) == len({g[1] for g in games}) == 40
    assert {g[2] for g in games} == {"finished", "active"}
    assert all(g[3] for g in games)  # every game has its state
    # a copy still going stops where its snapshot does: its log and posts match its version
    for game_id, _, status, _, version in games:
        actions = conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
        packed = conn.execute("SELECT actions FROM action_archives WHERE game_id = ?", (game_id,)).fetchone()
        if packed is not None:  # a game closed over a day ago: its log packed, as retention leaves it
            assert actions == 0 and status == "finished"
            actions = len(unpack_actions(game_id, packed[0]))
        posts = conn.execute("SELECT COUNT(*) FROM outbox WHERE game_id = ?", (game_id,)).fetchone()[0]
        assert posts == actions + 1  # the start post and one post per action
        if status == "active":
            assert conn.execute("SELECT COUNT(*) FROM timers WHERE game_id = ?", (game_id,)).fetchone()[0] == 1
    assert conn.execute("SELECT COUNT(*) FROM action_archives").fetchone()[0] > 0
    # everything was delivered long ago (nothing for the dispatcher to do at start)
    assert conn.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL").fetchone()[0] == 0
    players = conn.execute("SELECT COUNT(DISTINCT user_id) FROM seats").fetchone()[0]
    assert players > 4  # the copies are played by other people
    conn.close()


async def test_the_run_prints_the_ack_line(capsys) -> None:
    assert await run_stored_bench("ticket_to_ride", stored_games=3, moves=6, render_workers=(0,), burst=4,
                                  templates=1) == 0
    out = capsys.readouterr().out
    # the one-line form is the burst's; the one-at-a-time figure has a line of its own
    assert re.search(r"^ack with 3 stored games: p50 \d+\.\d ms, p99 \d+\.\d ms$", out, re.M), out
    assert re.search(r"^burst of 4 moves on 4 games, 0 render workers: ack p50", out, re.M), out
    assert re.search(r"^  sequential acks with 3 stored games: p50 \d+\.\d ms, p99 \d+\.\d ms$", out, re.M), out
    assert "6 moves through /move" in out and "0 moves refused" in out
    assert "due-outbox query after pruning" in out


def test_the_option_is_on_the_command_line(capsys) -> None:
    try:
        main(["bench", "--help"])
    except SystemExit:
        pass
    assert "--stored-games N" in capsys.readouterr().out
