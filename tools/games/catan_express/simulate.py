"""Catan Express bot games in bulk: does the game play out, with every seat count and map?

`python -m tools.games.catan_express.simulate --games 50` plays that many games for each player count
3 to 6 on each of the main and islands maps — builder bots in every seat, and every fourth game
one random bot among them (`--random`: random bots in every seat) — checks the engine's
invariants after every move, and prints the distributions: turns, moves, the winner's points,
stops named, races won against games that ended without stops, chips, towers and trades.

`simulate` returns the same figures as a `Summary` for tests.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.catan_express.rules import GAME
from tools.simulate import Seating, lineup_for, play_out, run_games, shares, spread

MAPS = ("main", "islands")
# A game still going after this many moves is one whose race cannot end: every seat that lacks
# a tower is out of pieces and the stop lies beyond the built network. The rules have no end
# for that case, so the simulation stops it and reports it as "stuck".
MOVE_CAP = 25_000
STUCK = "stuck"
PLAYERS = (3, 4, 5, 6)


@dataclass
class GameStats:
    map: str
    players: int
    lineup: tuple[str, ...]
    winner: int
    winner_points: int
    points: list[int]
    reason: str                  # "race" (someone collected every tower), "no_stops" or STUCK
    stops: int
    towers: list[int]            # per seat
    chips: list[int]             # per seat
    bank_trades: int
    player_trades: int           # offers closed with a partner
    offers: int
    knights: int
    moves: int
    turns: int
    seconds: float


@dataclass
class Summary:
    games: list[GameStats] = field(default_factory=list)

    def of(self, map_id: str | None = None, players: int | None = None) -> "Summary":
        return Summary([g for g in self.games if (map_id is None or g.map == map_id)
                        and (players is None or g.players == players)])

    def wins_by_bot(self) -> Counter:
        return Counter(g.lineup[g.winner] for g in self.games)


def play(map_id: str, players: int, seed: int, lineup: tuple[str, ...], check: bool = True) -> GameStats:
    """One whole game; with `check`, the engine's invariants after every move."""
    trades = Counter()

    def watch(_state: Any, _seat: int, action: Any, _result: Any) -> None:
        kind = action.kind
        if kind == "bank" or kind == "offer":
            trades[kind] += 1
        elif kind == "partner" and action.seat is not None:
            trades["closed"] += 1

    played = play_out(GAME, Seating(players, {"map": map_id}, seed, lineup), watch=watch, check=check,
                      move_cap=MOVE_CAP)
    state = played.state
    if played.finished:
        result = GAME.result(state)
        assert result is not None
        winner, winner_points, reason = result.players[0].seat, result.players[0].total, result.reason or ""
    else:
        # A race nobody can finish (see STUCK): counted apart, ranked by points as they stand.
        winner = GAME.ranking(state)[0]
        winner_points, reason = GAME.total(state, winner), STUCK
    return GameStats(
        map=map_id, players=players, lineup=lineup, winner=winner, winner_points=winner_points,
        points=[GAME.total(state, s) for s in range(players)], reason=reason,
        stops=len(state.stops), towers=[len(p.towers) for p in state.players],
        chips=[len(p.chips) for p in state.players], bank_trades=trades["bank"], player_trades=trades["closed"],
        offers=trades["offer"], knights=sum(p.knights for p in state.players), moves=played.moves,
        turns=state.turn, seconds=played.seconds)


def plan(games: int, maps: tuple[str, ...] = MAPS, players: tuple[int, ...] = PLAYERS, first_seed: int = 1,
         all_random: bool = False, check: bool = True) -> list[tuple]:
    jobs = []
    for map_id in maps:
        for n in players:
            for i in range(games):
                jobs.append((map_id, n, first_seed + i, lineup_for(i, n, all_random), check))
    return jobs


def simulate(games: int, maps: tuple[str, ...] = MAPS, players: tuple[int, ...] = PLAYERS, first_seed: int = 1,
             jobs: int = 1, all_random: bool = False, check: bool = True) -> Summary:
    return Summary(run_games(play, plan(games, maps, players, first_seed, all_random, check), jobs))


def report(summary: Summary) -> list[str]:
    lines = []
    for map_id in MAPS:
        for n in PLAYERS:
            s = summary.of(map_id, n)
            if not s.games:
                continue
            gs = s.games
            lines.append(f"{map_id}, {n} players: {len(gs)} games")
            lines.append(f"  turns: {spread([g.turns for g in gs])}")
            lines.append(f"  moves: {spread([g.moves for g in gs])}")
            lines.append(f"  winner's points: {spread([g.winner_points for g in gs])};"
                         f" all seats: {spread([x for g in gs for x in g.points])}")
            lines.append(f"  stops named: {shares(Counter(g.stops for g in gs))}")
            lines.append(f"  ended: {shares(Counter(g.reason for g in gs))}")
            lines.append(f"  chips per seat: {spread([x for g in gs for x in g.chips])};"
                         f" towers per seat: {spread([x for g in gs for x in g.towers])}")
            lines.append(f"  per game: bank trades {spread([g.bank_trades for g in gs])}; offers"
                         f" {statistics.mean(g.offers for g in gs):.1f}, closed {statistics.mean(g.player_trades for g in gs):.1f};"
                         f" knights {statistics.mean(g.knights for g in gs):.1f}")
            mixed = [g for g in gs if len(set(g.lineup)) > 1]
            if mixed:
                lines.append(f"  games with a random seat: {len(mixed)}, won by the random seat"
                             f" {sum(1 for g in mixed if g.lineup[g.winner] == 'random')}")
            lines.append(f"  seconds a game: mean {statistics.mean(g.seconds for g in gs):.2f},"
                         f" max {max(g.seconds for g in gs):.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.games.catan_express.simulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per player count and map")
    parser.add_argument("--map", choices=MAPS, action="append", help="only this map (repeatable)")
    parser.add_argument("--players", type=int, choices=PLAYERS, action="append", help="only this count (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--random", action="store_true", help="random bots in every seat")
    parser.add_argument("--no-check", action="store_true", help="skip the invariants after every move")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    summary = simulate(args.games, tuple(args.map or MAPS), tuple(args.players or PLAYERS), args.seed, args.jobs,
                       args.random, not args.no_check)
    for line in report(summary):
        print(line)
    print(f"{len(summary.games)} games in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
