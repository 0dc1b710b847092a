"""The burst of `railyard bench --stored-games N --render-workers ...`: moves in many games at
once while the dispatcher draws and delivers; it prints one line per render worker count. Run
here small and in threads (0 workers): the figures are the bench's business, not the tests'."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.bench import _burst_line, fill_stored_games

pytestmark = pytest.mark.slow  # a bench


async def test_a_burst_prints_its_line_with_every_move_answered(tmp_path: Path) -> None:
    db = tmp_path / "stored.sqlite3"
    await fill_stored_games(db, "ticket_to_ride", 3, 4, templates=1)
    line, acks = await _burst_line("ticket_to_ride", f"sqlite:///{db}", 0, 4)
    match = re.fullmatch(r"burst of (\d+) moves on 4 games, 0 render workers: ack p50 [\d.]+ ms, p99 [\d.]+ ms;"
                         r" (\d+) boards drawn and delivered after [\d.]+ s, bot process CPU [\d.]+ s", line)
    assert match, line
    assert match.group(1) == "4" and int(match.group(2)) >= 1  # every game moved; boards went out
    assert len(acks) == 4 and all(a > 0 for a in acks)
