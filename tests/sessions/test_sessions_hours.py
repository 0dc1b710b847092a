"""Each person's own hours (bot/sessions/hours.py): nobody is pinged, reminded or sent a DM in
their own night, in any game; a reminder owed to a sleeper comes at their morning; a deadline
that runs out in their night runs out at their morning. Both backends, a clock moved by hand."""
from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from bot.sessions import SessionError, SessionService
from bot.sessions.hours import (
    ReminderPayload, asleep, local_clock, parse_quiet, parse_zone, reminder_step, wakes_at,
)
from bot.store import StoreBackend, UserPrefs
from tests.support import ALICE, BOB, actor_for

HOUR = 3600.0
MIN = 60.0


def utc(day: int, hour: int, minute: int = 0) -> float:
    return datetime(2026, 3, day, hour, minute, tzinfo=timezone.utc).timestamp()


# --- typed settings --------------------------------------------------------------------------
@pytest.mark.parametrize("typed,zone", [("Asia/Tokyo", "Asia/Tokyo"), ("asia/tokyo", "Asia/Tokyo"),
                                        ("UTC+9", "Etc/GMT-9"), ("utc-5", "Etc/GMT+5"), ("+0", "UTC"),
                                        ("GMT+10", "Etc/GMT-10")])
def test_a_time_zone_is_a_name_or_an_offset(typed: str, zone: str) -> None:
    assert parse_zone(typed) == zone


@pytest.mark.parametrize("typed", ["Mars/Olympus", "UTC+25", "UTC+5:30", "", "Asia/", "../../etc/passwd", "東京"])
def test_an_unknown_time_zone_is_refused_with_what_was_typed(typed: str) -> None:
    with pytest.raises(SessionError) as refused:
        parse_zone(typed)
    assert refused.value.code == "bad_timezone" and refused.value.params["value"] == typed


@pytest.mark.parametrize("typed,hours", [("23-7", (23, 7)), ("22:00-06:00", (22, 6)), ("1 - 9", (1, 9)),
                                         ("22〜24", (22, 0)), ("off", None), ("なし", None)])
def test_quiet_hours_are_two_whole_hours_or_off(typed: str, hours) -> None:
    assert parse_quiet(typed) == hours


@pytest.mark.parametrize("typed", ["7-7", "25-3", "night", "23", "23-7-9", "-1-5"])
def test_bad_quiet_hours_are_refused(typed: str) -> None:
    with pytest.raises(SessionError) as refused:
        parse_quiet(typed)
    assert refused.value.code == "bad_quiet_hours"


def test_asleep_and_morning_follow_the_persons_own_zone() -> None:
    tokyo = UserPrefs(user_id="t", tz="Asia/Tokyo", quiet_start=23, quiet_end=7)
    night = utc(10, 17)  # 02:00 in Tokyo
    assert asleep(tokyo, night) and local_clock(tokyo, night) == "02:00"
    assert wakes_at(tokyo, night) == utc(10, 22)  # 07:00 in Tokyo
    assert not asleep(tokyo, utc(10, 22)) and wakes_at(tokyo, utc(10, 22)) == utc(10, 22)
    assert not asleep(UserPrefs(user_id="n"), night) and local_clock(UserPrefs(user_id="n"), night) is None


def test_a_regular_reminder_goes_to_the_awake_and_is_owed_to_the_asleep() -> None:
    prefs = {"a": UserPrefs(user_id="a"), "t": UserPrefs(user_id="t", tz="Asia/Tokyo", quiet_start=23, quiet_end=7)}
    night = utc(10, 17)
    step = reminder_step(["a", "t"], prefs, night, attempt=0, payload=ReminderPayload(), due_at=night,
                         interval=lambda attempt: 12 * HOUR * attempt)
    assert step.ping == ["a"] and step.attempt == 1
    assert step.payload.owed == ["t"] and step.payload.regular == night + 12 * HOUR
    assert step.due_at == utc(10, 22)  # Tokyo's morning comes before the next regular reminder
    morning = reminder_step(["a", "t"], prefs, utc(10, 22), attempt=step.attempt, payload=step.payload,
                            due_at=step.due_at, interval=lambda attempt: 12 * HOUR * attempt)
    assert morning.ping == ["t"] and morning.attempt == 1 and morning.payload.owed == []
    assert morning.due_at == night + 12 * HOUR


