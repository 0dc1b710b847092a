"""Posts go through the outbox: a post that failed (5xx, rate limit, network) is delivered
later, exactly once, and a game's posts keep their order.

A game keeps one live board (bot/sessions/live.py): a move makes a new message when somebody
is newly waited on and otherwise edits the live one, so a delivered move shows either as a
new message or as an edit of the live board; the fake keeps both (`shown`)."""
from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import OUTBOX_KEEP_DELIVERED
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness
from tests.discord.test_delivery_faults import (
    assert_live_shows_latest,
    assert_nothing_lost_or_repeated,
    live,
    shown,
    versions,
)
from tests.fake_discord import fast_http_retries

POSTS = f"/channels/{CHANNEL}/messages"
EDITS = f"/channels/{CHANNEL}/messages/{{message_id}}"


async def test_outbox_retries_after_500_and_429_and_never_duplicates(harness: Harness, fake, clock) -> None:
    h = harness
    opened = await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    assert opened.ephemeral
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label="Join")

    # --- a 500 that outlasts discord.py's own retries: the start post fails, nothing is lost
    fake.fail_next("POST", POSTS, status=500, times=5)
    with fast_http_retries():
        started = await h.click(lobby, None, ALICE, label="Start")
    assert started.callback_type == 7  # the lobby itself was updated at once
    game_id = await h.game_id()
    assert h.game_posts() == []
    (row,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.kind == "start"]
    assert row.delivered_at is None and row.attempts == 1 and "500" in row.last_error
    assert row.next_attempt_at == clock.now + 5.0

    # a move meanwhile is committed, but its post waits behind the start post (order)
    kept = await h.slash(ALICE, "move", {"move": await first_keep(h, ALICE)})
    assert kept.ephemeral and kept.content.startswith("✅")
    assert h.game_posts() == []

    clock.advance(5.0)
    await h.idle()
    # the start post went out, and the move (Bob is still waited on) is on the same live
    # board: one message that tells both, showing the move
    (board,) = h.game_posts()
    assert "started" in board.content
    assert shown(h)[0][0] == "create" and all(kind == "edit" for kind, _, _ in shown(h)[1:])
    await assert_live_shows_latest(h)
    await assert_nothing_lost_or_repeated(h)

    # --- a long rate limit (over discord.py's 30 s cap) comes back to the outbox's back-off
    fake.fail_next("POST", POSTS, status=429, retry_after=45.0)
    await h.slash(BOB, "move", {"move": await first_keep(h, BOB)})  # Alice's turn: a new message
    assert len(h.game_posts()) == 1
    (row,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.delivered_at is None]
    assert "rate limited" in row.last_error and row.next_attempt_at == clock.now + 45.0
    clock.advance(44.0)
    await h.idle()
    assert len(h.game_posts()) == 1
    clock.advance(1.0)
    await h.idle()
    assert len(h.game_posts()) == 2
    await assert_live_shows_latest(h)

    # --- short rate limits are waited out by discord.py itself: delivered at once, both the
    # edit of the live board (the turn's first card) and the new message (its second)
    status = await h.bot.service.status(str(CHANNEL))
    mover = int(status.waiting_user_ids[0])
    fake.fail_next("PATCH", EDITS, status=429, retry_after=0.05)
    await h.slash(mover, "move", {"move": "draw deck"})
    assert len(h.game_posts()) == 2
    await assert_live_shows_latest(h)
    fake.fail_next("POST", POSTS, status=429, retry_after=0.05)
    await h.slash(mover, "move", {"move": "draw deck"})
    assert len(h.game_posts()) == 3
    await assert_live_shows_latest(h)

    # every row delivered once; every move told, each message created once (nonces), the
    # channel never shown an older state after a newer one; the failures were real requests
    rows = await h.bot.store.outbox_rows(game_id)
    assert all(r.delivered_at is not None and not r.dead for r in rows)
    created = [v for kind, _, v in shown(h) if kind == "create"]
    assert len(created) == len(h.game_posts()) == len(set(versions(h))) == 3
    assert fake.nonce_repeats == []
    await assert_nothing_lost_or_repeated(h)
    posts = [r.status for r in fake.requests_to("POST", POSTS)]
    edits = [r.status for r in fake.requests_to("PATCH", EDITS)]
    assert posts.count(500) == 5 and posts.count(429) == 2 and edits.count(429) == 1
    assert fake.pending_failures == []
    fake.assert_clean()


async def first_keep(h: Harness, user: int) -> str:
    """The first keep choice /move's autocomplete offers this user."""
    choices = await h.autocomplete(user, "move", focused="move", value="keep")
    assert choices, "no keep choice offered"
    return choices[0]["value"]


