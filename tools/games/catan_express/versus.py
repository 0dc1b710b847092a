"""Catan Express's rules engine against catanatron's, actions per second, in one run.

    python -m tools.games.catan_express.versus --python /tmp/catanatron-venv/bin/python [--games 20 --rounds 3]

Random full games with 4 random players on both engines: catanatron's `Game` with four
`RandomPlayer`s (each draws among its legal actions), and ours timed two ways
(benchmarks.random_games): the random bot choosing its own way (`RandomBot.choose`: a kind of
move, then a move of that kind, listing only what it needs), the figure compared, and every
move taken from the full `legal_actions` list (hundreds of trade offers included).

Why catanatron runs in a subprocess
    catanatron is never a dependency of Railyard: it lives in a throwaway venv of its own, and
    this module only starts that venv's interpreter on a small script that uses catanatron's
    public API (`Game(players, seed=...).play()`, `len(game.state.actions)`) and prints its
    counts and times as JSON. Our games run in this process.

Why CPU time, and why the engines take turns
    A shared machine's speed drifts by half within a minute. Each engine counts the CPU time of
    its own process (time.process_time), which the other programs' load disturbs far less than
    the clock on the wall; the catanatron process stays up for the whole run, answering "play
    these games" requests, and within each round the two engines take turns a few games at a
    time (the same seeds for both). A round's figures are the sums of its turns, its ratios are
    taken within it, and their median is the summary.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from tools.games.catan_express.bench import random_games

VENV_HINT = """{python} cannot import catanatron. Make the throwaway venv it runs in (never a
dependency of Railyard):

    python3 -m venv /tmp/catanatron-venv
    /tmp/catanatron-venv/bin/pip install catanatron==3.2.1

then pass --python /tmp/catanatron-venv/bin/python."""

# Run by the other interpreter: catanatron's public API only. Each line read, "<games> <first
# seed>", is answered with one JSON line of the actions played and the CPU seconds taken.
CATANATRON = """
import json, sys, time
from catanatron import Color, Game, RandomPlayer
for request in sys.stdin:
    games, first = map(int, request.split())
    actions = 0
    started = time.process_time()
    for seed in range(first, first + games):
        game = Game([RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)], seed=seed)
        game.play()
        actions += len(game.state.actions)
    print(json.dumps({"games": games, "actions": actions, "seconds": time.process_time() - started}), flush=True)
"""

PROBE = "import catanatron"


class NoCatanatron(RuntimeError):
    pass


def check(python: str) -> None:
    """Raise NoCatanatron (its message says how to make the venv) unless `python` imports it."""
    try:
        done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        raise NoCatanatron(VENV_HINT.format(python=python)) from None
    if done.returncode != 0:
        raise NoCatanatron(VENV_HINT.format(python=python))


class Catanatron:
    """The catanatron process: started once, asked for games again and again."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen([python, "-c", CATANATRON], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)

    def games(self, games: int, first_seed: int) -> dict[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{games} {first_seed}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"catanatron's process ended (exit code {self.proc.wait()})")
        return json.loads(answer)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def ours(games: int, menu: bool, first_seed: int = 1) -> dict[str, float]:
    from games.catan_express.rules import GAME
    return random_games(GAME, games, menu=menu, first_seed=first_seed, clock=time.process_time)


def _add(total: dict[str, float], part: dict[str, float]) -> None:
    for key in ("games", "actions", "seconds"):
        total[key] = total.get(key, 0) + part[key]
    total["actions_per_s"] = total["actions"] / total["seconds"]


def line(name: str, r: dict[str, Any]) -> str:
    return (f"{name:<44} {r['actions_per_s']:>9,.0f} actions per CPU s  ({r['actions']:,} actions in"
            f" {r['games']} games, {r['seconds']:.2f} s)")


def run(python: str, games: int, rounds: int, turn: int = 2, out: Any = None) -> dict[str, list[float]]:
    """Time `rounds` rounds of `games` games per engine, the engines taking turns `turn` games
    at a time; print them and the ratios; return the ratios."""
    check(python)
    other = Catanatron(python)
    try:
        return _rounds(other, games, rounds, turn, out or sys.stdout)
    finally:
        other.close()


def _rounds(other: Catanatron, games: int, rounds: int, turn: int, out: Any) -> dict[str, list[float]]:
    other.games(1, 10_000)  # both warmed up: imports, and the boards' caches a running bot has
    ours(1, menu=False, first_seed=10_000)
    ratios: dict[str, list[float]] = {"bot": [], "menu": []}
    for k in range(1, rounds + 1):
        theirs: dict[str, float] = {}
        bot: dict[str, float] = {}
        menu: dict[str, float] = {}
        for first in range(1, games + 1, turn):
            count = min(turn, games + 1 - first)
            _add(theirs, other.games(count, first))
            _add(bot, ours(count, menu=False, first_seed=first))
            _add(menu, ours(count, menu=True, first_seed=first))
        ratios["bot"].append(bot["actions_per_s"] / theirs["actions_per_s"])
        ratios["menu"].append(menu["actions_per_s"] / theirs["actions_per_s"])
        print(f"round {k}:", file=out)
        print("  " + line("catanatron, 4 RandomPlayers", theirs), file=out)
        print("  " + line("catan_express, RandomBot.choose + apply", bot), file=out)
        print("  " + line("catan_express, legal_actions + pick + apply", menu), file=out)
        print(f"  per action, catan_express / catanatron: {ratios['bot'][-1]:.2f} (random bot),"
              f" {ratios['menu'][-1]:.2f} (full legal_actions)", file=out, flush=True)
    print(f"median of {rounds} rounds, catan_express / catanatron per action:"
          f" {statistics.median(ratios['bot']):.2f} (random bot), {statistics.median(ratios['menu']):.2f}"
          f" (full legal_actions)", file=out)
    return ratios


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.games.catan_express.versus",
                                     description="Catan Express against catanatron, actions per second.")
    parser.add_argument("--python", required=True, help="an interpreter that can import catanatron")
    parser.add_argument("--games", type=int, default=20, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--turn", type=int, default=2, help="games an engine plays before the other's turn")
    args = parser.parse_args(argv)
    try:
        run(args.python, args.games, args.rounds, args.turn)
    except NoCatanatron as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
