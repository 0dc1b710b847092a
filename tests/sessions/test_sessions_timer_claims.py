"""Timers shared by several processes: a deadline never applied twice by a holder that stalled
past its lease, a timer that outlives three holders in a row given up, and bots (or standing
orders) that are due work any live process takes over when the process that should move them
died. Two services on two stores of one database stand for two processes; the clock is moved
by hand. On both backends."""
from __future__ import annotations

import asyncio
import json
import logging

import pytest

from bot.sessions import SessionService
from bot.store import StoreBackend
from tests.support import ALICE, BOB, actor_for, make_service
from tests.support.backends import Backend

HOUR = 3600.0
LEASE = 30.0


async def _timer(store: StoreBackend, game_id: int, kind: str):
    return next((t for t in await store.timers(game_id) if t.kind == kind), None)


async def _deadline_moves(store: StoreBackend, game_id: int) -> list[str]:
    return [a.notation for a in await store.actions(game_id) if a.auto == "deadline"]


async def _notices(store: StoreBackend) -> list[dict]:
    return [json.loads(r.payload_json) for r in await store.outbox_rows() if r.kind == "notice"]


async def _die_holding(store: StoreBackend, kind: str, holders: int, clock, *, held_before: bool = False) -> None:
    """`holders` processes in a row claim the due timer of `kind` and die before rescheduling
    it (after one that held it already, if `held_before`)."""
    for n in range(holders):
        (held,) = await store.claim_timers(kind, f"elsewhere:{n}:gone", clock.now, LEASE)
        assert held.takeovers == n + held_before
        clock.advance(LEASE)


# ------------------------------------------------------------------------------ a paused holder
async def test_a_holder_paused_past_its_lease_does_not_apply_the_deadline_a_second_time(
        backend: Backend, toy_game, clock) -> None:
    """The holder of a passed deadline is paused (not killed) after it claimed it and looked
    at it, as it reads the game to fire it. Its lease runs out, another process takes the
    deadline over and plays the late seat's move, after which the game waits on that same
    seat again (its turn in the play phase). The holder wakes up and must write nothing:
    the seat got one deadline move, and its new turn its full time."""
    holder_store, other_store = await backend.open(), await backend.open()
    try:
        holder = make_service(holder_store, clock)
        other = make_service(other_store, clock, first_seed=5)
        await holder.create("toy", "chan-1", "guild-1", ALICE)
        await holder.join("chan-1", BOB)
        start = await holder.start("chan-1", ALICE)
        await holder.settings("chan-1", ALICE, deadline_hours=1)
        await holder.act("chan-1", actor_for(start, 1), "open blue")  # seat 0 is late
        clock.advance(HOUR)

        reached, resume = asyncio.Event(), asyncio.Event()
        read_game = holder.core.read_id

        async def paused(*args, **kwargs):
            reached.set()
            await resume.wait()
            return await read_game(*args, **kwargs)

        holder.core.read_id = paused  # type: ignore[method-assign]
        firing = asyncio.create_task(holder.run_deadlines(lease=LEASE))
        await asyncio.wait_for(reached.wait(), 30)
        deadline = await _timer(other_store, start.game_id, "deadline")
        assert deadline.claimed_by == holder.deliveries.owner

        clock.advance(LEASE)  # the holder's lease runs out while it is paused
        (taken,) = await other.run_deadlines(lease=LEASE)
        assert (taken.seat, taken.notation, taken.auto) == (0, "open red", "deadline")
        assert taken.waiting == [0]  # the same seat's turn again, with a new deadline

        resume.set()
        assert await asyncio.wait_for(firing, 30) == []
        assert await _deadline_moves(other_store, start.game_id) == ["open red"]
        deadline = await _timer(other_store, start.game_id, "deadline")
        assert deadline.due_at == clock.now + HOUR and deadline.claimed_by is None
        assert (await other.status("chan-1")).version == taken.version
    finally:
        await holder_store.close()
        await other_store.close()


