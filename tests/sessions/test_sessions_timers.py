"""Reminders (back-off, quiet hours, DMs, never for ended games) and deadlines, with a clock
the tests move by hand."""
from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.sessions import REMINDER_CAP_SECONDS, SessionError, SessionService
from bot.store import StoreBackend
from tests.support import ALICE, BOB, actor_for, make_service, open_all

MIN = 60.0
HOUR = 3600.0


async def _reminder_timer(store: StoreBackend, game_id: int):
    return next(t for t in await store.timers(game_id) if t.kind == "reminder")


async def test_reminder_after_the_interval_then_back_off(service: SessionService, start_game,
                                                         store: StoreBackend, clock) -> None:
    start = await start_game()
    clock.advance(720 * MIN - 1)
    assert await service.due_reminders() == []
    clock.advance(1)
    (first,) = await service.due_reminders()
    assert first.game_id == start.game_id and first.channel_id == "chan-1"
    assert sorted(first.user_ids) == sorted([ALICE.user_id, BOB.user_id])
    assert first.attempt == 1 and first.key == "reminder.waiting"
    assert first.params == {"seats": [0, 1], "hours": 12} and first.dm_user_ids == []
    assert await service.due_reminders() == []  # not twice

    gaps = []
    last = clock.now
    for attempt in range(2, 6):
        timer = await _reminder_timer(store, start.game_id)
        clock.now = timer.due_at - 1
        assert await service.due_reminders() == []
        clock.now = timer.due_at
        (reminder,) = await service.due_reminders()
        assert reminder.attempt == attempt
        gaps.append(clock.now - last)
        last = clock.now
    assert gaps == [1440 * MIN, 2880 * MIN, REMINDER_CAP_SECONDS, REMINDER_CAP_SECONDS]

    # each reminder is in the outbox as well, public only
    rows = [r for r in await store.outbox_rows(start.game_id) if r.kind == "reminder"]
    assert len(rows) == 5 and rows[0].id == first.outbox_id
    payload = json.loads(rows[0].payload_json)
    assert payload["events"][0]["key"] == "reminder.waiting" and payload["attempt"] == 1


async def test_a_move_resets_the_reminder(service: SessionService, start_game, store, clock) -> None:
    start = await start_game()
    clock.advance(720 * MIN)
    assert len(await service.due_reminders()) == 1
    clock.advance(10 * MIN)
    await service.act("chan-1", actor_for(start, 0), "open red")
    timer = await _reminder_timer(store, start.game_id)
    assert (timer.attempt, timer.due_at) == (0, clock.now + 720 * MIN)
    clock.advance(720 * MIN)
    (reminder,) = await service.due_reminders()
    assert reminder.user_ids == [start.seat_user_ids[1]] and reminder.attempt == 1


async def test_dm_opt_in_and_custom_interval(service: SessionService, start_game, clock) -> None:
    start = await start_game()
    await service.settings("chan-1", ALICE, reminder_minutes=30, reminder_backoff=3)
    await service.set_user_prefs(BOB.user_id, dm_reminders=True)
    clock.advance(30 * MIN)
    (reminder,) = await service.due_reminders()
    assert reminder.dm_user_ids == [BOB.user_id]
    clock.advance(89 * MIN)
    assert await service.due_reminders() == []
    clock.advance(1 * MIN)
    assert [r.attempt for r in await service.due_reminders()] == [2]
    assert start.game_id == reminder.game_id


async def test_quiet_hours_move_the_reminder_to_the_morning(service: SessionService, start_game,
                                                            store, clock) -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    clock.now = datetime(2024, 1, 10, 11, 0, tzinfo=tokyo).timestamp()
    start = await start_game()
    await service.settings("chan-1", ALICE, quiet_hours=(22, 8, "Asia/Tokyo"))
    clock.now = datetime(2024, 1, 10, 23, 0, tzinfo=tokyo).timestamp()  # 12 h later: quiet
    assert await service.due_reminders() == []
    timer = await _reminder_timer(store, start.game_id)
    assert timer.due_at == datetime(2024, 1, 11, 8, 0, tzinfo=tokyo).timestamp()
    clock.now = datetime(2024, 1, 11, 7, 59, tzinfo=tokyo).timestamp()
    assert await service.due_reminders() == []
    clock.now = datetime(2024, 1, 11, 8, 0, tzinfo=tokyo).timestamp()
    (reminder,) = await service.due_reminders()
    assert reminder.attempt == 1


