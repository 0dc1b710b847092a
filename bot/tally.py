"""What the Discord adapter would send for a game, counted without Discord.

The offline demo plays a whole game through the sessions service; this tally delivers its
outbox rows the way the Discord dispatcher does — game posts planned with the same live-board
plan (bot/sessions/live.py), a run of rows that became due together delivered as one step —
and counts new messages, edits and the bytes of the pictures sent. The pictures are the
renderer's own PNGs for the view each message shows, so the figure is the adapter's.
"""
from __future__ import annotations

from typing import Awaitable, Callable

from bot.sessions.live import GAME_POST_KINDS, LiveBoard, facts_of, plan, posted
from bot.sessions.posting import GamePost
from bot.store import StoreBackend

# (the post a new message shows, whether it is the final one) -> bytes of its pictures
Pictures = Callable[[GamePost, bool], Awaitable[int]]


class DeliveryTally:
    def __init__(self, store: StoreBackend, pictures: Pictures) -> None:
        self.store = store
        self.pictures = pictures
        self.new = 0
        self.edited = 0
        self.image_bytes = 0
        self._live: dict[int, LiveBoard] = {}

    def lobby(self, changes: int) -> None:
        """The lobby: one message, edited in place for each join, bot and the start."""
        self.new += 1
        self.edited += changes

    async def deliver(self, game_id: int) -> None:
        """Deliver everything due now for the game, as the dispatcher would at this moment."""
        pending = [r for r in await self.store.outbox_rows(game_id) if r.delivered_at is None and not r.dead]
        while pending:
            row = pending.pop(0)
            if row.kind not in GAME_POST_KINDS:
                self.new += 1  # a notice or a reminder: its own message, no picture
                await self.store.mark_delivered(row.id)
                continue
            run = [row]
            while pending and pending[0].kind in GAME_POST_KINDS:
                run.append(pending.pop(0))
            live = self._live.get(game_id, LiveBoard())
            posts = [GamePost.model_validate(r.payload) for r in run]
            step, after = plan(live, [facts_of(r.id, p) for r, p in zip(run, posts)])
            if step.action == "new":
                self.new += 1
                self.edited += step.strip_message_id is not None
                self.image_bytes += await self.pictures(posts[-1], step.final)
                after = posted(after, f"m{run[-1].id}")
            else:
                self.edited += 1
            self._live[game_id] = after
            for r in run:
                await self.store.mark_delivered(r.id)

    def line(self) -> str:
        return f"messages: {self.new} new, {self.edited} edited, images {self.image_bytes / 1e6:.1f} MB"
