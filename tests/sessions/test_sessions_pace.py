"""A person's own pace (bot/sessions/people.py, pace.py, clocks.py): away from all their games,
one digest a day instead of pings, and time banks that run only while the game waits on their
owner and never in their night or away time. Both backends, a clock moved by hand."""
from __future__ import annotations

import asyncio
import json
from datetime import datetime, timezone

import pytest

from bot.sessions import SessionError, SessionService
from bot.sessions.clocks import Clocks, SeatClock, TimeBank, advance, parse_bank, runs_out_at, spent
from bot.sessions.people import next_digest, parse_digest_hour, parse_until
from bot.store import StoreBackend, UserPrefs
from tests.support import ALICE, BOB, PLAYERS, make_service

HOUR = 3600.0
DAY = 24 * HOUR


def utc(day: int, hour: int, minute: int = 0) -> float:
    return datetime(2026, 3, day, hour, minute, tzinfo=timezone.utc).timestamp()


TOKYO = UserPrefs(user_id="t", tz="Asia/Tokyo", quiet_start=23, quiet_end=7)  # quiet 14:00–22:00 UTC


# --- time banks, by themselves ----------------------------------------------------------------
def test_a_bank_does_not_run_in_its_owners_night_or_away_time() -> None:
    assert spent(None, utc(10, 0), utc(11, 0)) == DAY
    assert spent(TOKYO, utc(10, 0), utc(11, 0)) == 16 * HOUR
    assert runs_out_at(TOKYO, utc(10, 0), 16 * HOUR) == utc(11, 0)  # 14 h, the night, 2 h
    away = TOKYO.model_copy(update={"away_from": utc(10, 0), "away_until": utc(12, 0)})
    assert spent(away, utc(9, 0), utc(13, 0)) == 32 * HOUR  # the 9th and the 12th only
    assert runs_out_at(away, utc(9, 0), 20 * HOUR) == utc(12, 4)
    overlapping = TOKYO.model_copy(update={"away_from": utc(10, 15), "away_until": utc(10, 23)})
    assert spent(overlapping, utc(10, 0), utc(11, 0)) == 15 * HOUR  # 00–14, 23–24


def test_a_turn_ending_credits_its_time_up_to_the_cap_and_each_seat_spends_its_own() -> None:
    bank = TimeBank(start_hours=48, per_turn_hours=12, cap_hours=54)
    clocks = Clocks.of(None, bank, 3)
    clocks = advance(clocks, bank, {0, 1}, {}, utc(10, 0))  # a simultaneous decision of 0 and 1
    clocks = advance(clocks, bank, {1}, {}, utc(10, 10))  # 0 answered after 10 h
    assert clocks.seats[0] == SeatClock(left=min(54, 38 + 12) * HOUR, since=None)
    assert clocks.seats[1].since == utc(10, 10) and clocks.seats[1].left == 38 * HOUR
    clocks = advance(clocks, bank, {2}, {}, utc(10, 12))
    assert clocks.seats[1].left == 36 * HOUR + 12 * HOUR and clocks.seats[2].left == 48 * HOUR
    clocks = advance(clocks, bank, {0}, {}, utc(10, 13))  # 2 answered within the hour: capped
    assert clocks.seats[2].left == 54 * HOUR


@pytest.mark.parametrize("typed,bank", [("3d+12h", (72, 12, None)), ("3d+12h/7d", (72, 12, 168)),
                                        ("36", (36, 0, None)), ("2日+12時", (48, 12, None)),
                                        ("1d12h", (36, 0, None))])
def test_a_time_bank_is_typed_as_start_per_turn_and_cap(typed: str, bank) -> None:
    parsed = parse_bank(typed)
    assert parsed is not None and (parsed.start_hours, parsed.per_turn_hours, parsed.cap_hours) == bank
    assert parse_bank("off") is None


@pytest.mark.parametrize("typed", ["x", "3d+", "+12h", "0h", "3d/1d", "3d12", "99999d", "3d+12h/7d/9d", ""])
def test_a_bad_time_bank_is_refused_with_what_was_typed(typed: str) -> None:
    with pytest.raises(SessionError) as refused:
        parse_bank(typed)
    assert refused.value.code == "bad_time_bank" and refused.value.params["value"] == typed


def test_away_dates_and_digest_hours_are_read_in_the_persons_zone() -> None:
    now = utc(10, 12)
    assert parse_until("3d", TOKYO, now) == now + 3 * DAY
    assert parse_until("2026-03-15", TOKYO, now) == utc(14, 15)  # midnight in Tokyo
    assert parse_until("3/15 18:00", UserPrefs(user_id="u"), now) == utc(15, 18)
    december = datetime(2026, 12, 20, tzinfo=timezone.utc).timestamp()
    assert parse_until("1/5", UserPrefs(user_id="u"), december) == datetime(2027, 1, 5, tzinfo=timezone.utc).timestamp()
    for bad, code in [("yesterday", "bad_away_until"), ("2026-02-30", "bad_away_until"),
                      ("2026-03-01", "away_in_the_past"), ("3/1", "away_too_long"), ("200d", "away_too_long"), ("13/45", "bad_away_until")]:
        with pytest.raises(SessionError) as refused:
            parse_until(bad, TOKYO, now)
        assert refused.value.code == code
    assert parse_digest_hour("8") == 8 and parse_digest_hour("20時") == 20 and parse_digest_hour("off") is None
    with pytest.raises(SessionError):
        parse_digest_hour("25")
    assert next_digest(TOKYO, 8, utc(10, 12)) == utc(10, 23)  # 08:00 in Tokyo
    assert next_digest(TOKYO, 8, utc(10, 23)) == utc(11, 23)


