"""The `railyard` command line: the demo (the README's main job), replay and bench."""
import json
import re
import sqlite3
from pathlib import Path

import pytest
from PIL import Image

from railyard.cli import main

FIXTURE = Path("tests/fixtures/ticket_to_ride/game-2p-seed101.json")


@pytest.mark.slow  # a whole game
def test_demo_plays_a_whole_game_and_writes_every_image(tmp_path, capsys):
    out = tmp_path / "demo"
    record = tmp_path / "record.json"
    assert main(["demo", "--players", "3", "--seed", "5", "--out", str(out), "--quiet",
                 "--record", str(record)]) == 0
    text = capsys.readouterr().out
    assert "Final scores" in text and "Longest path" in text
    boards = sorted(out.glob("board-*.png"))
    assert len(boards) > 50
    hands = sorted(out.glob("hand-*.png"))
    assert len(hands) >= 4  # two people, mid-game and at the end
    assert (out / "final.png").exists()
    # the timelapse: one frame before the first move and one after every turn, within budget
    from games.replay import GameRecord
    from render.timelapse import turn_ends

    moves = GameRecord.model_validate_json(record.read_text(encoding="utf-8")).moves
    with Image.open(out / "timelapse.webp") as animation:
        assert animation.is_animated and animation.n_frames == len(turn_ends(moves)) + 1
    assert (out / "timelapse.webp").stat().st_size < 8_000_000
    assert "Timelapse:" in text and "frames" in text
    first, last = Image.open(boards[0]), Image.open(boards[-1])
    assert first.size == last.size and first.tobytes() != last.tobytes()
    # The database holds the finished game and its whole log; the record replays to it.
    with sqlite3.connect(out / "demo.sqlite3") as db:
        status, = db.execute("SELECT status FROM games").fetchone()
        moves, = db.execute("SELECT COUNT(*) FROM actions").fetchone()
    assert status == "finished" and moves > 50
    assert len(json.loads(record.read_text(encoding="utf-8"))["moves"]) == moves
    assert main(["replay", str(record)]) == 0


@pytest.mark.slow  # a whole game
def test_demo_in_japanese(tmp_path, capsys):
    assert main(["demo", "--players", "2", "--seed", "9", "--out", str(tmp_path), "--lang", "ja", "--quiet",
                 "--no-timelapse"]) == 0
    text = capsys.readouterr().out
    assert "最終結果" in text and "路線" in text
    assert not list(tmp_path.glob("timelapse.*")) and "Timelapse" not in text


def test_demo_refuses_a_bad_player_count(tmp_path, capsys):
    assert main(["demo", "--players", "9", "--out", str(tmp_path)]) == 2
    assert "2–5 players" in capsys.readouterr().err


def test_replay_matches_and_reports_a_different_result(tmp_path, capsys):
    assert main(["replay", str(FIXTURE)]) == 0
    assert "matches" in capsys.readouterr().out
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["result"][0]["total"] += 1
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(changed)]) == 1
    assert "DIFFERS" in capsys.readouterr().err


def test_replay_of_garbage_says_why(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "ticket_to_ride"', encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    assert "not a game record" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2


@pytest.mark.slow  # a whole game
def test_bench_prints_its_figures(capsys):
    assert main(["bench", "--games", "3", "--moves", "5", "--timelapse-games", "0"]) == 0
    text = capsys.readouterr().out
    for needle in ("p95", "render + encode", "games/s"):
        assert needle in text
    assert "timelapse" not in text
    # the final post's timelapse, timed on the shortest game to keep this quick
    assert main(["bench", "ginga", "--games", "3", "--moves", "5", "--timelapse-games", "1"]) == 0
    text = capsys.readouterr().out
    line = next(line for line in text.splitlines() if "timelapse" in line)
    frames, size = re.search(r"(\d+) frames, ([\d.]+) MB", line).groups()
    assert int(frames) > 1 and 0 < float(size) < 8


@pytest.mark.slow  # a whole game
def test_demo_takes_game_options_like_game_new(tmp_path, capsys):
    """`--option advanced=true` reaches the game: the Santa Fe advanced game starts with the
    engineer purchase, and the record keeps the options so the replay is the same game."""
    record = tmp_path / "record.json"
    assert main(["demo", "santa_fe", "--players", "3", "--seed", "4", "--out", str(tmp_path), "--quiet",
                 "--option", "advanced=true", "--option", "buy_track=true", "--record", str(record)]) == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["options"] == {"advanced": True, "buy_track": True}
    assert any(text.startswith("engineer ") for _, text in data["moves"])
    assert any(text.startswith("buy ") for _, text in data["moves"])
    assert main(["replay", str(record)]) == 0


def test_demo_refuses_a_bad_option_and_lists_the_games_options(tmp_path, capsys):
    assert main(["demo", "santa_fe", "--out", str(tmp_path), "--option", "advanced=maybe"]) == 2
    err = capsys.readouterr().err
    assert "advanced='maybe'" in err and "buy_track=<bool>" in err
    assert main(["demo", "santa_fe", "--out", str(tmp_path), "--option", "advanced"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_demo_help_lists_every_games_options(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    text = capsys.readouterr().out
    assert "--option" in text and "santa_fe: advanced=<bool>" in text and "ticket_to_ride: none" in text


@pytest.mark.slow  # a whole game
def test_demo_counts_what_discord_would_send_one_live_board(tmp_path, capsys):
    """A 4-player Ticket to Ride game with two people and two bots: at most one new message
    per person-turn plus the lobby, start and final posts, and at most a quarter of the
    picture bytes of a post per move (every board the demo drew, which is what one post per
    move sent)."""
    import re

    out = tmp_path / "demo"
    assert main(["demo", "--players", "4", "--seed", "2026", "--out", str(out), "--quiet"]) == 0
    waits, line = capsys.readouterr().out.strip().splitlines()[-2:]
    match = re.fullmatch(r"messages: (\d+) new, (\d+) edited, images (\d+\.\d) MB", line)
    assert match, line
    new, edited, megabytes = int(match[1]), int(match[2]), float(match[3])
    counted = re.fullmatch(r"moves: (\d+), (\d+) of them waited on a person", waits)
    assert counted, waits
    with sqlite3.connect(out / "demo.sqlite3") as db:
        people = {seat for seat, user in db.execute("SELECT seat, user_id FROM seats") if user}
        moves = [seat for seat, in db.execute("SELECT seat FROM actions ORDER BY seq")]
        by_people = db.execute("SELECT COUNT(*) FROM actions WHERE auto IS NULL AND actor_user_id IS NOT NULL"
                               ).fetchone()[0]
    assert (int(counted[1]), int(counted[2])) == (len(moves), by_people) and 0 < by_people < len(moves)
    person_turns = 1 + sum(1 for before, seat in zip([None, *moves], moves) if seat in people and seat != before)
    assert len(people) == 2 and new <= person_turns + 3, (new, person_turns)
    assert edited > new  # steps inside turns and bot moves edit the live board
    # before the live board: a post per move, each board encoded at zlib level 1
    import io

    from PIL import Image

    def as_before(path):
        buffer = io.BytesIO()
        Image.open(path).save(buffer, "PNG", compress_level=1)
        return len(buffer.getvalue())

    post_per_move = sum(as_before(p) for p in [*out.glob("board-*.png"), out / "final.png"])
    assert megabytes * 1e6 <= post_per_move / 4, (megabytes, post_per_move / 1e6)
