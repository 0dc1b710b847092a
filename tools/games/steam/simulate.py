"""Steam bot games in bulk: does each map play (ST-M3)?

`python -m tools.games.steam.simulate --games 300` plays that many games on each map — builder bots
in every seat, and every fourth game one random bot among them — cycling through 3, 4 and 5
players and the basic and standard games, and prints the distributions: cubes delivered per
colour (gray goes only to new cities from Urbanize), how often Urbanize and City Growth were
used, tiles per completed link, links per delivery route, final scores, bankruptcies and moves.

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

from games.steam.derived import runs
from games.steam.map import MAP_IDS
from games.steam.models import COLOURS, Deliver
from games.steam.rules import GAME
from tools.simulate import Seating, lineup_for, play_out, run_games, shares


@dataclass
class GameStats:
    map: str
    players: int
    standard: bool
    lineup: tuple[str, ...]
    delivered: dict[str, int]          # cube (= destination city) colour -> cubes delivered
    urbanized: list[str]               # colours of the new cities
    growths: int
    link_tiles: list[int]              # tiles in each completed link at the end
    route_links: list[int]             # links used by each delivery
    scores: list[int]                  # final totals of the seats still in
    bankrupt: int
    moves: int
    turns: int
    seconds: float


@dataclass
class Summary:
    games: list[GameStats] = field(default_factory=list)

    def of_map(self, map_id: str) -> "Summary":
        return Summary([g for g in self.games if g.map == map_id])

    @property
    def delivered(self) -> Counter:
        out: Counter = Counter()
        for g in self.games:
            out.update(g.delivered)
        return out

    @property
    def urbanized(self) -> Counter:
        return Counter(c for g in self.games for c in g.urbanized)

    @property
    def growths(self) -> int:
        return sum(g.growths for g in self.games)

    @property
    def link_tiles(self) -> Counter:
        return Counter(n for g in self.games for n in g.link_tiles)

    @property
    def route_links(self) -> Counter:
        return Counter(n for g in self.games for n in g.route_links)

    @property
    def bankruptcies(self) -> int:
        return sum(g.bankrupt for g in self.games)


def play(map_id: str, players: int, standard: bool, seed: int, lineup: tuple[str, ...],
         check: bool = False) -> GameStats:
    """One whole game; with `check`, conservation is checked after every move."""
    route_links: list[int] = []

    def watch(_state: Any, _seat: int, action: Any, done: Any) -> None:
        if isinstance(action, Deliver):
            route_links.extend(e.params["links"] for e in done.events if e.key == "steam.ev.delivered")

    played = play_out(GAME, Seating(players, {"map": map_id, "standard": standard}, seed, lineup),
                      watch=watch, check=check)
    state = played.state
    result = GAME.result(state)
    assert result is not None
    link_tiles = [len({h for h, _ in run.segments}) for run in runs(state).values() if run.complete]
    return GameStats(
        map=map_id, players=players, standard=standard, lineup=lineup,
        delivered={c: n for c, n in zip(COLOURS, state.delivered)},
        urbanized=list(state.new_cities.values()), growths=len(state.grown),
        link_tiles=link_tiles, route_links=route_links,
        scores=[p.total for p in result.players if not p.stats.get("bankrupt")],
        bankrupt=sum(p.bankrupt for p in state.players), moves=played.moves, turns=state.turn,
        seconds=played.seconds)


def plan(games: int, maps: tuple[str, ...] = MAP_IDS, first_seed: int = 1, check: bool = False) -> list[tuple]:
    """`games` games per map: players 3, 4, 5 in turn, basic and standard alternating every
    three games, builder lineups with a random seat in every fourth."""
    jobs = []
    for map_id in maps:
        for i in range(games):
            players = 3 + i % 3
            jobs.append((map_id, players, (i // 3) % 2 == 1, first_seed + i, lineup_for(i, players), check))
    return jobs


def simulate(games: int, maps: tuple[str, ...] = MAP_IDS, first_seed: int = 1, jobs: int = 1,
             check: bool = False) -> Summary:
    return Summary(run_games(play, plan(games, maps, first_seed, check), jobs, chunksize=4))


def report(summary: Summary) -> list[str]:
    lines = []
    for map_id in sorted({g.map for g in summary.games}):
        s = summary.of_map(map_id)
        n = len(s.games)
        scores = [x for g in s.games for x in g.scores]
        winners = [max(g.scores) for g in s.games if g.scores]
        lines.append(f"{map_id}: {n} games")
        lines.append(f"  cubes delivered by colour: {shares(s.delivered)}")
        lines.append("  games with a delivery of each colour: "
                     + "  ".join(f"{c} {sum(1 for g in s.games if g.delivered[c])}" for c in COLOURS))
        lines.append(f"  Urbanize used {sum(s.urbanized.values())} times ({sum(1 for g in s.games if g.urbanized)}"
                     f" games), new cities by colour: {shares(s.urbanized)}")
        lines.append(f"  City Growth used {s.growths} times ({sum(1 for g in s.games if g.growths)} games)")
        lines.append(f"  tiles per completed link: {shares(s.link_tiles)}")
        lines.append(f"  links per delivery: {shares(s.route_links)}")
        if scores:
            lines.append(f"  final scores: mean {statistics.mean(scores):.1f}, median {statistics.median(scores)},"
                         f" range {min(scores)}–{max(scores)}; winners' mean {statistics.mean(winners):.1f}")
        lines.append(f"  bankruptcies: {s.bankruptcies} in {sum(1 for g in s.games if g.bankrupt)} games")
        moves = [g.moves for g in s.games]
        lines.append(f"  moves a game: mean {statistics.mean(moves):.0f}, range {min(moves)}–{max(moves)};"
                     f" turns: {shares(Counter(g.turns for g in s.games))}")
        lines.append(f"  seconds a game: mean {statistics.mean(g.seconds for g in s.games):.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.games.steam.simulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per map")
    parser.add_argument("--map", choices=MAP_IDS, action="append", help="only this map (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--check", action="store_true", help="check conservation after every move")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    summary = simulate(args.games, tuple(args.map or MAP_IDS), args.seed, args.jobs, args.check)
    for line in report(summary):
        print(line)
    print(f"{len(summary.games)} games in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
