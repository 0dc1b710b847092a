"""The outbox as the Discord dispatcher sees it: what to deliver, what went out, what to give up.

The adapter delivers what the sessions service wrote; this is its only way to the rows, so
data flows one way (Discord adapter → sessions → store). Each method is one short
transaction; the ones that record a step's outcome write everything about it at once (the
parts sent and the failure; the live board and every row the step delivered).

Several bot processes may deliver from one database. Each `Deliveries` has an owner id
(`owner`: host, pid and a random part, one per process since the bot builds one service)
under which it claims the rows it delivers (`claim`, with a lease it renews while a delivery
runs). Everything that records a row's outcome first checks that no other process holds the
row now, and raises ClaimLost (writing nothing) if one does: this process's lease ran out
and the row was taken over, so the outcome is the other process's to record.
"""
from __future__ import annotations

import os
import secrets
import socket
from typing import Any, Callable, Iterable, Sequence

from bot.sessions.live import GAME_POST_KINDS, LiveBoard, PostFacts, facts_of, skipped
from bot.sessions.posting import GamePost
from bot.store import CLAIM_LEASE, ClaimLost, DeliveryContact, OutboxPart, OutboxRow, StoreBackend, retries_conflicts

SentPart = tuple[str, str, "str | None"]  # (part, outcome, message id)

# Takeovers in a row after which an outbox row or a timer is given up instead of handled
# once more: each of its last holders died (or stalled past its lease) before recording any
# outcome, so handling it is likely what kills them, and the next process would go the same
# way. Three, because one killed process (a restart, a deploy) is ordinary and a second in a
# row on the same row is still possible by chance.
TAKEOVER_LIMIT = 3


def notice_payload(contact: DeliveryContact, problem: str, *, channel_id: str | None = None,
                   permissions: Sequence[str] = ()) -> dict[str, Any]:
    """The payload of a 'notice' row telling a game's host about `problem` (a post that could
    not be delivered, a deadline that could not be applied, ...: the Discord adapter's
    discord.delivery.<problem> message), in the channel (`channel_id`, the game's by default)
    or by DM."""
    return {
        "problem": problem, "game_id": contact.game_id, "game": contact.game,
        "guild_id": contact.guild_id, "channel_id": channel_id or contact.channel_id,
        "host_user_id": contact.host_user_id, "locale": contact.locale, "permissions": list(permissions),
        "delivery": contact.delivery,
    }


