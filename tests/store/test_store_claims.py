"""Claims: several processes on one database, each outbox row delivered and each timer fired
by one of them. A process claims rows with a lease; nobody else takes them while it runs; a
holder that stops renewing (killed) loses them once it has run out; a holder whose row was
taken over cannot record anything for it. On both backends; the concurrency test opens
several stores on one database (as several processes would), the plan tests look at each
backend's own planner with a long history of finished games."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.sessions import SessionService
from bot.store import ClaimLost, Store, StoreBackend
from tests.support import ALICE, BOB, PLAYERS
from tests.support.backends import Backend
from tests.support.postgres import plan_scans

A, B = "host:1:aaaa", "host:2:bbbb"
LEASE = 30.0


async def _game(store: StoreBackend, channel: str) -> int:
    async with store.write() as tx:
        return await tx.insert_game(game="toy", guild_id="g", channel_id=channel, host_user_id="h",
                                    locale="en", options={}, settings={}, seed=7, now=1.0)


async def _rows(store: StoreBackend, game_id: int | None, n: int, now: float = 1.0) -> list[int]:
    async with store.write() as tx:
        return [await tx.add_outbox(game_id, "move", {"n": i}, now) for i in range(n)]


async def _row(store: StoreBackend, row_id: int):
    async with store.read() as tx:
        return await tx.get_outbox(row_id)


# ------------------------------------------------------------------------------ outbox
async def test_a_claim_takes_the_first_row_of_each_game_and_keeps_it_from_others(backend: Backend) -> None:
    async with await backend.open() as store:
        g1, g2 = await _game(store, "c1"), await _game(store, "c2")
        first1, second1 = await _rows(store, g1, 2)
        (first2,) = await _rows(store, g2, 1)
        (notice,) = await _rows(store, None, 1)

        claimed = await store.claim_outbox(A, 10.0, LEASE)
        assert [r.id for r in claimed] == [first1, first2, notice]
        assert all(r.claimed_by == A and r.claimed_until == 10.0 + LEASE for r in claimed)
        assert all(r.attempts == 0 and r.last_error is None for r in claimed)
        # while A's lease runs, B gets nothing: not A's rows, and not a game's later row
        # either (its first is still pending, held by A)
        assert await store.claim_outbox(B, 10.0 + LEASE - 0.01, LEASE) == []
        assert (await _row(store, second1)).claimed_by is None

        # A delivers game 1's first row: only then is its second one anyone's to claim
        await store.mark_delivered(first1, 11.0, owner=A)
        done = await _row(store, first1)
        assert done.delivered_at == 11.0 and done.claimed_by is None and done.claimed_until is None
        assert [r.id for r in await store.claim_outbox(B, 12.0, LEASE)] == [second1]
        # a limit caps what one claim takes
        assert await store.claim_outbox(A, 12.0, LEASE, limit=0) == []


async def test_a_lease_that_ran_out_is_taken_over_and_the_old_holder_can_record_nothing(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _game(store, "c1")
        row, later = await _rows(store, game, 2)
        (mine,) = await store.claim_outbox(A, 10.0, LEASE)
        assert mine.id == row
        await store.record_part(row, "post", "sent", 10.5, message_id="900")  # A sent a part, then stalled

        (taken,) = await store.claim_outbox(B, 10.0 + LEASE, LEASE)
        assert taken.id == row and taken.claimed_by == B
        # the interrupted attempt is counted, and says what happened
        assert taken.attempts == 1 and A in taken.last_error and "lease" in taken.last_error
        # the part A stored is what B skips (the courier reads the parts)
        assert set(await store.outbox_parts(row)) == {"post"}

        # A wakes up: nothing it records lands, whatever it tries
        before = await backend.dump()
        with pytest.raises(ClaimLost) as lost:
            await store.mark_delivered(row, 50.0, owner=A)
        assert (lost.value.outbox_id, lost.value.owner, lost.value.holder) == (row, A, B)
        with pytest.raises(ClaimLost):
            await store.mark_failed(row, "server error 500", 50.0, owner=A)
        with pytest.raises(ClaimLost):
            await store.give_up(row, "gone", 50.0, owner=A, notice=(game, "gone", {}))
        async with store.write() as tx:
            with pytest.raises(ClaimLost):
                await tx.require_claim(row, A)
        assert await store.renew_claims(A, [row], 50.0, LEASE) == [row]  # lost: A must stop
        assert await store.release_claims(A, [row]) == 0
        assert await backend.dump() == before  # no notice queued, no attempt counted, B still holds it

        await store.mark_delivered(row, 51.0, owner=B)
        assert (await _row(store, row)).delivered_at == 51.0
        assert await store.renew_claims(A, [row], 52.0, LEASE) == []  # finished is not lost
        assert [r.id for r in await store.claim_outbox(A, 52.0, LEASE)] == [later]


async def test_renewing_keeps_a_long_delivery_and_releasing_gives_rows_back(backend: Backend) -> None:
    async with await backend.open() as store:
        g1, g2 = await _game(store, "c1"), await _game(store, "c2")
        (r1,), (r2,) = await _rows(store, g1, 1), await _rows(store, g2, 1)
        assert {r.id for r in await store.claim_outbox(A, 10.0, LEASE)} == {r1, r2}
        # a heartbeat at each third of the lease keeps the rows A's far past the first lease
        now = 10.0
        for _ in range(9):
            now += LEASE / 3
            assert await store.renew_claims(A, [r1, r2, 999_999], now, LEASE) == []  # none lost
            assert await store.claim_outbox(B, now, LEASE) == []
        assert (await _row(store, r1)).claimed_until == now + LEASE

        # a row claimed but never started goes back as it was
        assert await store.release_claims(A, [r1]) == 1
        fresh = await _row(store, r1)
        assert (fresh.claimed_by, fresh.attempts, fresh.last_error) == (None, 0, None)
        # a delivery cut short goes back counted (it may be out in part)
        assert await store.release_claims(A, [r2], interrupted="interrupted: stopping") == 1
        cut = await _row(store, r2)
        assert (cut.claimed_by, cut.attempts, cut.last_error) == (None, 1, "interrupted: stopping")
        # both are anyone's at once, not after the lease
        assert {r.id for r in await store.claim_outbox(B, now, LEASE)} == {r1, r2}


async def test_a_failed_row_is_released_and_waits_out_its_back_off_for_everyone(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _game(store, "c1")
        row, later = await _rows(store, game, 2)
        await store.claim_outbox(A, 10.0, LEASE)
        failed = await store.mark_failed(row, "server error 503", 10.0, owner=A)
        assert failed.claimed_by is None and failed.next_attempt_at == 15.0  # 5 s, the first back-off
        # nobody takes it (nor the game's later row) before the back-off ends ...
        assert await store.claim_outbox(B, 14.9, LEASE) == []
        # ... then whoever looks first does
        assert [r.id for r in await store.claim_outbox(B, 15.0, LEASE)] == [row]
        # giving up lets the later row through; the owner check passes for the holder
        assert await store.give_up(row, "refused", 16.0, owner=B) is None
        assert [r.id for r in await store.claim_outbox(A, 16.0, LEASE)] == [later]


async def test_takeovers_in_a_row_are_counted_until_a_holder_records_an_outcome(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _game(store, "c1")
        (row,) = await _rows(store, game, 1)
        now = 10.0
        owners = [f"host:{n}:dead" for n in range(3)]
        for n, owner in enumerate(owners):
            (taken,) = await store.claim_outbox(owner, now, LEASE)
            # the first claim of a free row is no takeover; each later one is
            assert (taken.claimed_by, taken.takeovers, taken.attempts) == (owner, n, n)
            now += LEASE  # the holder dies: its lease runs out
        # a holder that lives to record a failure ends the run (the attempts stay counted)
        failed = await store.mark_failed(row, "server error 503", now, owner=owners[-1])
        assert (failed.takeovers, failed.attempts) == (0, 3)
        now = failed.next_attempt_at
        (again,) = await store.claim_outbox(A, now, LEASE)
        assert (again.takeovers, again.attempts) == (0, 3)
        # a clean release (a stop) is no takeover either
        await store.release_claims(A, [row], interrupted="interrupted: stopping")
        (back,) = await store.claim_outbox(B, now, LEASE)
        assert (back.takeovers, back.attempts) == (0, 4)


async def test_concurrent_claimers_never_take_the_same_row(backend: Backend) -> None:
    """Eight stores on one database (eight processes' worth of connections) claim at once,
    again and again, delivering what they get: every row is claimed exactly once, and the
    rows of one game in order."""
    games, per_game, claimers = 12, 5, 8
    stores = [await backend.open() for _ in range(claimers)]
    try:
        ids = {}
        for g in range(games):
            game = await _game(stores[0], f"c{g}")
            ids[game] = await _rows(stores[0], game, per_game)
        taken: list[tuple[str, int]] = []
        order: dict[int, list[int]] = {g: [] for g in ids}
        game_of = {row: game for game, rows in ids.items() for row in rows}

        start, first_taken = asyncio.Barrier(claimers), asyncio.Barrier(claimers)

        async def claimer(n: int) -> None:
            owner = f"host:{n}:x"
            idle = 0
            # everyone's first claim is of one row, made once all have started, and nobody goes
            # on before all have theirs: twelve rows are due, so each claimer gets work however
            # the scheduler orders them (on SQLite the writers wait in its busy handler, whose
            # growing sleeps could otherwise let one claimer take every row meanwhile)
            await start.wait()
            first = True
            while idle < 3:
                rows = await stores[n].claim_outbox(owner, 10.0, LEASE, limit=1 if first else 3)
                if first:
                    first = False
                    await first_taken.wait()
                if not rows:
                    idle += 1
                    await asyncio.sleep(0.01)
                    continue
                idle = 0
                for row in rows:
                    taken.append((owner, row.id))
                    order[game_of[row.id]].append(row.id)
                    await asyncio.sleep(0)  # others claim meanwhile
                    await stores[n].mark_delivered(row.id, 11.0, owner=owner)

        await asyncio.wait_for(asyncio.gather(*(claimer(n) for n in range(claimers))), timeout=60)
        claimed = [row for _, row in taken]
        assert sorted(claimed) == sorted(game_of)  # each row once, none left out
        assert all(order[g] == ids[g] for g in ids)  # each game's rows in their order
        assert len({owner for owner, _ in taken}) > 1  # the work really was shared
    finally:
        for store in stores:
            await store.close()


# ------------------------------------------------------------------------------ timers
async def test_timers_are_claimed_once_and_a_new_schedule_ends_the_claim(backend: Backend) -> None:
    async with await backend.open() as store:
        g1, g2, g3 = [await _game(store, f"c{i}") for i in range(3)]
        async with store.write() as tx:
            await tx.set_timer(g1, "reminder", 5.0)
            await tx.set_timer(g2, "reminder", 3.0)
            await tx.set_timer(g3, "reminder", 50.0)  # not due yet
            await tx.set_timer(g1, "deadline", 4.0)

        claimed = await store.claim_timers("reminder", A, 10.0, LEASE)
        assert [(t.game_id, t.claimed_by) for t in claimed] == [(g2, A), (g1, A)]  # earliest first
        assert await store.claim_timers("reminder", B, 10.0, LEASE) == []
        # another kind is another claim
        assert [t.game_id for t in await store.claim_timers("deadline", B, 10.0, LEASE)] == [g1]

        async with store.write() as tx:
            assert (await tx.hold_timer(g1, "reminder", A)).due_at == 5.0
            assert await tx.hold_timer(g1, "reminder", B) is None
            # the holder fires g1's reminder: rescheduling it ends the claim
            await tx.set_timer(g1, "reminder", 100.0, attempt=1)
            assert await tx.hold_timer(g1, "reminder", A) is None
            # g2's was not A's to fire after all (say, quiet hours changed): given back unfired
            await tx.release_timer(g2, "reminder", A)
            await tx.release_timer(g2, "reminder", B)  # not B's: changes nothing
        assert [t.game_id for t in await store.claim_timers("reminder", B, 10.0, LEASE)] == [g2]


async def test_a_timer_held_by_a_dead_process_fires_elsewhere_after_the_lease(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _game(store, "c1")
        async with store.write() as tx:
            await tx.set_timer(game, "reminder", 5.0)
        assert len(await store.claim_timers("reminder", A, 10.0, LEASE)) == 1  # ... and A dies
        assert await store.claim_timers("reminder", B, 10.0 + LEASE - 1, LEASE) == []
        (timer,) = await store.claim_timers("reminder", B, 10.0 + LEASE, LEASE)
        assert timer.claimed_by == B
        async with store.write() as tx:
            assert await tx.hold_timer(game, "reminder", A) is None  # were A alive, it may not fire it
            assert await tx.hold_timer(game, "reminder", B) is not None



async def test_timer_takeovers_in_a_row_are_counted_until_it_is_rescheduled(backend: Backend) -> None:
    """As for outbox rows: each claim of a timer whose holder's lease ran out is one more
    takeover in a row; the holder rescheduling it (it lived through firing it) starts again."""
    async with await backend.open() as store:
        game = await _game(store, "c1")
        async with store.write() as tx:
            await tx.set_timer(game, "deadline", 5.0)
        now = 10.0
        owners = [f"host:{n}:dead" for n in range(3)]
        for n, owner in enumerate(owners):
            (taken,) = await store.claim_timers("deadline", owner, now, LEASE)
            # the first claim of a free timer is no takeover; each later one is
            assert (taken.claimed_by, taken.takeovers) == (owner, n)
            now += LEASE  # the holder dies: its lease runs out
        async with store.write() as tx:
            assert (await tx.hold_timer(game, "deadline", owners[-1])).takeovers == 2
            await tx.set_timer(game, "deadline", now)  # the last holder fired it and set the next one
        (fresh,) = await store.claim_timers("deadline", A, now, LEASE)
        assert (fresh.claimed_by, fresh.takeovers) == (A, 0)
        # given back unfired is no takeover either
        async with store.write() as tx:
            await tx.release_timer(game, "deadline", A)
        (back,) = await store.claim_timers("deadline", B, now, LEASE)
        assert (back.claimed_by, back.takeovers) == (B, 0)


async def test_a_timer_written_held_waits_for_its_holders_lease_and_can_be_kept_after_a_reschedule(
        backend: Backend) -> None:
    async with await backend.open() as store:
        game = await _game(store, "c1")
        async with store.write() as tx:
            # due now, and the writer handles it itself: kept from the others' sweeps
            await tx.set_timer(game, "bots", 10.0, holder=A, held_until=10.0 + LEASE)
        assert await store.claim_timers("bots", B, 10.0 + LEASE - 0.01, LEASE) == []
        (taken,) = await store.claim_timers("bots", B, 10.0 + LEASE, LEASE)  # A died
        assert (taken.claimed_by, taken.takeovers) == (B, 1)

        async with store.write() as tx:
            await tx.set_timer(game, "deadline", 5.0)
        (deadline,) = await store.claim_timers("deadline", A, 10.0, LEASE)
        async with store.write() as tx:
            assert await tx.hold_timer(game, "deadline", A) is not None
            await tx.set_timer(game, "deadline", 100.0)  # a move of the firing restarts it ...
            assert await tx.hold_timer(game, "deadline", A) is None
            await tx.retain_timer(game, "deadline", A, 10.0 + LEASE)  # ... and A goes on under it
            kept = await tx.hold_timer(game, "deadline", A)
        assert (kept.due_at, kept.claimed_until, kept.takeovers) == (100.0, 10.0 + LEASE, 0)

async def test_two_services_fire_one_reminder_once_and_a_dead_ones_after_its_lease(
        backend: Backend, toy_game, clock) -> None:
    """Two services on one database stand for two processes: the reminder goes to the one
    that claims it; a claim left by a process that died is honoured until its lease runs
    out, then the other fires the reminder, once."""
    async with await backend.open() as store:
        first = SessionService(store, clock=clock)
        second = SessionService(store, clock=clock)
        assert first.deliveries.owner != second.deliveries.owner
        await first.create("toy", "chan-1", "guild-1", PLAYERS[0], None, "en")
        await first.join("chan-1", BOB)
        start = await first.start("chan-1", ALICE)
        clock.advance(12 * 3600.0)

        (fired,) = await first.due_reminders(lease=LEASE)
        assert fired.game_id == start.game_id and await second.due_reminders(lease=LEASE) == []

        # the next reminder is claimed by the first, which then "dies" before firing it
        timer = next(t for t in await store.timers(start.game_id) if t.kind == "reminder")
        clock.now = timer.due_at
        async with store.write() as tx:
            assert len(await tx.claim_timers("reminder", first.deliveries.owner, clock.now, LEASE)) == 1
        assert await second.due_reminders(lease=LEASE) == []  # its lease still runs
        clock.advance(LEASE)
        (again,) = await second.due_reminders(lease=LEASE)
        assert again.attempt == 2
        assert await first.due_reminders(lease=LEASE) == [] and await second.due_reminders(lease=LEASE) == []
        reminders = [r for r in await store.outbox_rows(start.game_id) if r.kind == "reminder"]
        assert [json.loads(r.payload_json)["attempt"] for r in reminders] == [1, 2]


# ------------------------------------------------------------------------------ plans
async def _history(store: StoreBackend, games: int = 1500, rows_per_game: int = 4) -> list[int]:
    """What a long-running bot has: many games with delivered rows and a reminder far off
    (waiting on somebody), and a few live games with a pending row and a due reminder
    each; with fresh statistics, as PostgreSQL's autovacuum and SQLite's `PRAGMA optimize`
    keep them."""
    async with store.write() as tx:
        for i in range(games):
            await tx.insert_game(game="toy", guild_id="g", channel_id=f"old{i}", host_user_id="h",
                                 locale="en", options={}, settings={}, seed=1, now=1.0)
        for _ in range(rows_per_game):
            await tx.execute("INSERT INTO outbox (game_id, created_at, kind, payload, attempts, next_attempt_at,"
                             " delivered_at) SELECT id, 1.0, 'move', ?, 0, 1.0, 2.0 FROM games", ("x" * 300,))
        await tx.execute("INSERT INTO timers (game_id, kind, due_at, attempt, payload)"
                         " SELECT id, 'reminder', 1e12, 0, '{}' FROM games")
        live = [await tx.insert_game(game="toy", guild_id="g", channel_id=f"live{i}", host_user_id="h",
                                     locale="en", options={}, settings={}, seed=1, now=1.0) for i in range(3)]
        pending = [await tx.add_outbox(g, "move", {"n": 1}, 3.0) for g in live]
        for g in live:
            await tx.set_timer(g, "reminder", 5.0)
        await tx.execute("ANALYZE")
    return pending


async def test_sqlite_plans_the_claims_on_the_partial_and_timer_indexes(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        await _history(store)
        async with store.write() as tx:
            outbox_sql, timers_sql = tx.claim_outbox_sql(), tx.claim_timers_sql()
            outbox = [r["detail"] for r in await tx.fetchall("EXPLAIN QUERY PLAN " + outbox_sql,
                                                              (A, 40.0, 10.0, 10.0, 50))]
            timers = [r["detail"] for r in await tx.fetchall("EXPLAIN QUERY PLAN " + timers_sql,
                                                              (A, 40.0, "reminder", "reminder", 10.0, 10.0, 200))]
        # the rows to claim come from the index of pending rows in id order, the "older
        # pending row of this game?" check from another, and the update finds them by id
        assert any("SCAN o USING INDEX outbox_due" in step for step in outbox), outbox
        assert any("SEARCH p USING INDEX outbox_by_game" in step for step in outbox), outbox
        assert any(step.startswith("SEARCH outbox USING INTEGER PRIMARY KEY") for step in outbox), outbox
        assert not any(step.startswith("SCAN outbox") or "TEMP B-TREE" in step for step in outbox), outbox
        assert any("SEARCH t USING INDEX timers_due (kind=? AND due_at<?)" in step for step in timers), timers
        assert any(step.startswith("SEARCH timers USING") for step in timers), timers
        assert not any(step.startswith("SCAN") for step in timers), timers


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_postgresql_plans_the_claims_on_the_partial_and_timer_indexes(backend: Backend) -> None:
    """No table scan, whatever the history: the pending rows through outbox_due and
    outbox_by_game, the updated rows by their key, the timers through timers_due."""
    async with await backend.open() as store:
        pending = await _history(store)
        async with store.write() as tx:
            plans = {}
            for name, sql, params in (
                    ("outbox", tx.claim_outbox_sql(), (A, 40.0, 10.0, 10.0, 50)),
                    ("timers", tx.claim_timers_sql(), (A, 40.0, "reminder", "reminder", 10.0, 10.0, 200))):
                plans[name] = await plan_scans(tx, sql, params)
        outbox = plans["outbox"]
        assert {alias for _, alias, _ in outbox} >= {"o", "p", "outbox"}, outbox
        assert all(kind.startswith("Index") and index in ("outbox_due", "outbox_by_game", "outbox_pkey")
                   for kind, _, index in outbox if kind != "ModifyTable"), outbox
        assert all(kind.startswith("Index") and index in ("timers_due", "timers_game_id_kind_key")
                   for kind, _, index in plans["timers"] if kind != "ModifyTable"), plans["timers"]
        assert [r.id for r in await store.claim_outbox(A, 10.0, LEASE)] == pending
