"""A game that lives by its answers (GameSettings.delivery "replies": opened where the bot may
not post by itself, a group DM or a server only its members installed Railyard to). The sessions
layer keeps it with the game, fixed, and marks every post it writes, so the Discord adapter
posts nothing in the channel: reminders go to everyone by DM, the result to every player."""
from __future__ import annotations

import json

import pytest

from bot.sessions import SessionError, SessionService
from bot.store import StoreBackend
from tests.support import ALICE, BOB, actor_for, open_all

MIN = 60.0


async def _play_out(service: SessionService, channel: str, start) -> object:
    """The toy game of one round to its end: the opening, then everyone passes."""
    outcome = await open_all(service, channel, start)
    while outcome.status == "active":
        (seat,) = outcome.waiting
        outcome = await service.act(channel, actor_for(start, seat), "pass")
    return outcome


async def test_where_the_bot_only_answers_every_post_says_so(service: SessionService, store: StoreBackend,
                                                              clock) -> None:
    await service.create("toy", "gdm-1", None, ALICE, {"rounds": 1}, "en", delivery="replies")
    await service.join("gdm-1", BOB)
    # where the posts go follows from where the game lives: no setting changes it
    with pytest.raises(SessionError) as refused:
        await service.settings("gdm-1", ALICE, delivery="channel")
    assert refused.value.code == "bad_setting"
    assert (await service.lobby("gdm-1")).settings.delivery == "replies"
    start = await service.start("gdm-1", ALICE)
    assert start.post.delivery == "replies" and start.post.dm_user_ids == []

    # nobody asked for reminders by DM, and everyone gets them so: the channel takes none
    clock.advance(720 * MIN)
    (reminder,) = await service.due_reminders()
    assert sorted(reminder.dm_user_ids) == sorted([ALICE.user_id, BOB.user_id])
    rows = {r.kind: json.loads(r.payload_json) for r in await store.outbox_rows(start.game_id)}
    assert rows["reminder"]["delivery"] == "replies" and rows["start"]["delivery"] == "replies"

    final = await _play_out(service, "gdm-1", start)
    assert final.status == "finished" and final.post.delivery == "replies"
    assert sorted(final.post.dm_user_ids) == sorted([ALICE.user_id, BOB.user_id])  # the result, by DM

    # a rematch lives where its game did
    lobby, opened = await service.rematch(start.game_id, BOB)
    assert opened and lobby.settings.delivery == "replies"
    await service.abandon("gdm-1", BOB)
    assert [r for r in await store.outbox_rows(lobby.game_id) if r.kind == "abandoned"] == []  # a lobby posts none


async def test_a_game_in_a_channel_posts_there_as_before(service: SessionService, store: StoreBackend) -> None:
    await service.create("toy", "chan-1", "guild-1", ALICE, {"rounds": 1}, "en")
    await service.join("chan-1", BOB)
    start = await service.start("chan-1", ALICE)
    assert (await service.lobby("chan-1")).settings.delivery == "channel"
    final = await _play_out(service, "chan-1", start)
    assert final.post.delivery == "channel" and final.post.dm_user_ids == []


async def test_an_abandoned_game_that_lives_by_its_answers_says_so_in_its_post(service: SessionService,
                                                                               store: StoreBackend) -> None:
    await service.create("toy", "gdm-2", None, ALICE, {"rounds": 1}, "en", delivery="replies")
    await service.join("gdm-2", BOB)
    start = await service.start("gdm-2", ALICE)
    await service.abandon("gdm-2", ALICE)
    (row,) = [r for r in await store.outbox_rows(start.game_id) if r.kind == "abandoned"]
    assert json.loads(row.payload_json)["delivery"] == "replies"
