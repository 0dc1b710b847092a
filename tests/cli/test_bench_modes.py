"""The modes of `railyard bench` beyond one process on SQLite, run end to end at a tiny size:
`--store postgres` with `--stored-games`, `--sizes` (bytes per finished game) and
`--processes` (moves per second by process count). Only the form of the lines and what must
hold whatever the machine (every move made, retention shrinking the database) are checked;
the figures are the bench's business.

PostgreSQL runs on a throwaway server the bench starts itself (bot/store/local_pg.py);
without its programs the PostgreSQL cases are skipped outside CI, as the store tests are."""
from __future__ import annotations

import re

import pytest

from tools.bench import run_size_bench, run_stored_bench, run_throughput_bench
from railyard.cli import main
from bot.store.local_pg import INSTALL_HINT, find_bindir
from tests.support.postgres import in_ci

pytestmark = pytest.mark.slow  # a bench


def _need_postgres() -> None:
    if find_bindir() is None:
        if in_ci():
            pytest.fail(INSTALL_HINT)
        pytest.skip(INSTALL_HINT)


async def test_stored_games_on_postgres_print_the_ack_line(capsys) -> None:
    _need_postgres()
    assert await run_stored_bench("ticket_to_ride", stored_games=20, moves=0, render_workers=(0,), burst=4,
                                  store="postgres", templates=1) == 0
    out = capsys.readouterr().out
    fill = re.search(r"filled in [\d.]+ s \(SQLite [\d.]+ s, then COPY into PostgreSQL [\d.]+ s\): 20 games", out)
    assert fill, out
    assert re.search(r"^burst of 4 moves on 4 games, 0 render workers: ack p50 [\d.]+ ms, p99 [\d.]+ ms;", out, re.M), out
    assert re.search(r"^ack with 20 stored games: p50 \d+\.\d ms, p99 \d+\.\d ms$", out, re.M), out
    assert "sequential" not in out  # moves=0: no one-at-a-time measure


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
async def test_sizes_print_bytes_per_finished_game(store: str, capsys) -> None:
    if store == "postgres":
        _need_postgres()
    assert await run_size_bench("ticket_to_ride", games=1, store=store) == 0
    out = capsys.readouterr().out
    played = re.search(r"every post still stored: ([\d.]+) KB per finished game \((.*)\)$", out, re.M)
    kept = re.search(rf"^bytes per finished game, {store}, after retention: ([\d,]+) \(([\d.]+) KB; (.*)\)$", out, re.M)
    assert played and kept, out
    # retention deletes the delivered posts and packs the log: the game is smaller after it,
    # and its packed log is what is left
    assert int(kept.group(1).replace(",", "")) < float(played.group(1)) * 1024
    assert "outbox" in played.group(2) and "actions" in played.group(2)
    assert "outbox" not in kept.group(3) and "action_archives" in kept.group(3)
    assert re.search(r"stored text per game: snapshot [\d.]+ KB, action events [\d.]+ KB", out), out


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_processes_print_moves_per_second_with_the_ratio(store: str, capsys) -> None:
    if store == "postgres":
        _need_postgres()
    assert run_throughput_bench("ticket_to_ride", processes=(1, 2), players=2, seconds=1.0, warmup=0.5,
                                store=store) == 0
    out = capsys.readouterr().out
    lines = re.findall(rf"^throughput, {store}, (\d) process(?:es)?, 2 players: [\d.]+ moves/s \(([\d.]+)x 1 process\);"
                       r" CPU per move: bot processes ([\d.]+) ms, (.+) \((\d+) moves/s per busy core\);"
                       r" (\d+) moves in [\d.]+ s$", out, re.M)
    assert [n for n, *_ in lines] == ["1", "2"], out  # the same 2 players, in 1 process then 2
    assert lines[0][1] == "1.00"
    assert all(int(moves) > 0 and float(bot_ms) > 0 for _, _, bot_ms, _, _, moves in lines), out
    for *_, database, _, _ in lines:
        if store == "postgres":  # the throwaway server runs here: its CPU is read
            assert re.fullmatch(r"database server [\d.]+ ms", database), database
        else:
            assert database == "database in the bot processes"


def test_the_modes_are_on_the_command_line(capsys) -> None:
    try:
        main(["bench", "--help"])
    except SystemExit:
        pass
    shown = capsys.readouterr().out
    for option in ("--store {sqlite,postgres}", "--database-url URL", "--sizes GAMES", "--processes COUNTS"):
        assert option in shown
