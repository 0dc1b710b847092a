"""Leagues (bot/sessions/leagues.py, standings.py): sign-up, tables grouped by standing and
rating with repeat meetings avoided, each table a started game, standings posted when a round's
last game ends, and a player who runs out of time forfeits (placed last, rated last). Both
backends."""
from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest

from bot.sessions import Actor, SessionError, SessionService
from bot.sessions.standings import group_tables, standing_lines, table_sizes
from bot.store import ResultRow, StoreBackend

PEOPLE = [Actor(f"u-{name.lower()}", name) for name in
          ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")]


def test_table_sizes_seat_everyone_evenly_within_the_games_range() -> None:
    assert table_sizes(8, 4, 2, 4) == [4, 4]
    assert table_sizes(8, 3, 2, 5) == [3, 3, 2]
    assert table_sizes(7, 4, 3, 4) == [4, 3]
    assert table_sizes(5, 4, 3, 5) == [5]  # two tables would leave one short: one larger table
    assert table_sizes(5, 2, 2, 2) is None and table_sizes(1, 4, 2, 4) is None
    for n in range(2, 40):
        for size in range(2, 7):
            sizes = table_sizes(n, size, 2, 6)
            assert sizes is not None and sum(sizes) == n and max(sizes) - min(sizes) <= 1


def test_tables_group_the_strong_together_and_part_those_who_met() -> None:
    order = [f"p{i}" for i in range(8)]
    assert group_tables(order, [4, 4], Counter()) == [order[:4], order[4:]]
    pairs = [order[:2], order[2:4], order[4:6], order[6:]]
    met = Counter(frozenset(p) for p in pairs)
    tables = group_tables(order, [2, 2, 2, 2], met)
    assert sorted(map(sorted, tables)) != sorted(map(sorted, pairs))
    assert not any(met[frozenset(t)] for t in tables)  # nobody meets again when they need not
    assert sorted(u for t in tables for u in t) == sorted(order)


def test_standings_give_a_point_per_player_beaten_and_place_forfeits_last() -> None:
    def row(game: int, seat: int, user: str, place: int, forfeited: bool = False) -> ResultRow:
        return ResultRow(game_id=game, seat=seat, user_id=user, guild_id="g", game="toy", place=place, total=0,
                         players=3, finished_at=0.0, forfeited=forfeited)

    results = [row(1, 0, "a", 1), row(1, 1, "b", 2), row(1, 2, "c", 3, True),
               row(2, 0, "c", 1), row(2, 1, "d", 1)]
    lines = {s.user_id: s for s in standing_lines([("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")], results, {})}
    assert (lines["a"].points, lines["b"].points, lines["c"].points, lines["d"].points) == (2, 1, 0, 0)
    assert lines["c"].forfeits == 1 and lines["c"].wins == 1 and lines["a"].rank == 1 and lines["b"].rank == 2


async def _join_all(service: SessionService, league_id: int) -> None:
    for person in PEOPLE:
        await service.join_league(league_id, person, "guild-1")


async def _finish(service: SessionService, channel: str, seed: int) -> None:
    rng = random.Random(seed)
    while (status := await service.status(channel)).info.status == "active":
        user = status.waiting_user_ids[0]
        actor = next(p for p in PEOPLE if p.user_id == user)
        legal = (await service.private_view(channel, user)).legal
        await service.act(channel, actor, rng.choice(legal).notation)


async def _rounds_posted(store: StoreBackend) -> list[int]:
    """The rounds whose standings went to the outbox, once each."""
    async with store.read() as tx:
        rows = await tx.fetchall("SELECT payload FROM outbox WHERE kind = 'league_round' ORDER BY id")
    return [json.loads(r["payload"])["round"] if isinstance(r["payload"], str) else r["payload"]["round"]
            for r in rows]


async def test_a_league_of_eight_over_two_rounds(service: SessionService, store: StoreBackend, clock) -> None:
    await service.set_rating_rules("guild-1", enabled=True)
    info = await service.create_league(guild_id="guild-1", channel_id="league-chan", name="Autumn  cup",
                                       game="toy", actor=PEOPLE[0], rounds=2, table_size=4,
                                       options={"rounds": 1})
    league_id = info.league.id
    assert info.league.name == "Autumn cup" and info.league.status == "signup"
    await _join_all(service, league_id)
    with pytest.raises(SessionError) as err:
        await service.join_league(league_id, PEOPLE[0], "guild-1")
    assert err.value.code == "league_already_in"
    with pytest.raises(SessionError) as err:
        await service.league(league_id, "another-guild")
    assert err.value.code == "no_league"

    met: Counter[frozenset[str]] = Counter()
    for number in (1, 2):
        plan = await service.plan_round(league_id, "guild-1")
        assert plan.round == number and [len(t.players) for t in plan.tables] == [4, 4]
        for table in plan.tables:
            met.update(frozenset(p) for p in combinations(table.players, 2))
        again = await service.plan_round(league_id, "guild-1")  # planned once: asked again, the same tables
        assert again.round == number and [t.players for t in again.tables] == [t.players for t in plan.tables]
        for table in plan.tables:
            out = await service.open_table(league_id, number, table.table_no, f"r{number}t{table.table_no}")
            assert out is not None and out.status == "active"
            assert sorted(u for u in out.seat_user_ids if u) == sorted(table.players)
            assert await service.open_table(league_id, number, table.table_no, "elsewhere") is None
        with pytest.raises(SessionError) as err:
            await service.plan_round(league_id, "guild-1")
        assert err.value.code == "league_round_running" and err.value.params["count"] == 2
        for table in plan.tables:
            clock.advance(60)
            assert number not in await _rounds_posted(store)
            await _finish(service, f"r{number}t{table.table_no}", seed=number * 10 + table.table_no)
        assert (await _rounds_posted(store)).count(number) == 1  # once, by the round's last game
    # 8 players, tables of 4, two rounds: the second round parts the first's tables as far as it can
    assert max(met.values()) <= 2 and sum(1 for n in met.values() if n == 2) <= 8
    standings = await service.league_standings(league_id, "guild-1")
    assert standings.status == "finished" and len(standings.lines) == 8
    assert sum(s.played for s in standings.lines) == 16
    async with store.read() as tx:
        places: dict[int, list[int]] = {}
        for r in await tx.fetchall("SELECT game_id, place FROM results"):
            places.setdefault(r["game_id"], []).append(r["place"])
    assert len(places) == 4 and all(len(p) == 4 for p in places.values())
    # a point for every pair of players one of whom finished above the other (ties share none)
    assert sum(s.points for s in standings.lines) == sum(a != b for p in places.values() for a, b in combinations(p, 2))
    assert standings.lines[0].points >= standings.lines[-1].points
    with pytest.raises(SessionError) as err:
        await service.plan_round(league_id, "guild-1")
    assert err.value.code == "league_over"


async def test_a_player_who_runs_out_of_time_forfeits_and_is_placed_last(
        service: SessionService, store: StoreBackend, clock) -> None:
    await service.set_rating_rules("guild-1", enabled=True)
    info = await service.create_league(guild_id="guild-1", channel_id="lc", name="Blitz", game="toy",
                                       actor=PEOPLE[0], rounds=1, table_size=2, deadline_hours=1,
                                       options={"rounds": 1})
    for person in PEOPLE[:2]:
        await service.join_league(info.league.id, person, "guild-1")
    plan = await service.plan_round(info.league.id, "guild-1")
    out = await service.open_table(info.league.id, 1, 1, "blitz-1")
    assert out is not None
    late_seat = out.waiting[0]
    late_user = out.seat_user_ids[late_seat]
    other = next(p for p in PEOPLE[:2] if p.user_id != late_user)
    if out.seat_user_ids.index(other.user_id) in out.waiting:  # the toy game opens with a choice for all
        await service.act("blitz-1", other, "open red")
    clock.advance(3601)
    outcomes = await service.run_deadlines()
    assert outcomes and any(e.key == "session.forfeited" for e in outcomes[0].public_events)
    status = await service.status("blitz-1")
    assert status.info.seats[late_seat].user_id is None  # a bot plays the seat on
    rng = random.Random(3)
    while (status := await service.status("blitz-1")).info.status == "active":
        if other.user_id in status.waiting_user_ids:
            legal = (await service.private_view("blitz-1", other.user_id)).legal
            await service.act("blitz-1", other, rng.choice(legal).notation)
        await service.run_bots(out.game_id)
    async with store.read() as tx:
        results = {r["user_id"]: r for r in await tx.fetchall(
            "SELECT user_id, place, forfeited FROM results WHERE game_id = ?", (out.game_id,))}
    assert results[late_user]["forfeited"] and results[late_user]["place"] == 2
    assert results[other.user_id]["place"] == 1
    board = await service.leaderboard("guild-1", "toy")
    assert [line.user_id for line in board.lines] == [other.user_id, late_user]  # rated as the loser
    standings = await service.league_standings(info.league.id, "guild-1")
    assert standings.lines[0].user_id == other.user_id and standings.lines[1].forfeits == 1
    assert plan.round == 1 and standings.status == "finished"
