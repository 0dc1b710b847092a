"""Results kept as games finish, each server's ratings, and rematches (bot/sessions/results.py): the rating
model is openskill's own, a game is rated in the transaction that finishes it, games with bots
count only where the server says so, and a rebuild from the stored results (even results
filled in from the games' stored states) gives the same numbers. Both backends."""
from __future__ import annotations

import asyncio
import random

import pytest

from bot.sessions import SessionError, SessionService
from bot.sessions.results import MODEL, rate
from bot.store import ResultRow, StoreBackend
from tests.support import ALICE, BOB, CAROL, DAVE, ERIN, actor_for, open_all


def test_the_model_is_openskills_plackett_luce_as_its_readme_shows_it() -> None:
    r = MODEL.rating
    [[a, b], [x, y]] = MODEL.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and (x.mu, x.sigma) == (y.mu, y.sigma)


def _row(seat: int, user: str | None, place: int, bot: str | None = None) -> ResultRow:
    return ResultRow(game_id=1, seat=seat, user_id=user, bot=bot, guild_id="g", game="toy", place=place,
                     total=10 - place, players=4, finished_at=0.0)


def test_a_free_for_all_with_a_tie_rates_the_tied_alike_and_leaves_bots_unrated() -> None:
    after = {r.user_id: r for r in rate([_row(0, "a", 1), _row(1, "b", 2), _row(2, "c", 2), _row(3, None, 4, "bot")], {})}
    assert set(after) == {"a", "b", "c"}
    assert after["a"].mu > after["b"].mu == after["c"].mu and after["b"].mu < 25
    assert after["a"].wins == 1 and after["b"].wins == 0 and all(r.games == 1 for r in after.values())
    r = MODEL.rating
    expected = MODEL.rate([[r()], [r()], [r()]], ranks=[1.0, 2.0, 2.0])
    assert after["a"].mu == expected[0][0].mu and after["c"].sigma == expected[2][0].sigma


async def _play(service: SessionService, channel: str, players, *, bots: int = 0, seed: int = 1):
    """A whole toy game in the server "guild-1", played with random legal moves."""
    await service.create("toy", channel, "guild-1", players[0], {"rounds": 2})
    for actor in players[1:]:
        await service.join(channel, actor)
    for _ in range(bots):
        await service.add_bot(channel, players[0], "first")
    out = await open_all(service, channel, await service.start(channel, players[0]))
    await service.run_bots(out.game_id)
    rng = random.Random(seed)
    while (status := await service.status(channel)).info.status == "active":
        seat = next(s for s in status.waiting if out.seat_user_ids[s])
        legal = (await service.private_view(channel, out.seat_user_ids[seat])).legal
        await service.act(channel, actor_for(out, seat), rng.choice(legal).notation)
        await service.run_bots(out.game_id)
    return out.game_id


async def _results(store: StoreBackend, game_id: int) -> list[ResultRow]:
    async with store.read() as tx:
        return await tx.results_of_game(game_id)


async def _board(service: SessionService) -> list[tuple[str, float, float, int, int]]:
    board = await service.leaderboard("guild-1", "toy")
    return [(line.user_id, round(line.rating, 9), round(line.sigma, 9), line.games, line.wins) for line in board.lines]


async def test_games_are_rated_as_they_finish_and_a_rebuild_gets_the_same_numbers(
        service: SessionService, store: StoreBackend, clock) -> None:
    await service.set_rating_rules("guild-1", enabled=True)
    tables = [[ALICE, BOB, CAROL], [BOB, CAROL, DAVE], [ALICE, DAVE], [CAROL, ALICE, BOB, DAVE]]
    for i, players in enumerate(tables):
        clock.advance(60)
        await _play(service, f"t{i}", players, seed=i)
    with_bot = await _play(service, "bot", [ALICE, BOB], bots=1)
    live = await _board(service)
    assert {u for u, *_ in live} == {p.user_id for p in (ALICE, BOB, CAROL, DAVE)}
    assert sum(games for *_, games, _ in live) == sum(len(t) for t in tables)  # the bots' game not rated
    assert [r.user_id for r in await _results(store, with_bot)].count(None) == 1  # its result is kept
    assert live[0][1] > live[-1][1]

    # rebuilt from the stored results, in the order the games finished: the same numbers
    assert await service.rebuild_ratings("guild-1") == len(tables)
    assert await _board(service) == live
    # results lost (or from before results were kept) are filled in from the games' stored states
    async with store.write() as tx:
        await tx.execute("DELETE FROM results WHERE guild_id = ?", ("guild-1",))
    assert await service.rebuild_ratings("guild-1") == len(tables)
    assert await _board(service) == live
    # a server that counts games with bots: that game counts too (the bot is not rated)
    await service.set_rating_rules("guild-1", enabled=True, with_bots=True)
    assert await service.rebuild_ratings("guild-1") == len(tables) + 1
    assert sum(g for *_, g, _ in await _board(service)) == sum(len(t) for t in tables) + 2


