"""Slow work is deferred inside Discord's 3 seconds, then the reply replaces the "thinking"
message (or the clicked message)."""
from __future__ import annotations

import asyncio

from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness


def slowed(method, seconds: float = 1.6):
    async def wrapper(*args, **kwargs):
        await asyncio.sleep(seconds)
        return await method(*args, **kwargs)

    return wrapper


async def test_slow_moves_and_clicks_are_deferred(harness: Harness, fake, monkeypatch) -> None:
    h = harness
    service = h.bot.service
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    lobby = h.lobby()

    monkeypatch.setattr(service, "join", slowed(service.join))
    joined = await h.click(lobby, None, BOB, label="Join")
    assert joined.callback_type == 6 and joined.ack_latency < 3.0  # deferred update ...
    for _ in range(200):
        if "Bob" in fake.message(lobby.id).embeds[0]["fields"][0]["value"]:  # ... then the lobby edited
            break
        await asyncio.sleep(0.02)
    assert "Bob" in fake.message(lobby.id).embeds[0]["fields"][0]["value"]
    await h.click(lobby, None, ALICE, label="Start")

    monkeypatch.setattr(service, "click", slowed(service.click))
    choices = await h.autocomplete(ALICE, "move", focused="move", value="keep")
    moved = await h.slash(ALICE, "move", {"move": choices[0]["value"]})
    assert moved.callback_type == 5 and moved.ephemeral and moved.ack_latency < 3.0
    assert moved.content.startswith("✅") and not moved.original.loading
    status = await service.status(str(CHANNEL))
    assert str(ALICE) not in status.waiting_user_ids
    fake.assert_clean()