# --- through the sessions service -------------------------------------------------------------
async def _set_tokyo_night_owl(service: SessionService) -> None:
    await service.set_user_hours(BOB.user_id, timezone="Asia/Tokyo", quiet_hours="23-7")


async def test_a_sleeper_is_named_but_not_pinged_and_reminded_at_their_morning(
        service: SessionService, start_game, store: StoreBackend, clock) -> None:
    await _set_tokyo_night_owl(service)
    clock.now = utc(10, 17)  # 02:00 for Bob in Tokyo
    start = await start_game()
    assert start.waiting == [0, 1] and start.mention_user_ids == [ALICE.user_id]
    clock.now = utc(10, 22) - 1
    assert await service.due_reminders() == []
    clock.now = utc(10, 22)  # 07:00 in Tokyo: Bob's first word of this turn
    (morning,) = await service.due_reminders()
    assert morning.user_ids == [BOB.user_id] and morning.attempt == 0
    clock.now = utc(10, 17) + 12 * HOUR  # the regular reminder: both awake now (14:00 in Tokyo)
    (regular,) = await service.due_reminders()
    assert sorted(regular.user_ids) == sorted([ALICE.user_id, BOB.user_id]) and regular.attempt == 1


async def test_no_dm_reaches_a_sleeper(service: SessionService, start_game, clock) -> None:
    await _set_tokyo_night_owl(service)
    await service.set_user_prefs(BOB.user_id, dm_reminders=True)
    clock.now = utc(10, 4)  # 13:00 in Tokyo
    await start_game()
    clock.now = utc(10, 16)  # the first reminder, 12 h later, falls at 01:00 in Tokyo
    (night,) = await service.due_reminders()
    assert night.user_ids == [ALICE.user_id] and night.dm_user_ids == []
    clock.now = utc(10, 22)  # 07:00 in Tokyo
    (owed,) = await service.due_reminders()
    assert owed.user_ids == [BOB.user_id] and owed.dm_user_ids == [BOB.user_id]


async def test_a_deadline_in_a_sleepers_night_runs_out_at_their_morning(
        service: SessionService, start_game, clock) -> None:
    await _set_tokyo_night_owl(service)
    clock.now = utc(10, 12)  # 21:00 in Tokyo
    start = await start_game()
    await service.settings("chan-1", ALICE, deadline_hours=4)
    clock.now = utc(10, 16)  # 01:00 in Tokyo: Alice's timeout move is made, Bob's waits
    outcomes = await service.run_deadlines()
    assert [o.seat for o in outcomes] == [0]
    clock.now = utc(10, 20)  # the deadline again, still night in Tokyo
    assert await service.run_deadlines() == []
    clock.now = utc(10, 22) - 1
    assert await service.run_deadlines() == []
    clock.now = utc(10, 22)
    (bob,) = await service.run_deadlines()
    assert bob.seat == 1 and bob.auto == "deadline" and start.game_id == bob.game_id


async def test_status_shows_each_waited_on_persons_local_time(service: SessionService, start_game, clock) -> None:
    await _set_tokyo_night_owl(service)
    await service.set_user_hours(ALICE.user_id, timezone="UTC-5")
    clock.now = utc(10, 17, 14)
    await start_game()
    status = await service.status("chan-1")
    assert [(c.seat, c.time, c.asleep) for c in status.clocks] == [(0, "12:14", False), (1, "02:14", True)]


