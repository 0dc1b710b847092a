"""`railyard demo ginga`, `railyard bench ginga` and `railyard replay` of a recorded game."""
from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

import pytest

from railyard.cli import main

FIXTURE = Path("tests/fixtures/ginga/game-3p-seed505.json")


@pytest.mark.slow  # a whole game
def test_demo_plays_a_whole_game_and_writes_every_image(tmp_path, capsys):
    out = tmp_path / "demo"
    record = tmp_path / "record.json"
    assert main(["demo", "ginga", "--players", "3", "--seed", "5", "--out", str(out), "--quiet",
                 "--record", str(record)]) == 0
    text = capsys.readouterr().out
    assert "Galactic Railway" in text and "Final scores" in text and "Stations" in text and "Loops" in text
    boards = sorted(out.glob("board-*.png"))
    assert len(boards) > 15
    assert len(list(out.glob("hand-*.png"))) >= 2 and (out / "final.png").exists()
    first, last = Image.open(boards[0]), Image.open(boards[-1])
    assert first.size == last.size and first.tobytes() != last.tobytes()
    assert main(["replay", str(record)]) == 0


@pytest.mark.slow  # a whole game
def test_demo_in_japanese(tmp_path, capsys):
    assert main(["demo", "ginga", "--players", "2", "--seed", "9", "--out", str(tmp_path), "--lang", "ja",
                 "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "銀河鉄道" in text and "最終結果" in text and "環状線" in text


def test_replay_of_a_recorded_game_matches(capsys):
    assert main(["replay", str(FIXTURE)]) == 0
    assert "matches" in capsys.readouterr().out
    assert json.loads(FIXTURE.read_text(encoding="utf-8"))["game"] == "ginga"


@pytest.mark.slow  # a whole game
def test_bench_prints_the_loop_figures(capsys):
    assert main(["bench", "ginga", "--games", "2", "--moves", "5"]) == 0
    text = capsys.readouterr().out
    for needle in ("p95", "games/s", "loop scoring", "hard full board A", "complete 8×8 grid", "worst case found"):
        assert needle in text, needle
