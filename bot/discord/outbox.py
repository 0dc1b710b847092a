"""The outbox dispatcher: the only way a game's public posts reach Discord.

Every committed change (start, move, undo, kick, abandon) and every reminder is written by
the sessions service as an outbox row in the same transaction as the change. This task
delivers due rows — the oldest undelivered row of each game, so one game's posts keep their
order — and marks them delivered. A failure is recorded with `mark_failed` and retried with
back-off (rate limits use Discord's retry_after), so a post is never lost:

* 429 longer than discord.py's max_ratelimit_timeout (RateLimited), 5xx after discord.py's
  own retries, network errors, timeouts, 403 (permissions may be fixed) → retried later;
* 404 (the channel or thread was deleted) and 400 (a payload Discord refuses; a bug, logged)
  → given up (`permanent`), so they cannot hold the game's later posts back forever.

Duplicates: interaction replies never show a public post (they only say "done" privately),
so each post has exactly one sender, this task; rows are delivered one at a time per game
under one lock; and each channel post carries a nonce derived from the row id with
`enforce_nonce`, so Discord itself drops a repeat of a post whose success we never heard
about (a timeout after Discord created it).

Pings: a turn post mentions the users the game now waits on, but only notifies those who
were not already waited on by the game's previous post (the second card of a turn, or
another player's part of a simultaneous choice, do not ping again); `allowed_mentions`
never allows @everyone or roles.

Reminders: a user who opted in gets a DM; if their DMs are closed (403, code 50007) they are
mentioned in the game's channel instead, with everyone else the game waits on.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.discord.posts import game_post, jump_url, mentions
from bot.discord.replies import Reply
from bot.discord.text import CONTENT_MAX, clip, event_text, join_lines, t
from bot.discord.ui import base as ui_base
from bot.store import OutboxRow

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

log = logging.getLogger("railyard.discord.outbox")

GAME_POST_KINDS = ("start", "move", "undo", "kick")
DM_CLOSED = 50007


class OutboxDispatcher:
    def __init__(self, bot: "RailyardBot", *, poll_seconds: float = 5.0, concurrency: int = 4) -> None:
        self.bot = bot
        self.poll_seconds = poll_seconds
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._limit = asyncio.Semaphore(concurrency)
        self._task: asyncio.Task[None] | None = None
        # parts of a reminder already sent (DMs), so a retry of the row does not repeat them
        self._done_parts: dict[int, set[str]] = {}
        # per game, the users the last delivered post was waiting on: a post notifies only
        # users who were not already being waited on (the second card of a turn, another
        # player's simultaneous choice do not ping again); after a restart everyone is pinged
        self._waiting: dict[int, set[str]] = {}
        self.delivered = 0

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="railyard-outbox")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.flush()
            except Exception:  # noqa: BLE001 - the dispatcher must outlive any one failure
                log.exception("outbox round failed")
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll_seconds)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()

    # ------------------------------------------------------------------ delivery
    async def flush(self) -> int:
        """Deliver everything due now (row after row of each game); return how many."""
        total = 0
        async with self._lock:
            while True:
                rows = await self.bot.store.due_outbox(self.bot.clock())
                if not rows:
                    break
                results = await asyncio.gather(*(self._deliver_one(row) for row in rows))
                delivered = sum(results)
                total += delivered
                if delivered == 0:
                    break  # every due row failed: wait for its back-off
        return total

    async def _deliver_one(self, row: OutboxRow) -> bool:
        async with self._limit:
            store, now = self.bot.store, self.bot.clock
            try:
                await self.deliver(row)
            except discord.RateLimited as exc:
                log.warning("outbox #%s: rate limited for %.1f s; retrying later", row.id, exc.retry_after)
                await store.mark_failed(row.id, f"rate limited ({exc.retry_after:.1f} s)", now(),
                                        retry_after=exc.retry_after)
            except discord.NotFound as exc:
                log.error("outbox #%s (game %s): channel gone (%s); giving up", row.id, row.game_id, exc)
                await store.mark_failed(row.id, f"not found: {exc}", now(), permanent=True)
            except discord.Forbidden as exc:
                log.warning("outbox #%s (game %s): forbidden (%s); retrying later", row.id, row.game_id, exc)
                await store.mark_failed(row.id, f"forbidden: {exc}", now())
            except discord.DiscordServerError as exc:
                log.warning("outbox #%s: Discord server error %s; retrying later", row.id, exc.status)
                await store.mark_failed(row.id, f"server error {exc.status}", now())
            except discord.HTTPException as exc:
                if exc.status == 429:
                    await store.mark_failed(row.id, "rate limited", now(), retry_after=30.0)
                else:
                    log.error("outbox #%s (game %s): Discord refused the post (%s %s); giving up",
                              row.id, row.game_id, exc.status, exc.text)
                    await store.mark_failed(row.id, f"refused {exc.status}: {exc.text}", now(), permanent=True)
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
                log.warning("outbox #%s: network error %r; retrying later", row.id, exc)
                await store.mark_failed(row.id, f"network: {exc!r}", now())
            except Exception as exc:  # noqa: BLE001 - a bug: keep the post, retry with back-off
                log.exception("outbox #%s (game %s, %s) could not be built or sent", row.id, row.game_id, row.kind)
                await store.mark_failed(row.id, f"error: {exc!r}", now())
            else:
                await store.mark_delivered(row.id, now())
                self._done_parts.pop(row.id, None)
                self.delivered += 1
                return True
            return False

    async def deliver(self, row: OutboxRow) -> None:
        payload = row.payload
        if row.kind in GAME_POST_KINDS:
            reply = await game_post(payload)
            waiting = {str(u) for u in payload.get("mention_user_ids") or []}
            before = self._waiting.get(row.game_id or 0)
            ping = waiting if before is None else waiting - before
            reply.allowed_mentions = discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False,
                users=[discord.Object(int(u)) for u in sorted(ping) if u.isdigit()])
            await self._send(payload["channel_id"], reply, row.id)
            self._waiting[row.game_id or 0] = waiting
        elif row.kind == "abandoned":
            self._waiting.pop(row.game_id or 0, None)
            lang = payload.get("locale") or "en"
            names = payload.get("names") or []
            lines = ["🛑 " + event_text(lang, e, names) for e in payload.get("events") or []]
            await self._send(payload["channel_id"], Reply(content=join_lines(lines, CONTENT_MAX)), row.id)
        elif row.kind == "reminder":
            await self._remind(row.id, payload)
        else:
            log.warning("outbox #%s: unknown kind %r, dropped", row.id, row.kind)

    async def _send(self, channel_id: str, reply: Reply, outbox_id: int, part: str = "post") -> None:
        channel = self.bot.get_partial_messageable(int(channel_id))
        kwargs = reply.new_kwargs()
        await channel.send(nonce=f"ry{outbox_id}{part[:1]}", **kwargs)

    async def _remind(self, outbox_id: int, payload: dict[str, Any]) -> None:
        lang = payload.get("locale") or "en"
        names = payload.get("names") or []
        done = self._done_parts.setdefault(outbox_id, set())
        text = " ".join(event_text(lang, e, names) for e in payload.get("events") or [])
        title = ui_base.get(payload["game"]).title(lang)
        dm_users = [str(u) for u in payload.get("dm_user_ids") or []]
        channel_users = [str(u) for u in payload.get("mention_user_ids") or [] if str(u) not in dm_users]
        for user_id in dm_users:
            if f"dm:{user_id}" in done:
                continue
            body = "⏰ " + t(lang, "discord.reminder.dm", game=title, text=text,
                             link=jump_url(payload.get("guild_id"), payload["channel_id"]))
            try:
                dm = await self.bot.create_dm(discord.Object(int(user_id)))
                await dm.send(clip(body, CONTENT_MAX))
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                log.info("reminder for game %s: DMs of user %s are closed; mentioning in the channel",
                         payload["game_id"], user_id)
                channel_users.append(user_id)
            else:
                done.add(f"dm:{user_id}")
        if channel_users:
            content = f"⏰ {mentions(channel_users)} {text}"
            await self._send(payload["channel_id"], Reply(content=clip(content, CONTENT_MAX)), outbox_id, "r")