async def test_hours_are_kept_apart_and_cleared(service: SessionService) -> None:
    with pytest.raises(SessionError) as refused:
        await service.set_user_hours(ALICE.user_id, quiet_hours="23-7")
    assert refused.value.code == "quiet_hours_need_zone"
    assert (await service.user_prefs(ALICE.user_id)).quiet_start is None  # nothing changed
    await service.set_user_prefs(ALICE.user_id, dm_reminders=True)
    prefs = await service.set_user_hours(ALICE.user_id, timezone="Europe/Paris", quiet_hours="0-8")
    assert (prefs.tz, prefs.quiet_start, prefs.quiet_end, prefs.dm_reminders) == ("Europe/Paris", 0, 8, True)
    prefs = await service.set_user_hours(ALICE.user_id, quiet_hours="off")
    assert (prefs.tz, prefs.quiet_start, prefs.quiet_end) == ("Europe/Paris", None, None)
    with pytest.raises(SessionError):
        await service.set_user_hours(ALICE.user_id, timezone="Nowhere/Else")
    assert (await service.user_prefs(ALICE.user_id)).tz == "Europe/Paris"


async def test_a_week_of_play_across_time_zones_pings_nobody_in_their_night(
        service: SessionService, start_game, store: StoreBackend, clock) -> None:
    """Alice in UTC+9 and Bob in UTC−5, both quiet 23-7 local, play a long game for a week,
    each moving at random while awake; every ping (turn post or reminder) and every deadline
    move is checked against the pinged person's own hours."""
    await service.set_user_hours(ALICE.user_id, timezone="UTC+9", quiet_hours="23-7")
    await service.set_user_hours(BOB.user_id, timezone="UTC-5", quiet_hours="23-7")
    prefs = {u: await service.user_prefs(u) for u in (ALICE.user_id, BOB.user_id)}
    clock.now = utc(2, 0)
    start = await start_game(options={"rounds": 200, "deck_size": 1000})
    await service.settings("chan-1", ALICE, reminder_minutes=180, deadline_hours=20)
    rng = random.Random(5)
    pings: list[tuple[float, str]] = [(clock.now, u) for u in start.mention_user_ids]
    late: list[tuple[float, str]] = []
    moves = reminders = 0
    end = clock.now + 7 * 24 * HOUR
    while clock.now < end:
        clock.now += 10 * MIN
        for reminder in await service.due_reminders():
            reminders += 1
            pings += [(clock.now, u) for u in reminder.user_ids]
        for outcome in await service.run_deadlines():
            late.append((clock.now, start.seat_user_ids[outcome.seat]))
            pings += [(clock.now, u) for u in outcome.mention_user_ids]
        status = await service.status("chan-1")
        if status.info.status != "active":
            break
        for seat in status.waiting:
            user = start.seat_user_ids[seat]
            if not asleep(prefs[user], clock.now) and rng.random() < 0.06:
                legal = (await service.private_view("chan-1", user)).legal
                outcome = await service.act("chan-1", actor_for(start, seat), rng.choice(legal).notation)
                moves += 1
                pings += [(clock.now, u) for u in outcome.mention_user_ids]
    assert moves > 20 and reminders > 5 and pings
    assert not [(when, u) for when, u in pings + late if asleep(prefs[u], when)]
    assert {u for _, u in pings} == {ALICE.user_id, BOB.user_id}


async def test_a_reminder_brought_forward_by_hand_reminds_everyone_awake(
        service: SessionService, start_game, store: StoreBackend, clock) -> None:
    """An operator (or a test) that moves the reminder's due time to now gets a reminder now:
    the timer's own due time is the regular one while nobody is owed a morning reminder."""
    clock.now = utc(10, 4)
    start = await start_game()
    async with store.write() as tx:
        await tx.execute("UPDATE timers SET due_at = ? WHERE game_id = ? AND kind = 'reminder'",
                         (clock.now, start.game_id))
    (reminder,) = await service.due_reminders()
    assert sorted(reminder.user_ids) == sorted([ALICE.user_id, BOB.user_id]) and reminder.attempt == 1