async def test_the_rating_is_written_with_the_result_or_not_at_all(
        service: SessionService, store: StoreBackend, monkeypatch) -> None:
    await service.set_rating_rules("guild-1", enabled=True)

    async def dies(*args, **kwargs):
        raise RuntimeError("killed as the game finished")

    monkeypatch.setattr(service.commit, "schedule_bots", dies)  # after the rating, before COMMIT
    with pytest.raises(RuntimeError):
        await _play(service, "c", [ALICE, BOB])
    assert await _board(service) == [] and await _results(store, 1) == []
    monkeypatch.undo()


async def test_a_profile_counts_games_places_records_and_opponents(service: SessionService, clock) -> None:
    for i, players in enumerate([[ALICE, BOB], [ALICE, BOB, CAROL], [ALICE, CAROL], [BOB, ERIN]]):
        clock.advance(60)
        await _play(service, f"p{i}", players, seed=10 + i)
    profile = await service.profile("guild-1", ALICE.user_id)
    assert profile.name == "Alice" and profile.games == 3
    (toy,) = profile.titles
    assert toy.games == 3 and 1 <= toy.average_place <= 3 and toy.best_total >= 0
    assert {o.user_id: o.games for o in profile.opponents} == {BOB.user_id: 2, CAROL.user_id: 2}
    assert all(0 <= o.ahead <= o.games for o in profile.opponents)
    assert (await service.profile("guild-1", "u-nobody")).games == 0


async def test_a_rematch_is_opened_by_the_first_player_to_ask_and_joined_by_the_next(
        service: SessionService, store: StoreBackend) -> None:
    first = await _play(service, "r", [ALICE, BOB, CAROL])
    before = [s.user_id for s in await store.seats(first)]
    with pytest.raises(SessionError) as refused:
        await service.rematch(first, DAVE)
    assert refused.value.code == "not_in_game"
    info, opened = await service.rematch(first, BOB)
    assert opened and info.status == "lobby" and info.host_user_id == BOB.user_id
    assert info.settings.rematch_of == first and info.settings.seat_order == before[1:] + before[:1]
    info, opened = await service.rematch(first, ALICE)
    assert not opened and {s.user_id for s in info.seats} == {ALICE.user_id, BOB.user_id}
    with pytest.raises(SessionError) as again:
        await service.rematch(first, ALICE)
    assert again.value.code == "already_joined"
    await service.rematch(first, CAROL)
    started = await service.start("r", BOB)
    assert started.seat_user_ids == before[1:] + before[:1]  # who began now plays last
    assert started.game_id != first and (await store.get_game(started.game_id)).seed != (await store.get_game(first)).seed
    with pytest.raises(SessionError) as running:
        await service.rematch(started.game_id, ALICE)
    assert running.value.code == "rematch_not_finished"
    with pytest.raises(SessionError) as busy:  # the channel holds the rematch now: no second one
        await service.rematch(first, ALICE)
    assert busy.value.code == "game_already_here"


async def test_a_rematch_asked_for_in_a_new_thread_is_joined_there_from_the_channel(
        service: SessionService, store: StoreBackend) -> None:
    first = await _play(service, "t", [ALICE, BOB, CAROL])
    asked: list[str] = []

    async def new_thread(finished) -> str:
        assert finished.game_id == first and finished.settings.forum_id is None
        asked.append(f"t-thread-{len(asked)}")
        await asyncio.sleep(0)  # Discord answering: the other press goes on meanwhile
        return asked[-1]

    # the plain button never asks for a thread; two presses of the thread button at once open one
    (a, opened_a), (b, opened_b) = await asyncio.gather(
        service.rematch(first, BOB, new_post=new_thread, elsewhere=True),
        service.rematch(first, ALICE, new_post=new_thread, elsewhere=True))
    assert sorted([opened_a, opened_b]) == [False, True] and a.game_id == b.game_id
    assert a.channel_id in asked and a.settings.rematch_of == first
    assert (await service.status("t")).info.game_id == first  # nothing opened in the channel itself
    # the next player, pressing the plain button, joins it in its thread, asking for none
    before = list(asked)
    info, opened = await service.rematch(first, CAROL, new_post=new_thread)
    assert not opened and info.game_id == a.game_id and asked == before
    assert {s.user_id for s in info.seats} == {ALICE.user_id, BOB.user_id, CAROL.user_id}


async def test_a_rematch_opened_in_the_channel_is_joined_from_the_thread_button(
        service: SessionService, store: StoreBackend) -> None:
    first = await _play(service, "u", [ALICE, BOB])

    async def new_thread(finished) -> str:
        raise AssertionError("no thread is asked for: the rematch is open in the channel")

    info, opened = await service.rematch(first, BOB)
    assert opened and info.channel_id == "u"
    joined, opened = await service.rematch(first, ALICE, new_post=new_thread, elsewhere=True)
    assert not opened and joined.game_id == info.game_id