# --- through the sessions service -------------------------------------------------------------
def bank(typed: str) -> dict:
    """A time bank as /game settings passes it on."""
    parsed = parse_bank(typed)
    assert parsed is not None
    return parsed.model_dump()


async def _open(service: SessionService, clock, *, channel: str = "chan-1", players: int = 2, **settings):
    await service.create("toy", channel, "guild-1", PLAYERS[0], {"rounds": 30}, "en")
    for actor in PLAYERS[1:players]:
        await service.join(channel, actor)
    if settings:
        await service.settings(channel, PLAYERS[0], **settings)
    return await service.start(channel, PLAYERS[0])


async def _bank(store: StoreBackend, game_id: int) -> Clocks:
    async with store.read() as tx:
        stored = await tx.game_clocks(game_id)
    assert stored is not None
    return Clocks.model_validate_json(stored)


async def test_an_away_player_is_neither_pinged_nor_reminded_nor_timed_out_and_hears_once_at_return(
        service: SessionService, store: StoreBackend, clock) -> None:
    clock.now = utc(10, 8)
    await service.set_away(BOB.user_id, "2d")
    start = await _open(service, clock, deadline_hours=6)
    assert start.waiting == [0, 1] and start.mention_user_ids == [ALICE.user_id]
    assert [(p.seat, p.away_until) for p in start.post.pace] == [(1, utc(12, 8))]
    clock.now = utc(10, 14)  # the deadline: Alice's move is made, Bob's waits for his return
    outcomes = await service.run_deadlines()
    assert [o.seat for o in outcomes] == [0]
    clock.now = utc(10, 20)  # a reminder: nobody to ping (Alice has answered, Bob is away)
    assert await service.due_reminders() == []
    clock.now = utc(12, 7)
    assert await service.run_deadlines() == [] and await service.due_returns() == []
    clock.now = utc(12, 8)  # back: one DM listing what waits on him, however many sweeps ask
    told = await asyncio.gather(service.due_returns(), service.due_returns(), service.due_returns())
    assert sum(len(t) for t in told) == 1
    (row,) = [r for r in await store.outbox_rows() if r.kind == "returned"]
    assert row.game_id is None and row.payload["user_id"] == BOB.user_id
    assert [g["game_id"] for g in row.payload["games"]] == [start.game_id]
    assert row.payload["games"][0]["asks"]["key"]
    clock.now = utc(12, 13)  # a whole deadline after his return, not before
    assert await service.run_deadlines() == []
    clock.now = utc(12, 14)
    (bob,) = await service.run_deadlines()
    assert bob.seat == 1 and bob.auto == "deadline"
    assert await service.due_returns() == []


async def test_a_bot_plays_for_the_away_where_the_host_allows_it_and_the_log_says_so(
        service: SessionService, store: StoreBackend, clock) -> None:
    clock.now = utc(10, 8)
    start = await _open(service, clock, away_bot=True)
    await service.set_away(BOB.user_id, "1d")
    await service.act("chan-1", ALICE, "open red")
    played = await service.run_bots(start.game_id)
    assert played and {o.seat for o in played} == {1} and {o.auto for o in played} == {"away"}
    assert played[0].public_events[0].key == "session.away_move"
    assert [a.auto for a in await store.actions(start.game_id)] == [None, "away"]
    # back early: the game waits on him again, and he sees what waits at once
    _, waiting = await service.end_away(BOB.user_id)
    status = await service.status("chan-1")
    assert [g.game_id for g in waiting] == ([start.game_id] if 1 in status.waiting else [])
    with pytest.raises(SessionError) as refused:
        await service.end_away(BOB.user_id)
    assert refused.value.code == "not_away"


async def test_without_the_hosts_leave_the_game_waits_for_the_away(service: SessionService, clock) -> None:
    clock.now = utc(10, 8)
    start = await _open(service, clock)
    await service.set_away(BOB.user_id, "1d")
    await service.act("chan-1", ALICE, "open red")
    assert await service.run_bots(start.game_id) == []
    assert (await service.status("chan-1")).waiting == [1]


