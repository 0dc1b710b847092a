"""What a reminder tells, as the sessions service writes it to the outbox (both backends): what
the rules ask of each seat waited on, how long the game has waited, and the language each DM
reader's Discord speaks, kept from when they opened or joined a game."""
from __future__ import annotations

import json

import pytest

from bot.sessions import Actor, SessionError, SessionService
from bot.store import StoreBackend

HOUR = 3600.0
ALICE = Actor(user_id="alice", name="Alice", locale="en-US")
KEN = Actor(user_id="ken", name="健", locale="ja")
NOBODY = Actor(user_id="nobody", name="Nobody", locale="ja")  # no locale of their own yet


async def test_a_reminder_carries_what_is_asked_and_each_readers_language(
        service: SessionService, store: StoreBackend, clock) -> None:
    await service.create("toy", "chan-9", "guild-1", ALICE, None, "en")
    await service.join("chan-9", KEN)
    start = await service.start("chan-9", ALICE)
    assert (await store.get_prefs("alice")).locale == "en" and (await store.get_prefs("ken")).locale == "ja"
    await service.set_user_prefs("ken", dm_reminders=True)

    clock.advance(12 * HOUR)
    (reminder,) = await service.due_reminders()
    (row,) = [r for r in await store.outbox_rows(start.game_id) if r.id == reminder.outbox_id]
    post = json.loads(row.payload_json)
    assert post["hours"] == 12 and post["dm_user_ids"] == ["ken"] and post["dm_locales"] == {"ken": "ja"}
    assert post["locale"] == "en"  # the channel's words stay in the game's language
    # every seat waited on (both choose an opening at once), with the rules' own prompt
    asked = sorted((a["user_id"], a["prompt"]["key"]) for a in post["asked"])
    assert asked == [("alice", "toy.prompt.opening"), ("ken", "toy.prompt.opening")]


async def test_a_refused_join_keeps_no_language(service: SessionService, store: StoreBackend) -> None:
    await service.create("toy", "chan-9", "guild-1", ALICE, None, "en")
    await service.join("chan-9", KEN)
    await service.start("chan-9", ALICE)
    with pytest.raises(SessionError):
        await service.join("chan-9", NOBODY)  # too late: the game started
    async with store.read() as tx:
        assert await tx.fetchall("SELECT user_id FROM user_prefs WHERE user_id = ?", ("nobody",)) == []
