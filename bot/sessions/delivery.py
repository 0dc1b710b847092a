"""The outbox as the Discord dispatcher sees it: what is due, what went out, what to give up.

The adapter delivers what the sessions service wrote; this is its only way to the rows, so
data flows one way (Discord adapter → sessions → store). Each method is one short
transaction; the ones that record a step's outcome write everything about it at once (the
parts sent and the failure; the live board and every row the step delivered).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from bot.store import DeliveryContact, OutboxPart, OutboxRow, Store

SentPart = tuple[str, str, "str | None"]  # (part, outcome, message id)


class Deliveries:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    # ------------------------------------------------------------------ reading
    async def due(self) -> list[OutboxRow]:
        return await self.store.due_outbox(self.clock())

    async def pending_after(self, game_id: int, row_id: int) -> list[OutboxRow]:
        return await self.store.pending_posts_after(game_id, row_id)

    async def parts(self, row_id: int) -> dict[str, OutboxPart]:
        return await self.store.outbox_parts(row_id)

    async def live_board(self, game_id: int) -> str | None:
        return await self.store.live_board(game_id)

    async def contact(self, game_id: int) -> DeliveryContact | None:
        return await self.store.delivery_contact(game_id)

    # ------------------------------------------------------------------ recording
    async def record_parts(self, row_id: int, parts: Sequence[SentPart]) -> None:
        """Parts of a row sent so far, before the next one goes (a retry skips them)."""
        async with self.store.write() as tx:
            await self._record(tx, row_id, parts)

    async def delivered(self, row_id: int) -> None:
        await self.store.mark_delivered(row_id, self.clock())

    async def retry_later(self, row_id: int, parts: Sequence[SentPart], error: str,
                          retry_after: float | None) -> None:
        async with self.store.write() as tx:
            await self._record(tx, row_id, parts)
            await tx.mark_failed(row_id, error, self.clock(), retry_after=retry_after)

    async def give_up(self, row_id: int, parts: Sequence[SentPart], error: str, *,
                      notice: tuple[int, str, dict[str, Any]] | None, notice_every: float) -> None:
        async with self.store.write() as tx:
            await self._record(tx, row_id, parts)
            await tx.give_up(row_id, error, self.clock(), notice=notice, notice_every=notice_every)

    async def finish_step(self, game_id: int, live_board_json: str, row_ids: Sequence[int]) -> None:
        """A live-board step went out: its board and every row it delivered, in one write."""
        async with self.store.write() as tx:
            await tx.set_live_board(game_id, live_board_json, self.clock())
            for row_id in row_ids:
                await tx.mark_delivered(row_id, self.clock())

    async def queue_notice(self, game_id: int, problem: str, payload: dict[str, Any], *,
                           notice_every: float) -> None:
        await self.store.queue_notice(game_id, problem, payload, self.clock(), notice_every=notice_every)

    async def prune(self) -> int:
        return await self.store.prune_outbox(self.clock())

    async def _record(self, tx: Any, row_id: int, parts: Sequence[SentPart]) -> None:
        now = self.clock()
        for part, outcome, message_id in parts:
            await tx.record_part(row_id, part, outcome, now, message_id)


__all__ = ["Deliveries", "DeliveryContact", "OutboxPart", "OutboxRow", "SentPart"]