async def test_a_deadline_firing_keeps_its_claim_from_one_late_seat_to_the_next(
        service: SessionService, start_game, store: StoreBackend, clock) -> None:
    """Each move of a deadline is committed only while its process holds the deadline; the
    move restarts the deadline, and the firing holds it again for the next late seat."""
    start = await start_game(players=3)
    await service.settings("chan-1", ALICE, deadline_hours=2)
    clock.advance(2 * HOUR)
    outs = await service.run_deadlines(lease=LEASE)
    assert [o.seat for o in outs] == [0, 1, 2] and outs[-1].waiting == [0]
    deadline = await _timer(store, start.game_id, "deadline")
    assert (deadline.due_at, deadline.claimed_by, deadline.takeovers) == (clock.now + 2 * HOUR, None, 0)


# ------------------------------------------------------------------------------ giving up
@pytest.mark.parametrize("dead_holders", [2, 3])
async def test_a_deadline_that_outlives_three_holders_is_given_up_and_the_host_told(
        service: SessionService, start_game, store: StoreBackend, clock, caplog, dead_holders: int,
        expect_error) -> None:
    """Processes that claimed a passed deadline and died before rescheduling it: after two
    the next process still applies it (a restart, a deploy); after three, firing it is likely
    what kills them, so nobody is moved for the late players, the deadline goes and the host
    is told; the next move sets a new one."""
    if dead_holders == 3:
        expect_error("railyard.sessions", "deadline timer was taken over 3 times")
    start = await start_game()
    await service.settings("chan-1", ALICE, deadline_hours=1)
    clock.advance(HOUR)
    await _die_holding(store, "deadline", dead_holders, clock)

    with caplog.at_level(logging.ERROR, logger="railyard.sessions"):
        outs = await service.run_deadlines(lease=LEASE)
    if dead_holders == 2:
        assert [o.auto for o in outs] == ["deadline", "deadline"]
        assert await _notices(store) == []
        return
    assert outs == [] and await _deadline_moves(store, start.game_id) == []
    assert await _timer(store, start.game_id, "deadline") is None
    (notice,) = await _notices(store)
    assert (notice["problem"], notice["game_id"], notice["host_user_id"], notice["channel_id"]) == (
        "deadline", start.game_id, ALICE.user_id, "chan-1")
    assert any("deadline timer was taken over 3 times" in r.getMessage() for r in caplog.records), caplog.text
    # the game goes on: a move starts a new deadline, which is fired as any other
    out = await service.act("chan-1", actor_for(start, 0), "open red")
    assert (await _timer(store, start.game_id, "deadline")).due_at == clock.now + HOUR
    clock.advance(HOUR)
    (auto,) = await service.run_deadlines(lease=LEASE)
    assert (auto.seat, auto.auto, auto.version) == (1, "deadline", out.version + 1)


async def test_a_reminder_that_outlives_three_holders_is_dropped_and_the_next_one_comes(
        service: SessionService, start_game, store: StoreBackend, clock, expect_error) -> None:
    expect_error("railyard.sessions", "reminder timer was taken over 3 times")
    start = await start_game()
    clock.advance(12 * HOUR)
    await _die_holding(store, "reminder", 3, clock)
    assert await service.due_reminders(lease=LEASE) == []
    assert [r for r in await store.outbox_rows(start.game_id) if r.kind == "reminder"] == []
    # dropped as if it had been sent: the next one after the back-off, counted from now
    timer = await _timer(store, start.game_id, "reminder")
    assert (timer.attempt, timer.due_at, timer.claimed_by, timer.takeovers) == (1, clock.now + 24 * HOUR, None, 0)
    assert await _notices(store) == []
    clock.advance(24 * HOUR)
    (reminder,) = await service.due_reminders(lease=LEASE)
    assert reminder.attempt == 2


