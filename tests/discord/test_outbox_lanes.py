"""The outbox delivers games independently: one game's slow post (a final post drawing its
timelapse takes seconds) holds back no other game's posts, not even ones that became due while
it was being drawn."""
from __future__ import annotations

import asyncio
import time

from bot.discord import posts
from bot.sessions import Actor
from games import registry
from tests.discord.conftest import ALICE, BOB, CHANNEL, OTHER, Harness

SLOW_SECONDS = 2.0


async def _open(h: Harness, game: str, channel: int) -> int:
    service = h.bot.service
    alice, bob = Actor(str(ALICE), "Alice"), Actor(str(BOB), "Bob")
    await service.create(game, str(channel), None, alice)
    await service.join(str(channel), bob)
    return (await service.start(str(channel), alice)).game_id


async def test_a_slow_post_holds_back_no_other_game(harness: Harness, fake, monkeypatch) -> None:
    h = harness
    draw = posts._draw

    def slow_for_ginga(game, kind, view, names, lang):
        if game == "ginga":
            time.sleep(SLOW_SECONDS)  # in the drawing thread, as a long timelapse would be
        return draw(game, kind, view, names, lang)

    monkeypatch.setattr(posts, "_draw", slow_for_ginga)
    await h.bot.outbox.flush()  # nothing of ours yet
    before = len(fake.requests)
    await _open(h, "ginga", CHANNEL)
    game_id = await _open(h, "ticket_to_ride", OTHER)
    flushing = asyncio.create_task(h.bot.outbox.flush())
    await asyncio.sleep(0.5)  # Ticket to Ride's start post is out; Galactic Railway is still drawing

    # a move in the other game while the slow post is being drawn: its post must not wait
    service = h.bot.service
    state = await service.current_state(game_id)
    status = await service.status(str(OTHER))
    seat = status.waiting[0]
    game = registry.get("ticket_to_ride")
    user = status.info.seats[seat].user_id
    move = game.format_action(game.legal_actions(state, seat)[0])
    await service.act(str(OTHER), Actor(user, "x"), move)
    h.bot.outbox.wake()
    await flushing
    await h.bot.idle()

    paths = [(r.method, r.path) for r in fake.requests[before:]]
    ginga_post = paths.index(("POST", f"/channels/{CHANNEL}/messages"))
    other = [i for i, (_, path) in enumerate(paths) if path.startswith(f"/channels/{OTHER}/messages")]
    assert len(other) >= 2, paths  # the start post, then the move (an edit of the live board)
    assert other[1] < ginga_post, paths
    rows = await service.store.outbox_rows(game_id)
    assert rows and all(r.delivered_at is not None for r in rows)
    fake.assert_clean()