async def test_the_dispatcher_posts_on_its_own(harness: Harness, fake) -> None:
    """No flushing by the test: the move's commit wakes the running dispatcher task."""
    h = harness
    await h.fake.slash(500, CHANNEL, ALICE, "game new", {"game": "ticket_to_ride"})
    for _ in range(100):  # the lobby goes out with the reply
        if h.posts():
            break
        await asyncio.sleep(0.02)
    lobby = h.lobby()
    await fake.click(lobby, None, BOB, label="Join")
    await fake.click(lobby, None, ALICE, label="Start")
    for _ in range(300):
        if h.game_posts():
            break
        await asyncio.sleep(0.02)
    assert len(h.game_posts()) == 1 and "has started" in h.game_posts()[0].content
    fake.assert_clean()


@pytest.mark.parametrize("step", ["new message", "edit"])
async def test_a_network_failure_is_retried(harness: Harness, fake, clock, monkeypatch, step) -> None:
    import aiohttp
    import discord

    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    if step == "new message":
        await h.slash(ALICE, "move", {"move": await first_keep(h, ALICE)})  # an edit; Bob's keep posts anew
        mover, method = BOB, (discord.PartialMessageable, "send")
    else:
        mover, method = ALICE, (discord.PartialMessage, "edit")  # Alice's keep edits the live board
    real = getattr(*method)
    failures = []

    async def flaky(self, *args, **kwargs):
        if not failures:
            failures.append(1)
            raise aiohttp.ClientConnectionError("connection reset by peer")
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(*method, flaky)
    before = versions(h)
    await h.slash(mover, "move", {"move": await first_keep(h, mover)})
    assert versions(h) == before and failures == [1]
    (row,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.delivered_at is None]
    assert row.last_error.startswith("network") and row.attempts == 1
    clock.advance(5.0)
    await h.idle()
    assert len(versions(h)) == len(before) + (step == "new message")
    await assert_live_shows_latest(h)
    assert all(r.delivered_at is not None for r in await h.bot.store.outbox_rows(game_id))
    await assert_nothing_lost_or_repeated(h)
    fake.assert_clean()


async def test_delivered_posts_are_pruned_after_a_day_and_pending_ones_kept(harness: Harness, fake, clock) -> None:
    """Delivered rows hold a whole public view each and are never read again: the running
    dispatcher deletes them after a day, so the outbox stays the size of what is in flight."""
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    delivered = await h.bot.store.outbox_rows(game_id)
    assert delivered and all(r.delivered_at is not None for r in delivered)
    fake.fail_next("PATCH", EDITS, status=503)  # the move's edit of the live board fails
    await h.slash(ALICE, "move", {"move": await first_keep(h, ALICE)})
    (pending,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.delivered_at is None]

    clock.advance(OUTBOX_KEEP_DELIVERED - 60)
    assert await h.bot.outbox.prune() == 0  # not a day old yet
    clock.advance(120)
    assert await h.bot.outbox.prune() == len(delivered)
    assert [r.id for r in await h.bot.store.outbox_rows(game_id)] == [pending.id]
    await h.idle()  # the pending post still goes out
    assert [r.delivered_at is not None for r in await h.bot.store.outbox_rows(game_id)] == [True]
    assert versions(h) == [pending.payload["version"]]  # the live board shows it
    await assert_live_shows_latest(h)
    fake.assert_clean()


async def test_a_step_and_the_rows_it_delivered_are_stored_together(
        harness: Harness, fake, clock, monkeypatch) -> None:
    """A step (one new message or one edit) may deliver several rows. The live board and all
    of them, the first too, are written at once: if the process dies, or the database fails,
    right after the step, its first row is not delivered again against a live board that
    already shows the rows after it (which would post an older state anew, ping again, and
    take the buttons off the live board)."""
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()

    # two moves whose posts are due together, so one step delivers both
    async def paused() -> int:
        return 0

    with monkeypatch.context() as m:
        m.setattr(h.bot.outbox, "flush", paused)
        await h.slash(ALICE, "move", {"move": await first_keep(h, ALICE)})
        await h.slash(BOB, "move", {"move": await first_keep(h, BOB)})
    assert len(h.game_posts()) == 1

    # the step goes out; then the dispatcher's own record of it fails and the process dies
    store = h.bot.store

    async def broken(outbox_id: int, now: float | None = None, owner: str | None = None) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "mark_delivered", broken)
    with pytest.raises(sqlite3.OperationalError):
        await h.bot.outbox.flush()
    assert len(h.game_posts()) == 2
    sent = [(r.kind, r.message_id) for r in fake.message_payloads]
    await h.restart()
    await h.idle()

    assert [(r.kind, r.message_id) for r in fake.message_payloads] == sent  # nothing sent again
    assert all(r.delivered_at is not None and not r.dead for r in await h.bot.store.outbox_rows(game_id))
    assert len(h.game_posts()) == 2 and live(h).mentions and [u.id for u in live(h).mentions] == [ALICE]
    await assert_live_shows_latest(h)
    await assert_nothing_lost_or_repeated(h)
    fake.assert_clean()