async def test_the_digest_replaces_pings_and_lists_exactly_the_games_waiting(
        service: SessionService, store: StoreBackend, clock) -> None:
    clock.now = utc(10, 8)
    await service.set_digest(BOB.user_id, "9")
    first = await _open(service, clock, channel="chan-1")
    second = await _open(service, clock, channel="chan-2")
    assert first.mention_user_ids == [ALICE.user_id]
    await service.act("chan-2", BOB, "open blue")  # chan-2 no longer waits on Bob
    clock.now = utc(10, 9)
    assert len(await service.due_digests()) == 1
    assert await service.due_digests() == []  # once a day
    (row,) = [r for r in await store.outbox_rows() if r.kind == "digest"]
    assert row.game_id is None and [g["game_id"] for g in row.payload["games"]] == [first.game_id]
    assert (await service.user_prefs(BOB.user_id)).digest_next_at == utc(11, 9)
    reminders = []
    clock.now = utc(10, 20)
    reminders += await service.due_reminders()
    assert all(BOB.user_id not in r.user_ids for r in reminders)
    await service.act("chan-1", BOB, "open red")
    clock.now = utc(11, 9)
    assert await service.due_digests() == []  # nothing waits on him: no DM
    assert second.game_id


async def test_a_time_bank_runs_out_into_the_deadline_action_and_only_while_awake(
        service: SessionService, store: StoreBackend, clock) -> None:
    await service.set_user_hours(BOB.user_id, timezone="Asia/Tokyo", quiet_hours="23-7")
    clock.now = utc(10, 0)
    start = await _open(service, clock, time_bank=bank("20h+2h/30h"))
    with pytest.raises(SessionError) as refused:
        await service.settings("chan-1", ALICE, time_bank={"start_hours": 99})
    assert refused.value.code == "time_bank_fixed"
    assert {p.seat: p.runs_out for p in start.post.pace} == {0: utc(10, 20), 1: utc(11, 4)}
    clock.now = utc(10, 1)
    after = await service.act("chan-1", ALICE, "open red")
    assert after.post.pace[0].bank_left == 21 * HOUR and after.post.pace[0].runs_out is None
    timers = {t.kind: t.due_at for t in await store.timers(start.game_id)}
    assert timers["deadline"] == utc(11, 4)  # Bob: 14 h today, his night, 6 h more
    clock.now = utc(11, 4) - 60
    assert await service.run_deadlines() == []
    clock.now = utc(11, 4)
    (timeout,) = await service.run_deadlines()
    assert timeout.seat == 1 and timeout.auto == "deadline"
    banks = await _bank(store, start.game_id)
    assert banks.seats[1].left == 2 * HOUR  # spent to nothing, then the turn's 2 h


async def test_a_bank_settles_before_its_owner_changes_their_hours(
        service: SessionService, store: StoreBackend, clock) -> None:
    clock.now = utc(10, 0)
    start = await _open(service, clock, time_bank=bank("2d"))
    clock.now = utc(10, 10)
    await service.set_user_hours(BOB.user_id, timezone="UTC", quiet_hours="0-12")  # from now on
    banks = await _bank(store, start.game_id)
    assert banks.seats[1] == SeatClock(left=38 * HOUR, since=utc(10, 10))
    clock.now = utc(11, 10)  # 12-24 counted; 10-12 and 0-10 quiet by the new hours
    assert (await service.status("chan-1")).pace[1].bank_left == 26 * HOUR


async def test_banks_survive_a_restart_and_a_deadline_fired_by_two_processes_counts_once(
        service: SessionService, store: StoreBackend, clock) -> None:
    clock.now = utc(10, 0)
    start = await _open(service, clock, time_bank=bank("10h"))
    await service.act("chan-1", ALICE, "open red")
    # a new process on the same database (a restart, or another one taking over)
    other = make_service(store, clock)
    clock.now = utc(10, 10)
    fired = await asyncio.gather(service.run_deadlines(), other.run_deadlines())
    assert sorted(o.seat for got in fired for o in got) == [1]
    actions = await store.actions(start.game_id)
    assert [a.auto for a in actions].count("deadline") == 1
    banks = await _bank(store, start.game_id)
    assert banks.seats[1].left == 0 and banks.seats[0] == SeatClock(left=10 * HOUR, since=utc(10, 10))


async def test_a_move_that_dies_before_commit_spends_nothing(
        service: SessionService, store: StoreBackend, clock, monkeypatch) -> None:
    clock.now = utc(10, 0)
    start = await _open(service, clock, time_bank=bank("10h"))
    before = await _bank(store, start.game_id)
    clock.now = utc(10, 3)

    async def dies(*args, **kwargs):
        raise RuntimeError("killed mid-move")

    monkeypatch.setattr(service.commit, "schedule_bots", dies)
    with pytest.raises(RuntimeError):
        await service.act("chan-1", ALICE, "open red")
    assert await _bank(store, start.game_id) == before
    monkeypatch.undo()
    await service.act("chan-1", ALICE, "open red")
    assert (await _bank(store, start.game_id)).seats[0].left == 7 * HOUR
    assert json.loads((await store.get_game(start.game_id)).settings_json)["time_bank"]["start_hours"] == 10
