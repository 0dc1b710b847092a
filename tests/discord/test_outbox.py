"""Posts go through the outbox: a post that failed (5xx, rate limit) is delivered later,
exactly once, and a game's posts keep their order."""
from __future__ import annotations

import asyncio
import re

from bot.store import OUTBOX_KEEP_DELIVERED
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness
from tests.fake_discord import fast_http_retries

POSTS = f"/channels/{CHANNEL}/messages"


def versions(h: Harness) -> list[int]:
    out = []
    for post in h.game_posts():
        footer = post.embeds[-1]["footer"]["text"]
        out.append(int(re.search(r"board (\d+)", footer).group(1)))
    return out


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
    assert len(h.game_posts()) == 2 and versions(h) == sorted(versions(h))
    assert "started" in h.game_posts()[0].content

    # --- a long rate limit (over discord.py's 30 s cap) comes back to the outbox's back-off
    fake.fail_next("POST", POSTS, status=429, retry_after=45.0)
    await h.slash(BOB, "move", {"move": await first_keep(h, BOB)})
    assert len(h.game_posts()) == 2
    (row,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.delivered_at is None]
    assert "rate limited" in row.last_error and row.next_attempt_at == clock.now + 45.0
    clock.advance(44.0)
    await h.idle()
    assert len(h.game_posts()) == 2
    clock.advance(1.0)
    await h.idle()
    assert len(h.game_posts()) == 3

    # --- a short rate limit is waited out by discord.py itself: delivered at once
    status = await h.bot.service.status(str(CHANNEL))
    mover = int(status.waiting_user_ids[0])
    fake.fail_next("POST", POSTS, status=429, retry_after=0.05)
    await h.slash(mover, "move", {"move": "draw deck"})
    assert len(h.game_posts()) == 4

    # every row delivered once; each version posted once; the failures were real requests
    rows = await h.bot.store.outbox_rows(game_id)
    assert all(r.delivered_at is not None and not r.dead for r in rows)
    assert len(rows) == len(h.game_posts()) == len(set(versions(h)))
    statuses = [r.status for r in fake.requests_to("POST", POSTS)]
    assert statuses.count(500) == 5 and statuses.count(429) == 2
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


async def test_a_network_failure_is_retried(harness: Harness, fake, clock, monkeypatch) -> None:
    import aiohttp
    import discord

    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    real_send = discord.PartialMessageable.send
    failures = []

    async def flaky_send(self, *args, **kwargs):
        if not failures:
            failures.append(1)
            raise aiohttp.ClientConnectionError("connection reset by peer")
        return await real_send(self, *args, **kwargs)

    monkeypatch.setattr(discord.PartialMessageable, "send", flaky_send)
    posts = len(h.game_posts())
    await h.slash(ALICE, "move", {"move": await first_keep(h, ALICE)})
    assert len(h.game_posts()) == posts and failures == [1]
    (row,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.delivered_at is None]
    assert row.last_error.startswith("network") and row.attempts == 1
    clock.advance(5.0)
    await h.idle()
    assert len(h.game_posts()) == posts + 1
    assert all(r.delivered_at is not None for r in await h.bot.store.outbox_rows(game_id))
    fake.assert_clean()


async def test_delivered_posts_are_pruned_after_a_day_and_pending_ones_kept(harness: Harness, fake, clock) -> None:
    """Delivered rows hold a whole public view each and are never read again: the running
    dispatcher deletes them after a day, so the outbox stays the size of what is in flight."""
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    delivered = await h.bot.store.outbox_rows(game_id)
    assert delivered and all(r.delivered_at is not None for r in delivered)
    fake.fail_next("POST", POSTS, status=503)
    await h.slash(ALICE, "move", {"move": await first_keep(h, ALICE)})
    (pending,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.delivered_at is None]

    clock.advance(OUTBOX_KEEP_DELIVERED - 60)
    assert await h.bot.outbox.prune() == 0  # not a day old yet
    clock.advance(120)
    assert await h.bot.outbox.prune() == len(delivered)
    assert [r.id for r in await h.bot.store.outbox_rows(game_id)] == [pending.id]
    await h.idle()  # the pending post still goes out
    assert [r.delivered_at is not None for r in await h.bot.store.outbox_rows(game_id)] == [True]
    assert len(h.game_posts()) == len(delivered) + 1
    fake.assert_clean()