async def test_no_reminders_for_finished_or_abandoned_games(service: SessionService, start_game,
                                                            store, clock, backend) -> None:
    a = await start_game("chan-a")
    out = await open_all(service, "chan-b", await start_game("chan-b", options={"rounds": 1}))
    await service.act("chan-b", actor_for(out, 0), "pass")
    done = await service.act("chan-b", actor_for(out, 1), "pass")
    assert done.status == "finished" and await store.timers(done.game_id) == []
    await service.abandon("chan-a", ALICE)
    assert await store.timers(a.game_id) == []
    # even a timer left behind (say, by an older version) never pings an ended game
    for game_id in (a.game_id, done.game_id):
        await backend.sql("INSERT INTO timers (game_id, kind, due_at, attempt, payload)"
                          " VALUES (?, 'reminder', 0, 0, '{}')", game_id)
    clock.advance(30 * 24 * HOUR)
    assert await service.due_reminders() == []
    assert await store.timers(a.game_id) == [] and await store.timers(done.game_id) == []


async def test_no_reminder_when_only_bots_are_awaited(service: SessionService, start_game, clock) -> None:
    start = await start_game(players=1, bots=("first",))
    await service.act("chan-1", ALICE, "open red")
    clock.advance(720 * MIN)
    assert await service.due_reminders() == []  # the bot's opening is pending: run_bots
    await service.run_bots(start.game_id)
    clock.advance(720 * MIN)
    reminders = await service.due_reminders()
    waiting = (await service.status("chan-1")).waiting_user_ids
    assert [r.user_ids for r in reminders] == ([waiting] if waiting else [])


async def test_reminders_survive_a_restart(backend, toy_game, clock, start_game) -> None:
    store = await backend.open()
    service = make_service(store, clock)
    start = await start_game(svc=service)
    await store.close()
    clock.advance(720 * MIN)
    async with await backend.open() as store2:
        fresh = SessionService(store2, clock=clock)
        (reminder,) = await fresh.due_reminders()
        assert reminder.game_id == start.game_id


async def test_deadline_plays_the_timeout_move_and_says_so(service: SessionService, start_game,
                                                           store, clock) -> None:
    start = await start_game()
    await service.settings("chan-1", ALICE, deadline_hours=24)
    clock.advance(23 * HOUR)
    assert await service.run_deadlines() == []
    await service.act("chan-1", actor_for(start, 1), "open blue")  # resets the deadline
    clock.advance(23 * HOUR)
    assert await service.run_deadlines() == []
    clock.advance(1 * HOUR)
    (auto,) = await service.run_deadlines()
    assert auto.seat == 0 and auto.auto == "deadline" and auto.notation == "open red"
    assert auto.public_events[0].key == "session.timeout_move"
    assert auto.public_events[0].params == {"seat": 0, "notation": "open red"}
    assert auto.waiting == [0]
    row = (await store.outbox_rows(start.game_id))[-1]
    assert json.loads(row.payload_json)["events"][0]["key"] == "session.timeout_move"
    history = await service.history("chan-1")
    assert (history[-1].auto, history[-1].events[0].key) == ("deadline", "session.timeout_move")
    # an automatic move is not the player's to undo
    with pytest.raises(SessionError) as e:
        await service.undo("chan-1", actor_for(start, 0))
    assert e.value.params == {"reason": "not_your_action"}
    assert await service.run_deadlines() == []
    clock.advance(24 * HOUR)
    (again,) = await service.run_deadlines()
    assert again.notation == "pass"  # the mildest move of the play phase


async def test_deadline_plays_every_late_seat_and_can_use_the_bot(service: SessionService, start_game,
                                                                  clock) -> None:
    start = await start_game(players=3)
    await service.settings("chan-1", ALICE, deadline_hours=2, deadline_action="bot")
    clock.advance(2 * HOUR)
    outs = await service.run_deadlines()
    assert [o.seat for o in outs] == [0, 1, 2] and all(o.auto == "deadline" for o in outs)
    assert outs[-1].waiting == [0]
    assert all(o.notation.startswith("open ") for o in outs)
    state = await service.rebuild(start.game_id)
    assert state.phase == "play"


async def test_no_deadline_unless_set(service: SessionService, start_game, clock) -> None:
    await start_game()
    clock.advance(400 * 24 * HOUR)
    assert await service.run_deadlines() == []