@pytest.mark.parametrize("dead_holders", [2, 3])
async def test_bots_that_outlive_three_holders_are_given_up_and_the_host_told(
        backend: Backend, toy_game, clock, dead_holders: int, expect_error) -> None:
    """The process that started the game holds its 'bots' timer and dies (the first holder);
    others take it over and die too."""
    if dead_holders == 3:
        expect_error("railyard.sessions", "bots timer was taken over 3 times")
    async with await backend.open() as store:
        first, survivor = make_service(store, clock), make_service(store, clock, first_seed=5)
        await first.create("toy", "chan-1", "guild-1", ALICE)
        await first.add_bot("chan-1", ALICE, "first")
        start = await first.start("chan-1", ALICE)
        assert start.bots_next
        clock.advance(first.deliveries.lease)
        await _die_holding(store, "bots", dead_holders - 1, clock, held_before=True)
        assert (await _timer(store, start.game_id, "bots")).takeovers == dead_holders - 1

        waiting = await survivor.due_bots(lease=LEASE)
        if dead_holders == 2:
            assert waiting == [start.game_id]
            assert [o.auto for o in await survivor.run_bots(start.game_id)] == ["bot"]
            assert await _timer(store, start.game_id, "bots") is None and await _notices(store) == []
            return
        assert waiting == [] and await _timer(store, start.game_id, "bots") is None
        (notice,) = await _notices(store)
        assert (notice["problem"], notice["game_id"], notice["host_user_id"]) == ("bots", start.game_id,
                                                                                ALICE.user_id)


# ------------------------------------------------------------------------------ bots as claimed work
async def test_bots_left_waiting_by_a_dead_process_are_moved_by_another_after_its_lease(
        backend: Backend, toy_game, clock) -> None:
    """A change that has a bot move next writes the game's 'bots' timer, due now and held by
    the process that made the change (which moves them at once). That process dies: once its
    lease has run out, another process's sweep takes the timer over and moves the bots."""
    dead_store, live_store = await backend.open(), await backend.open()
    try:
        dead, live = make_service(dead_store, clock), make_service(live_store, clock, first_seed=5)
        await dead.create("toy", "chan-1", "guild-1", ALICE, {"rounds": 2})
        await dead.add_bot("chan-1", ALICE, "first")
        start = await dead.start("chan-1", ALICE)
        bot_seat = start.seat_user_ids.index(None)
        timer = await _timer(live_store, start.game_id, "bots")
        assert (timer.due_at, timer.claimed_by, timer.claimed_until) == (
            clock.now, dead.deliveries.owner, clock.now + dead.deliveries.lease)
        await dead_store.close()  # ... and that process is gone before its bot moved

        assert await live.due_bots(lease=LEASE) == []  # its lease still runs
        clock.advance(dead.deliveries.lease)
        assert await live.due_bots(lease=LEASE) == [start.game_id]
        (moved,) = await live.run_bots(start.game_id)
        assert (moved.seat, moved.auto, moved.waiting) == (bot_seat, "bot", [1 - bot_seat])
        assert await _timer(live_store, start.game_id, "bots") is None  # nobody's bots to move
        assert await live.due_bots(lease=LEASE) == []

        # a person's move answered by the bot writes the timer in its own transaction
        out = await live.act("chan-1", ALICE, "open red")
        while out.status == "active" and not out.bots_next:
            out = await live.act("chan-1", ALICE, "pass")
        timer = await _timer(live_store, start.game_id, "bots")
        if out.status == "active":
            assert (timer.due_at, timer.claimed_by) == (clock.now, live.deliveries.owner)
            assert (await live.run_bots(start.game_id))[0].seat == bot_seat
        else:
            assert timer is None  # a finished game keeps no timers
    finally:
        await live_store.close()
        await dead_store.close()


async def test_a_bots_timer_with_nothing_to_move_is_dropped(
        service: SessionService, start_game, store: StoreBackend, backend: Backend, clock) -> None:
    """A timer left by an older version, or by a change whose standing orders were withdrawn
    before they moved: the process that takes it finds nothing to move and drops it."""
    start = await start_game()
    await backend.sql("INSERT INTO timers (game_id, kind, due_at, attempt, payload) VALUES (?, 'bots', 0, 0, '{}')",
                      start.game_id)
    assert await service.due_bots(lease=LEASE) == [start.game_id]
    assert await service.run_bots(start.game_id) == []
    assert await _timer(store, start.game_id, "bots") is None
    assert await service.due_bots(lease=LEASE) == []
