"""A league's standings and its rounds' tables (bot/sessions/leagues.py has the rest): how
players are grouped for a round, the standings from the results of its games, and what the
transaction that ends a league's game adds (the standings posted when it ends a round).

Standings: a game gives each player a point for every player who finished below them (a win in
a 4-player game is 3 points, second place 2...); ties by wins, then average place, then rating.
"""
from __future__ import annotations

import hashlib
import math
from collections import Counter
from itertools import combinations
from typing import Any

from pydantic import BaseModel, Field

from bot.store import LeagueRow, ResultRow, Tx

REPEAT_COST = 1000  # a pair meeting again weighs more than any spread of strength at one table
SWAP_PASSES = 200  # improving swaps tried at most (each pass is a full scan of the swaps)


class StandingLine(BaseModel):
    rank: int
    user_id: str
    name: str
    played: int = 0
    wins: int = 0
    points: int = 0
    forfeits: int = 0
    average_place: float | None = None
    rating: float | None = None


class Standings(BaseModel):
    league_id: int
    name: str
    game: str
    round: int
    rounds: int
    status: str
    lines: list[StandingLine] = Field(default_factory=list)


def table_sizes(n: int, size: int, least: int, most: int) -> list[int] | None:
    """How `n` players sit: the fewest tables of at most `size` seats, as even as possible,
    each within the game's player range; when that is impossible (5 players at tables of 4 for
    a game of 3 or more), fewer, larger tables the game allows. None if no seating works."""
    size = max(least, min(size, most))
    if n < least:
        return None
    for count in range(max(1, math.ceil(n / size)), n + 1):
        base, extra = divmod(n, count)
        if base < least:
            break
        sizes = [base + 1] * extra + [base] * (count - extra)
        if sizes[0] <= size:
            return sizes
    for count in range(math.ceil(n / size) - 1, 0, -1):
        base, extra = divmod(n, count)
        sizes = [base + 1] * extra + [base] * (count - extra)
        if base >= least and sizes[0] <= most:
            return sizes
    return None


def tiebreak(league_id: int, user_id: str) -> str:
    # players alike in standing and rating (everyone, in a first round without ratings) are
    # spread by a hash, not by when they joined: friends who signed up together need not meet
    return hashlib.sha256(f"{league_id}:{user_id}".encode()).hexdigest()


def group_tables(order: list[str], sizes: list[int], met: Counter[frozenset[str]]) -> list[list[str]]:
    """Tables for players in `order` (strongest first), of `sizes`: consecutive players sit
    together, then players are swapped between tables while that lowers the cost — pairs who
    met before (heavily) plus, per table, how far apart in `order` its players are."""
    rank = {u: i for i, u in enumerate(order)}
    tables: list[list[str]] = []
    at = 0
    for size in sizes:
        tables.append(order[at:at + size])
        at += size

    def cost_of(table: list[str]) -> int:
        repeats = sum(met[frozenset(pair)] for pair in combinations(table, 2))
        spread = max(rank[u] for u in table) - min(rank[u] for u in table)
        return REPEAT_COST * repeats + spread

    costs = [cost_of(t) for t in tables]
    for _ in range(SWAP_PASSES):
        best: tuple[int, int, int, int, int] | None = None  # (gain, table a, index a, table b, index b)
        for a, b in combinations(range(len(tables)), 2):
            for i, u in enumerate(tables[a]):
                for j, v in enumerate(tables[b]):
                    ta = tables[a][:i] + [v] + tables[a][i + 1:]
                    tb = tables[b][:j] + [u] + tables[b][j + 1:]
                    gain = costs[a] + costs[b] - cost_of(ta) - cost_of(tb)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, a, i, b, j)
        if best is None:
            break
        _, a, i, b, j = best
        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
        costs[a], costs[b] = cost_of(tables[a]), cost_of(tables[b])
    return [sorted(t, key=rank.__getitem__) for t in tables]


def standing_lines(players: list[tuple[str, str]], results: list[ResultRow],
                   ratings: dict[str, float]) -> list[StandingLine]:
    """The league's standings from the results of its finished games (see the module)."""
    by_game: dict[int, list[ResultRow]] = {}
    for row in results:
        by_game.setdefault(row.game_id, []).append(row)
    lines = {u: StandingLine(rank=0, user_id=u, name=name, rating=ratings.get(u)) for u, name in players}
    places: dict[str, list[int]] = {u: [] for u in lines}
    for rows in by_game.values():
        for row in rows:
            line = lines.get(str(row.user_id)) if row.user_id else None
            if line is None:
                continue  # a bot's seat, or someone who left the league
            line.played += 1
            line.wins += row.place == 1 and not row.forfeited
            line.forfeits += row.forfeited
            line.points += sum(other.place > row.place for other in rows)
            places[line.user_id].append(row.place)
    for u, line in lines.items():
        if places[u]:
            line.average_place = sum(places[u]) / len(places[u])
    ordered = sorted(lines.values(), key=lambda s: (-s.points, -s.wins, s.average_place or 99.0,
                                                      -(s.rating or 0.0), s.name.casefold(), s.user_id))
    rank = 0
    previous: tuple[Any, ...] | None = None
    for i, line in enumerate(ordered, start=1):
        key = (line.points, line.wins, line.average_place)
        if key != previous:
            rank, previous = i, key
        line.rank = rank
    return ordered


async def after_game_ends(tx: Tx, game_id: int, now: float) -> None:
    """In the transaction that ends a game (finished or abandoned): if it was the last game of
    its league's round, the standings after the round are posted (and a last round ends the
    league)."""
    table = await tx.league_table_of_game(game_id)
    if table is None:
        return
    league = await tx.get_league(table.league_id)
    if league is None or league.round != table.round:
        return
    tables = await tx.league_tables(league.id, table.round)
    if not all(t.status in ("finished", "abandoned") for t in tables):
        return
    last = table.round >= league.rounds
    if last:
        await tx.update_league(league.id, round=league.round, status="finished")
    standings = await standings_in_tx(tx, league.model_copy(update={"status": "finished" if last else league.status}))
    await tx.add_outbox(None, "league_round", {
        "league_id": league.id, "channel_id": league.channel_id, "guild_id": league.guild_id,
        "locale": league.locale, "round": table.round, "last": last, "card_message_id": league.card_message_id,
        "standings": standings.model_dump(mode="json")}, now)


async def standings_in_tx(tx: Tx, league: LeagueRow) -> Standings:
    players = await tx.league_players(league.id)
    results: list[ResultRow] = []
    for t in await tx.league_tables(league.id):
        if t.game_id is not None and t.status == "finished":
            results.extend(await tx.results_of_game(t.game_id))
    rated = await tx.ratings_of(league.guild_id, league.game, [u for u, _ in players])
    ratings = {u: r.shown for u, r in rated.items()}
    return Standings(league_id=league.id, name=league.name, game=league.game, round=league.round,
                     rounds=league.rounds, status=league.status,
                     lines=standing_lines(players, results, ratings))