def new_owner() -> str:
    """An owner id for claims: which machine and process hold a row (for a person reading
    the database), and a random part, so a restarted process with a recycled pid is
    never taken for the one that died."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Deliveries:
    def __init__(self, store: StoreBackend, clock: Callable[[], float], *, owner: str | None = None,
                 lease: float = CLAIM_LEASE) -> None:
        self.store = store
        self.clock = clock
        self.owner = owner or new_owner()
        # the lease for callers that name none (RAILYARD_LEASE_SECONDS is the bot's)
        self.lease = lease

    # ------------------------------------------------------------------ reading
    async def due(self) -> list[OutboxRow]:
        """What is due now, held by anyone or not (a look; delivering takes `claim`)."""
        return await self.store.due_outbox(self.clock())

    async def claim(self, lease: float | None = None, limit: int = 50) -> list[OutboxRow]:
        """Take up to `limit` due rows for this process until now + lease (see
        StoreTx.claim_outbox): no other process delivers them while the lease runs."""
        return await self.store.claim_outbox(self.owner, self.clock(), lease or self.lease, limit)

    async def renew(self, row_ids: Iterable[int], lease: float | None = None) -> set[int]:
        """Extend the leases on rows being delivered; returns the ids another process took
        over meanwhile (this one's lease ran out first), whose deliveries must stop."""
        return set(await self.store.renew_claims(self.owner, row_ids, self.clock(), lease or self.lease))

    async def release(self, row_ids: Iterable[int], *, interrupted: str | None = None) -> int:
        """Give rows back unfinished (claimed but not started, or cut short: `interrupted`
        says why, and counts as an attempt)."""
        return await self.store.release_claims(self.owner, row_ids, interrupted=interrupted)

    async def pending_after(self, game_id: int, row_id: int) -> list[OutboxRow]:
        return await self.store.pending_posts_after(game_id, row_id)

    async def parts(self, row_id: int) -> dict[str, OutboxPart]:
        return await self.store.outbox_parts(row_id)

    async def live_board(self, game_id: int) -> str | None:
        return await self.store.live_board(game_id)

    async def contact(self, game_id: int) -> DeliveryContact | None:
        return await self.store.delivery_contact(game_id)

    # ------------------------------------------------------------------ recording
    @retries_conflicts
    async def record_parts(self, row_id: int, parts: Sequence[SentPart]) -> None:
        """Parts of a row sent so far, before the next one goes (a retry skips them). Also
        the check, before each further part, that the row is still this process's."""
        async with self.store.write() as tx:
            await tx.require_claim(row_id, self.owner)
            await self._record(tx, row_id, parts)

    async def delivered(self, row_id: int) -> None:
        await self.store.mark_delivered(row_id, self.clock(), self.owner)

    @retries_conflicts
    async def retry_later(self, row_id: int, parts: Sequence[SentPart], error: str,
                          retry_after: float | None) -> None:
        async with self.store.write() as tx:
            await tx.require_claim(row_id, self.owner)  # also locks the row till the end
            await self._record(tx, row_id, parts)
            await tx.mark_failed(row_id, error, self.clock(), retry_after=retry_after)

    @retries_conflicts
    async def give_up(self, row_id: int, parts: Sequence[SentPart], error: str, *,
                      notice: tuple[int, str, dict[str, Any]] | None, notice_every: float) -> None:
        """The row is given up; a game post's live board forgets who it waited on (live.py:
        `skipped`), in the same write, so the game's next post pings whoever it newly waits on."""
        async with self.store.write() as tx:
            await tx.require_claim(row_id, self.owner)  # also locks the row till the end
            await self._record(tx, row_id, parts)
            await self._skip_on_live_board(tx, row_id)
            await tx.give_up(row_id, error, self.clock(), notice=notice, notice_every=notice_every)

    @retries_conflicts
    async def channel_deleted(self, row_id: int, parts: Sequence[SentPart], error: str, *,
                              notice: tuple[int, str, dict[str, Any]] | None, notice_every: float) -> bool:
        """Discord says the channel of the row's game was deleted (Unknown Channel, checked
        by the caller). A game still open there can never be played again: it is abandoned
        (under its version guard, so a move committed meanwhile is either before it or
        refused), its timers and standing orders go, every post of it still to deliver is
        given up, and `notice` (problem "deleted": the host is told, by DM) is queued, all in
        one write. A game already closed only has this row given up, the host told the
        channel is gone. Once: a row that is no longer pending (finished meanwhile, by
        another process) changes nothing. Returns whether the game was abandoned now."""
        async with self.store.write() as tx:
            await tx.require_claim(row_id, self.owner)  # also locks the row till the end
            row = await tx.get_outbox(row_id)
            if row is None or row.delivered_at is not None or row.dead:
                return False
            await self._record(tx, row_id, parts)
            now = self.clock()
            game = await tx.get_game(row.game_id) if row.game_id is not None else None
            if game is None or not game.is_open:
                gone = (notice[0], "gone", {**notice[2], "problem": "gone"}) if notice is not None else None
                await tx.give_up(row_id, error, now, notice=gone, notice_every=notice_every)
                return False
            await tx.update_game(game.id, game.version, now, status="abandoned")
            await tx.delete_timers(game.id)
            await tx.clear_standing_orders(game.id)
            await tx.mark_failed(row_id, error, now, permanent=True)
            await tx.give_up_pending(game.id, f"not delivered: the game's channel was deleted ({error})", now)
            if notice is not None:
                await tx.queue_notice(*notice, now, notice_every=notice_every)
            return True

    @retries_conflicts
    async def finish_step(self, game_id: int, live_board_json: str, row_ids: Sequence[int]) -> None:
        """A live-board step went out: its board and every row it delivered, in one write.
        The first row is the one this process claimed (the others come after it and nobody
        can claim them while it is pending): if another process holds it now, nothing is
        written (ClaimLost). A step with no rows (closing an abandoned game's board) writes
        the board alone: its row is finished by `delivered`, which checks."""
        async with self.store.write() as tx:
            if row_ids:
                await tx.require_claim(row_ids[0], self.owner)
            await tx.set_live_board(game_id, live_board_json, self.clock())
            for row_id in row_ids:
                await tx.mark_delivered(row_id, self.clock(), self.owner)

    async def queue_notice(self, game_id: int, problem: str, payload: dict[str, Any], *,
                           notice_every: float) -> None:
        await self.store.queue_notice(game_id, problem, payload, self.clock(), notice_every=notice_every)

    async def prune(self, keep_delivered: float | None = None) -> int:
        """One batch of finished rows past their keep time (`keep_delivered` seconds for a
        delivered row, RAILYARD_OUTBOX_KEEP_HOURS; the store's default without it)."""
        if keep_delivered is None:
            return await self.store.prune_outbox(self.clock())
        return await self.store.prune_outbox(self.clock(), keep_delivered=keep_delivered)

    async def _skip_on_live_board(self, tx: Any, row_id: int) -> None:
        row = await tx.get_outbox(row_id)
        if row is None or row.game_id is None or row.kind not in GAME_POST_KINDS or row.dead:
            return
        stored = await tx.live_board(row.game_id)
        if stored is None:  # no live message yet: the next step is a new one, pinging all it waits on
            return
        try:
            live = LiveBoard.model_validate_json(stored)
        except ValueError:  # unreadable: the composer starts a new board anyway
            return
        try:
            facts: PostFacts | None = facts_of(row.id, GamePost.model_validate_json(row.payload_json))
        except ValueError:  # a junk row (pydantic's error is a ValueError): it may have waited on anyone
            facts = None
        await tx.set_live_board(row.game_id, skipped(live, facts).model_dump_json(), self.clock())

    async def _record(self, tx: Any, row_id: int, parts: Sequence[SentPart]) -> None:
        now = self.clock()
        for part, outcome, message_id in parts:
            await tx.record_part(row_id, part, outcome, now, message_id)


__all__ = ["CLAIM_LEASE", "ClaimLost", "Deliveries", "DeliveryContact", "OutboxPart", "OutboxRow", "SentPart",
           "TAKEOVER_LIMIT", "new_owner", "notice_payload"]
