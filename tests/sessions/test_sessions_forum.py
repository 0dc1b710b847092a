"""Games in forum posts, in the sessions service (both backends): the status rows written with
each change that makes a status true, none for other games, and the rematch of a forum game,
opened in a new post by the first player to press (two at once: one opens, the other joins,
and the post of the one who lost is left to the caller to clear away)."""
from __future__ import annotations

import asyncio
import random

import pytest

from bot.sessions import SessionError, SessionService
from bot.store import StoreBackend
from tests.support import ALICE, BOB, CAROL, DAVE, actor_for, open_all

FORUM = "forum-9"


async def _forum_rows(store: StoreBackend, game_id: int) -> list[str]:
    return [r.payload["status"] for r in await store.outbox_rows(game_id) if r.kind == "forum_status"]


async def _play(service: SessionService, channel: str, players, *, forum: str | None = FORUM) -> int:
    """A whole toy game opened in a forum post (`channel`), played with random legal moves."""
    await service.create("toy", channel, "guild-1", players[0], {"rounds": 2}, forum_id=forum)
    for actor in players[1:]:
        await service.join(channel, actor)
    out = await open_all(service, channel, await service.start(channel, players[0]))
    rng = random.Random(3)
    while (status := await service.status(channel)).info.status == "active":
        seat = next(s for s in status.waiting if out.seat_user_ids[s])
        legal = (await service.private_view(channel, out.seat_user_ids[seat])).legal
        await service.act(channel, actor_for(out, seat), rng.choice(legal).notation)
    return out.game_id


async def test_each_status_is_written_with_the_change_that_makes_it_true(service: SessionService,
                                                                           store: StoreBackend) -> None:
    game_id = await _play(service, "post-1", [ALICE, BOB])
    rows = [r for r in await store.outbox_rows(game_id)]
    assert await _forum_rows(store, game_id) == ["playing", "finished"]
    kinds = [r.kind for r in rows]
    # each right after the post of its change, so one game's rows deliver them in that order
    assert kinds[kinds.index("forum_status") - 1] == "start" and kinds[-1] == "forum_status"
    (status,) = [r for r in rows if r.payload.get("status") == "finished"]
    assert status.payload == {"channel_id": "post-1", "forum_id": FORUM, "guild_id": "guild-1",
                              "status": "finished", "locale": "en"}
    # a game in a channel has none
    plain = await _play(service, "chan-1", [ALICE, BOB], forum=None)
    assert await _forum_rows(store, plain) == []
    # a lobby closed by its host, or by its last player leaving, is over: finished
    lobby = await service.create("toy", "post-2", "guild-1", ALICE, {"rounds": 2}, forum_id=FORUM)
    await service.abandon("post-2", ALICE)
    assert await _forum_rows(store, lobby.game_id) == ["finished"]
    left = await service.create("toy", "post-3", "guild-1", BOB, {"rounds": 2}, forum_id=FORUM)
    await service.leave("post-3", BOB)
    assert await _forum_rows(store, left.game_id) == ["finished"]
    running = await service.create("toy", "post-4", "guild-1", ALICE, {"rounds": 2}, forum_id=FORUM)
    await service.join("post-4", BOB)
    await service.start("post-4", ALICE)
    await service.abandon("post-4", ALICE)
    assert await _forum_rows(store, running.game_id) == ["playing", "finished"]


async def test_a_forum_games_rematch_opens_in_a_new_post_once(service: SessionService, store: StoreBackend) -> None:
    first = await _play(service, "post-1", [ALICE, BOB, CAROL])
    asked: list[str] = []

    async def new_post(finished) -> str:
        assert finished.game_id == first and finished.settings.forum_id == FORUM
        asked.append(f"post-{len(asked) + 10}")
        await asyncio.sleep(0)  # Discord answering: the other press goes on meanwhile
        return asked[-1]

    with pytest.raises(SessionError) as refused:  # not one of its players: no post is asked for
        await service.rematch(first, DAVE, new_post=new_post)
    assert refused.value.code == "not_in_game" and asked == []
    (a, opened_a), (b, opened_b) = await asyncio.gather(service.rematch(first, BOB, new_post=new_post),
                                                         service.rematch(first, ALICE, new_post=new_post))
    assert sorted([opened_a, opened_b]) == [False, True]  # one opened it, the other joined
    assert a.game_id == b.game_id and a.channel_id in asked
    lobby = await service.lobby(a.channel_id)
    assert {s.user_id for s in lobby.seats} == {ALICE.user_id, BOB.user_id}
    assert lobby.settings.forum_id == FORUM and lobby.settings.rematch_of == first and lobby.settings.rematch_id is None
    assert (await store.get_game(first)).status == "finished"
    # the next player joins it without a post asked for
    before = list(asked)
    info, opened = await service.rematch(first, CAROL, new_post=new_post)
    assert not opened and info.game_id == a.game_id and asked == before
    # once it started, there is no rematch lobby left to join
    host = ALICE if a.host_user_id == ALICE.user_id else BOB
    await service.start(a.channel_id, host)
    with pytest.raises(SessionError) as busy:
        await service.rematch(first, ALICE, new_post=new_post)
    assert busy.value.code == "game_already_here" and asked == before
    # closed, it leaves room for another, in a post of its own
    await service.abandon(a.channel_id, host)
    again, opened = await service.rematch(first, CAROL, new_post=new_post)
    assert opened and again.channel_id == asked[-1] != a.channel_id and len(asked) == len(before) + 1

