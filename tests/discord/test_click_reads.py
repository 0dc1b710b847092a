"""A click costs one read of the game: the store transactions one interaction opens.

The store of the running bot is wrapped so that every read and write transaction opened on
behalf of an interaction is counted (a context variable set where the interaction enters the
adapter follows it into the tasks the adapter starts for it; the bots' own moves after it
and the outbox dispatcher's work are not the click's). A click that makes a move reads the
game once and writes once; a click that only walks the menu or opens the hand reads once
and writes nothing.
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
from typing import Any, AsyncIterator

import pytest

from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, find_id

_CLICK: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("click", default=None)


class Counted:
    """The store transactions of each interaction, in order ('read' / 'write')."""

    def __init__(self) -> None:
        self.interactions: list[list[str]] = []

    def begin(self) -> None:
        record: list[str] = []
        self.interactions.append(record)
        _CLICK.set(record)

    def last(self) -> list[str]:
        assert self.interactions, "no interaction reached the adapter"
        return self.interactions[-1]


def _is_clicks(kind: str) -> list[str] | None:
    record = _CLICK.get()
    task = asyncio.current_task()
    if record is None or (task is not None and task.get_name().startswith("railyard-bots-")):
        return None
    return record


def count_store(monkeypatch: pytest.MonkeyPatch, h: Harness) -> Counted:
    assert h.bot is not None
    bot, store, counted = h.bot, h.bot.service.store, Counted()

    def counting(kind: str, opener: Any) -> Any:
        @contextlib.asynccontextmanager
        async def opened() -> AsyncIterator[Any]:
            record = _is_clicks(kind)
            if record is not None:
                record.append(kind)
            async with opener() as tx:
                yield tx

        return opened

    monkeypatch.setattr(store, "read", counting("read", store.read))
    monkeypatch.setattr(store, "write", counting("write", store.write))

    component = bot.on_game_component

    async def on_game_component(*args: Any, **kwargs: Any) -> None:
        counted.begin()
        await component(*args, **kwargs)

    monkeypatch.setattr(bot, "on_game_component", on_game_component)
    check = bot.tree.interaction_check

    async def interaction_check(interaction: Any) -> bool:  # every slash command passes here first
        counted.begin()
        return await check(interaction)

    monkeypatch.setattr(bot.tree, "interaction_check", interaction_check)
    return counted


async def test_a_click_reads_the_game_once_and_a_move_writes_once(harness: Harness, monkeypatch) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    counted = count_store(monkeypatch, h)

    # the hand button: the private view, read once
    post = h.last_post()
    hand = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE)
    assert hand.ephemeral and counted.last() == ["read"]

    # ticking the tickets to keep makes the move: one read, one write
    keep = find_id(hand.original, r"ry:\d+:\d+:cg:.*")
    select = hand.original.component(keep)
    values = [o["value"] for o in select["options"]][:select.get("min_values", 1)]
    kept = await h.select(hand.original, keep, values, ALICE)
    assert kept.content.startswith("✅") and counted.last() == ["read", "write"]
    await h.keep_tickets(BOB)

    status = await h.bot.service.status(str(CHANNEL))
    mover = int(status.waiting_user_ids[0])
    post = h.last_post()

    # a click that only walks the menu (the first step of a claim): one read, nothing written
    claim = await h.move_button(post, "claim")
    assert claim is not None
    walked = await h.click(post, claim, mover)
    assert walked.ephemeral and "✅" not in (walked.content or "") and counted.last() == ["read"]

    # a button on the turn post that makes a move (the first card drawn blind): one read, one write,
    # and the reply offers the second draw from what that one call returned
    post = h.last_post()
    deck = await h.move_button(post, "draw deck")
    assert deck is not None
    drew = await h.click(post, deck, mover)
    assert drew.content.startswith("✅") and counted.last() == ["read", "write"]
    assert drew.original.custom_ids, "the second draw is offered in the same reply"

    # the second card by /move, typed: one read, one write
    moved = await h.slash(mover, "move", {"move": "draw deck"})
    assert moved.content.startswith("✅") and counted.last() == ["read", "write"]
