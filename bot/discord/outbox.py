"""The outbox dispatcher: how posts reach Discord — delivering, retrying, giving up.

Every committed change (start, move, undo, kick, abandon) and every reminder is written by
the sessions service as an outbox row in the same transaction as the change. This task
delivers due rows — the oldest undelivered row of each game, so one game's posts keep their
order — and marks them delivered.

What a row *says* is not decided here: `bot.discord.outbox_messages` turns a row into the
messages to send and hands each one, as a named part, to a `Courier`. This module only knows
rows, parts, targets (a channel, a user's DMs) and `Reply` objects, never a payload's shape,
so the payload dicts can become a typed post model, and new posts can become edits of a live
message, without touching how delivery, retries and giving up work.

Failures (see `classify` and `RetryPolicy`):

* transient — 429 longer than discord.py's max_ratelimit_timeout (RateLimited), 5xx after
  discord.py's own retries, network errors, timeouts: retried with back-off (rate limits
  use Discord's retry_after) for about a day, since Discord being down is no reason to
  drop a game's posts;
* forbidden (403: the bot lacks a permission in the channel, or cannot see it at all:
  50001), gone (another 404), refused (another 4xx: a payload Discord will never accept;
  an archived thread that is also locked), broken (the post cannot even be built: a
  rendering bug, a junk payload, an unknown kind): these will not fix themselves, so a few
  attempts at most;
* deleted (404 Unknown Channel, 10003: the channel or thread was deleted, or the channel a
  thread was in). Asked again (GET /channels/{id}), Discord confirms the game's channel is
  gone: a game still open there is abandoned, its timers, standing orders and every post
  still to deliver with it, and its host told by DM (`Deliveries.channel_deleted`, one write
  under the game's version guard, once however many processes meet it). An archived thread
  is no deleted one: a new message unarchives it (only edits are refused there, and the live
  board then posts anew, see outbox_messages), and a channel the bot may no longer see is
  forbidden, not deleted.

A row that runs out of attempts is marked dead, so the game's later posts go through
instead of waiting behind it forever, and the game's host is told what is wrong, in their
language, in the channel or by DM (`delivery_notices` keeps that to once a day per game and
problem). Nothing is dropped silently: every row ends delivered, or dead with its error
logged, kept, and reported to the host.

Degrading instead of failing: a 413 (file too large) is re-sent with smaller images, then
without them; a 403 on a post with files (Attach Files missing) is re-sent without the files
and the host is told. The post itself, with its text and buttons, still goes out.

Duplicates: interaction replies never show a public post (they only say "done" privately),
so each post has exactly one sender, this task - in one process or in several on one
database. Four things together make every part of a row go out once:

* claims: a dispatcher delivers only rows it has claimed (`Deliveries.claim`: the oldest due
  row of each game, marked with this process's owner id and a lease of
  RAILYARD_LEASE_SECONDS). No other process takes a row while its lease runs, and the
  holder renews the leases of its running deliveries every third of a lease, so a long
  delivery (a final post drawing its timelapse) keeps its rows. A game's later rows are
  never claimed while an earlier one is pending, so one game's posts keep their order
  across processes. Recording a part or an outcome checks the claim first: a process whose
  lease ran out and whose row was taken over records nothing (ClaimLost), stops, and says
  so in its log; a renewal that finds a row taken over cancels that delivery.
* parts: the parts of a row that went out are stored (`outbox_parts`) before the next part
  goes, so neither a retry nor a takeover sends a reminder's DM twice.
* finding: a row tried before (a failure, a holder that died) may be out in part although
  nothing stored says so; before sending one of its parts the courier looks for that
  message among the channel's recent messages (`Courier.find`), and takes one it finds as
  sent;
* nonces: every message carries a nonce derived from the row and the part, with
  `enforce_nonce`, so Discord itself drops a repeat of a message whose success we never
  heard about, for the few minutes it remembers a nonce (it keeps none with the message:
  a message cannot be found again by its nonce).

A process killed with SIGKILL mid-delivery leaves its rows claimed; its leases run out
(nobody renews them), another process claims the rows, counts the interrupted attempt (the
composer then delivers such a row on its own) and delivers them. A part the dead process
had sent but not stored yet is found in the channel (or, if the channel cannot be read,
sent again with the same nonce, and Discord answers with the message it already made):
nothing is lost, nothing shows twice. A clean stop (SIGTERM) gives its unfinished rows back
at once instead of leaving them to the lease. A row taken over three times in a row with no
outcome recorded in between is likely what kills its holders: the next process draws and
sends nothing for it, delivers it if its message is found out already, and otherwise gives
it up as broken and tells the host. A game's final post is lighter for each holder lost
instead (without its timelapse, then without images: `RetryPolicy`), so its result is
published.

Finished rows are pruned (`Store.prune_outbox`): a delivered row is kept a day, a dead one
a week, so the outbox stays the size of what is in flight, not of every post ever made.
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import hashlib
import io
import logging
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

import aiohttp
import discord
from PIL import Image, UnidentifiedImageError

from bot.discord.host import Host
from bot.discord.replies import Reply
from bot.sessions.delivery import TAKEOVER_LIMIT, ClaimLost, OutboxPart, OutboxRow, notice_payload
from render import pool as render_pool
from render.kit.encode import shrink_files


log = logging.getLogger("railyard.discord.outbox")

DM_CLOSED = 50007
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
THREAD_ARCHIVED = 50083
DISCORD_EPOCH = 1420070400.0  # Unix seconds of Discord's first snowflake
# What a post needs in a channel; in a thread, send_messages_in_threads stands in for
# send_messages. Listed in this order in the host's notice.
POST_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")

# What a row's outcome was, for the flush loop (LOST: another process took the row over).
DELIVERED, RETRY, DEAD, LOST = "delivered", "retry", "dead", "lost"


# ==================================================================================
# failures and the policy for them
# ==================================================================================
@dataclass(frozen=True)
class Failure:
    """Why a delivery attempt failed. `problem` is transient / forbidden / gone / refused /
    broken (see the module docstring); `error` goes to the row's last_error."""

    problem: str
    error: str
    retry_after: float | None = None


def classify(exc: BaseException) -> Failure:
    if isinstance(exc, discord.RateLimited):
        return Failure("transient", f"rate limited ({exc.retry_after:.1f} s)", exc.retry_after)
    if isinstance(exc, discord.Forbidden):
        return Failure("forbidden", f"forbidden {exc.code}: {exc.text}"[:500])
    if isinstance(exc, discord.NotFound):
        problem = "deleted" if exc.code == UNKNOWN_CHANNEL else "gone"
        return Failure(problem, f"not found {exc.code}: {exc.text}"[:500])
    if isinstance(exc, discord.DiscordServerError):
        return Failure("transient", f"server error {exc.status}")
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429:
            return Failure("transient", "rate limited", 30.0)
        return Failure("refused", f"refused {exc.status} {exc.code}: {exc.text}"[:500])
    if isinstance(exc, (aiohttp.ClientError, OSError, asyncio.TimeoutError)):
        return Failure("transient", f"network: {exc!r}"[:500])
    return Failure("broken", f"error: {exc!r}"[:500])


@dataclass(frozen=True)
class RetryPolicy:
    """How many attempts a row gets, by the problem of its latest failure.

    Transient: 100 attempts, about a day with the store's back-off (5 s doubling to 15 min).
    Forbidden: 4 (about 35 s), in case the permission was being changed just then. Gone and
    refused are final at once. Broken: 2, in case the error was passing (memory, a thread).

    A row whose holder's lease ran out `takeovers` times in a row (each holder died or
    stalled before it could record any outcome) is given up as broken: a post that kills
    whoever draws or sends it would otherwise take every process down in turn, forever.
    Three, because one killed process (a restart, a deploy) is ordinary and a second in a
    row on the same post is still possible by chance. Not blindly, though: the holders may
    have sent it before dying, so its last holder draws and sends nothing but looks for what
    is out (Courier.only_finding), and a post found out is delivered, not given up. A post
    with lighter forms (a game's final post: without its timelapse, then without images)
    goes out in the next lighter one for each holder lost instead, and is given up only when
    its lightest form has outlived as many holders in turn."""

    attempts: Mapping[str, int] = field(default_factory=lambda: {
        "transient": 100, "forbidden": 4, "gone": 1, "deleted": 1, "refused": 1, "broken": 2,
    })
    takeovers: int = TAKEOVER_LIMIT
    # a host is told about one game's problem at most this often
    notice_every: float = 24 * 3600.0

    def gives_up(self, failure: Failure, attempts: int) -> bool:
        return attempts >= self.attempts.get(failure.problem, 1)

    def outlived_its_holders(self, row: OutboxRow) -> Failure | None:
        """The failure to give `row` up for, if it was taken over too often (see above)."""
        if row.takeovers < self.takeovers:
            return None
        return Failure("broken", f"its delivery outlived {row.takeovers} processes in a row"
                                 f" (each one's lease ran out mid-delivery); last: {row.last_error}")


# what the host is told about, by failure problem (see outbox_messages: discord.delivery.*)
NOTICE_FOR = {
    "forbidden": "permissions",
    "gone": "gone",
    "deleted": "gone",  # a game already closed when its channel went (one still open is abandoned)
    "refused": "broken",
    "broken": "broken",
    "transient": "unreachable",
}


class Composer(Protocol):
    """What to send for a row: calls the courier once per part (see outbox_messages)."""

    async def compose(self, row: OutboxRow, out: "Courier") -> None: ...


# ==================================================================================
# one row's delivery
# ==================================================================================
@dataclass(frozen=True)
class Channel:
    channel_id: str


@dataclass(frozen=True)
class DirectMessage:
    user_id: str


Target = Channel | DirectMessage


class NotOut(Exception):
    """A row that outlived its holders may only find what is out already, and this part is not."""


# How a sent message is found again. Discord keeps no nonce with a message (only the answer
# to the post carries it), so a message is known by its words: its text and its first
# embed's title, description and footer (which name the game, and the board's version), as
# the bot wrote them; files do not count (a lighter form has fewer). Only the bot's own
# messages since the row was written are read (LOOK_SLACK: clocks apart), at most LOOK_BACK.
LOOK_BACK = 100
LOOK_SLACK = 60.0


def words(content: str | None, embeds: Sequence[discord.Embed]) -> tuple[str, tuple[str, str, str] | None]:
    """What tells one message from another (see LOOK_BACK)."""
    first = embeds[0] if embeds else None
    head = None if first is None else ((first.title or "").strip(), (first.description or "").strip(),
                                       (first.footer.text or "").strip())
    return (content or "").strip(), head


class Courier:
    """Sends the parts of one outbox row.

    A part is named by the composer ("post", "dm:<user>", ...), the same name every time the
    row is tried. Each part goes out at most once: parts already sent (or found impossible,
    like a DM to closed DMs) by an earlier attempt or an earlier process are skipped, and
    every message carries the nonce `nonce(part)`, the same on every attempt.

    A row tried before may be out in part although nothing says so: its holder sent a
    message and died (or its answer was lost) before storing it. Before sending a part of
    such a row the courier looks for the message among the channel's recent messages
    (`find`; Discord drops a repeated nonce only for a few minutes, and a row taken over
    several times is older than that), and takes the one it finds as sent. Without Read
    Message History the channel shows no messages, and the nonce is all there is.

    A row whose holders died mid-delivery again and again (`takeovers`, see RetryPolicy) is
    likely what kills them: its composer sends a lighter form for each holder lost (`form`),
    and once even its lightest form has outlived the limit nothing is drawn or sent any more;
    the courier only finds what is out, and raises NotOut for the rest, so that the row is
    given up then, not before."""

    def __init__(self, bot: Host, row: OutboxRow, done: Mapping[str, OutboxPart], *, takeovers: int = 3) -> None:
        self._bot = bot
        self.row = row
        self._done = dict(done)
        self._takeovers = takeovers  # the holders a form may outlive (RetryPolicy.takeovers)
        self._lighter = 0  # the lighter forms the composer has for this row (see form)
        self._looked: set[str] = set()  # parts already looked for in their channel
        # Parts sent but not yet stored: stored when the next part starts (so neither a
        # retry nor a restart repeats the first) or with the row's failure; a row that is
        # delivered needs no record of its parts at all, which spares single-post rows a
        # write. The moment between a send and its record (or a shutdown that cancels the
        # row mid-way) is covered by the nonce: Discord drops the repeat.
        self._unsaved: list[tuple[str, str, str | None]] = []
        # (problem, channel_id): a part went out in a lesser form the host should hear about
        self.degraded: list[tuple[str, str]] = []
        # a message went out without the files it had (too large, or Attach Files missing)
        self.files_dropped = False

    # ------------------------------------------------------------------ naming
    def nonce(self, part: str) -> str:
        """Stable per row and part; ≤ 25 characters, as Discord requires."""
        digest = hashlib.sha1(part.encode("utf-8")).hexdigest()[:6]
        return f"ry{self.row.id}.{digest}"

    # ------------------------------------------------------------------ forms, finding
    @property
    def tried(self) -> bool:
        """Was the row tried before (a failure, a holder that died, a stop)? Then any of its
        parts may be out although none is stored."""
        return self.row.attempts > 0

    @property
    def only_finding(self) -> bool:
        """Has the row outlived as many holders as even its lightest form may? Then nothing
        is drawn or sent for it any more: what is out is found, the rest is NotOut."""
        return self.row.takeovers >= self._takeovers + self._lighter

    def form(self, lighter: int = 0) -> int:
        """Which form of a message to draw and send, for a post that has `lighter` lighter
        forms than its full one (0): one lighter for each holder of the row that died
        mid-delivery in a row, down to the lightest, which gets the same number of holders as
        a post with no lighter form. NotOut once even that one has outlived them."""
        self._lighter = max(self._lighter, lighter)
        if self.only_finding:
            raise NotOut(f"a lighter form than {lighter} was outlived too")
        return min(self.row.takeovers, lighter)

    async def find(self, part: str, target: Target, reply: Reply) -> discord.Message | None:
        """The message of `part` if a tried row's part is out already though not stored (see
        the class docstring): `reply` is what the part says (its words are compared, its
        files are not), and a message found is stored as the part's. None if the part is
        stored already (see `message_id`), or was not found."""
        if part in self._done:
            return None
        message = await self._sent_before(await self._messageable(target), part, reply)
        if message is not None:
            self._finish(part, "sent", message)
        return message

    async def _sent_before(self, where: discord.abc.Messageable, part: str, reply: Reply) -> discord.Message | None:
        """The bot's message in `where` since the row was written that says what `reply`
        says, if the row was tried before (looked for once per part)."""
        if not self.tried or part in self._looked:
            return None
        self._looked.add(part)
        me = self._bot.user
        wanted = words(reply.content, reply.embeds)
        since = datetime.datetime.fromtimestamp(max(self.row.created_at - LOOK_SLACK, DISCORD_EPOCH),
                                                tz=datetime.timezone.utc)
        try:
            async for message in where.history(limit=LOOK_BACK, after=since, oldest_first=True):
                if (me is not None and message.author.id == me.id and message.webhook_id is None
                        and words(message.content, message.embeds) == wanted):
                    log.info("outbox #%s: its %s is out already (message %s)", self.row.id, part, message.id)
                    return message
        except discord.Forbidden as exc:  # not even View Channel: the send will say so
            log.info("outbox #%s: cannot read the history of %s (%s)", self.row.id, where, exc.code)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                raise
        return None

    # ------------------------------------------------------------------ parts
    async def post(self, part: str, channel_id: str, reply: Reply) -> None:
        """A message in a channel or thread."""
        if part in self._done:
            return
        await self._begin()
        message = await self._send(Channel(str(channel_id)), part, reply)
        self._finish(part, "sent", message)

    async def note(self, part: str, outcome: str) -> None:
        """Store a fact about this attempt before anything is sent (e.g. which rows a post
        folds in), so a retry or another process taking the row over does the same."""
        if part in self._done:
            return
        self._finish(part, outcome, None)
        await self._begin()

    def noted(self, part: str) -> str | None:
        """What an earlier attempt (or this one) stored for `part`."""
        done = self._done.get(part)
        return done.outcome if done is not None else None

    def message_id(self, part: str) -> str | None:
        """The message a part made, if it was sent (by this attempt or an earlier one)."""
        done = self._done.get(part)
        return done.message_id if done is not None else None

    async def edit(self, part: str, channel_id: str, message_id: str, reply: Reply | None) -> None:
        """Edit a message the bot posted earlier (the live board): its words, embeds and
        buttons become the reply's, its attachments (the board picture) stay. With no reply,
        only the buttons are taken off. A deleted message raises discord.NotFound for the
        caller to handle."""
        if part in self._done:
            return
        await self._begin()
        message = self._bot.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
        kwargs = reply.edit_words_kwargs() if reply is not None else {"view": None}
        edited = await message.edit(**kwargs)
        self._finish(part, "edited", edited)

    async def delete(self, part: str, channel_id: str, message_id: str) -> None:
        """Delete a message the bot posted earlier (a reminder that is answered or outdated).
        Unknown Message counts as done: an earlier attempt (or another process, or a person)
        deleted it already, and it is gone as wanted. Anything else raises for the caller."""
        if part in self._done:
            return
        await self._begin()
        message = self._bot.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
        try:
            await message.delete()
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
            self._finish(part, "gone", None)
            return
        self._finish(part, "deleted", None)

    async def dm(self, part: str, user_id: str, reply: Reply) -> bool:
        """A direct message. False if the user's DMs are closed to the bot (403, usually
        50007): that outcome is kept too, so the caller's fallback is stable across retries."""
        if part in self._done:
            return self._done[part].outcome == "sent"
        await self._begin()
        try:
            message = await self._send(DirectMessage(str(user_id)), part, reply)
        except discord.Forbidden as exc:
            log.info("outbox #%s: cannot DM user %s (%s)", self.row.id, user_id, exc.code)
            self._finish(part, "closed", None)
            return False
        self._finish(part, "sent", message)
        return True

    async def first(self, part: str, routes: Sequence[tuple[Target, Reply]]) -> None:
        """The first of several ways to say one thing that works (e.g. the channel, else a
        DM). A route refused for good (403, 404) moves on to the next; anything else, or
        the last route's refusal, fails the part."""
        if part in self._done:
            return
        await self._begin()
        last: BaseException | None = None
        for target, reply in routes:
            try:
                message = await self._send(target, part, reply)
            except (discord.Forbidden, discord.NotFound) as exc:
                last = exc
                continue
            self._finish(part, f"sent:{type(target).__name__}", message)
            return
        assert last is not None, "no routes"
        raise last

    # ------------------------------------------------------------------ storing parts
    async def _begin(self) -> None:
        if self._unsaved:
            await self._bot.service.deliveries.record_parts(self.row.id, self.take_unsaved())

    def _finish(self, part: str, outcome: str, message: discord.Message | None) -> None:
        message_id = str(message.id) if message is not None else None
        self._done[part] = OutboxPart(part=part, outcome=outcome, message_id=message_id,
                                      done_at=self._bot.clock())
        self._unsaved.append((part, outcome, message_id))

    def take_unsaved(self) -> list[tuple[str, str, str | None]]:
        """The parts sent since they were last stored, for the caller to store now."""
        parts, self._unsaved = self._unsaved, []
        return parts

    # ------------------------------------------------------------------ sending
    async def _messageable(self, target: Target) -> discord.abc.Messageable:
        if isinstance(target, Channel):
            return self._bot.get_partial_messageable(int(target.channel_id))
        return await self._bot.create_dm(discord.Object(int(target.user_id)))

    async def _send(self, target: Target, part: str, reply: Reply) -> discord.Message:
        """Send `reply` (unless it is found out already, see `find`); on 413 again with
        smaller images, then without; on a 403 with files in a channel again without them
        (Attach Files may be what is missing)."""
        where = await self._messageable(target)
        found = await self._sent_before(where, part, reply)
        if found is not None:
            return found
        if self.only_finding:
            raise NotOut(f"its {part} was not found")
        nonce = self.nonce(part)
        try:
            return await where.send(nonce=nonce, **reply.new_kwargs())
        except discord.HTTPException as exc:
            if not reply.files:
                raise
            if exc.status == 413:
                still = without_animations(reply)
                if still is not None:  # the timelapse is the largest and the least needed
                    log.warning("outbox #%s: too large for Discord; sending it without its animation",
                                self.row.id)
                    try:
                        return await where.send(nonce=nonce, **still.new_kwargs())
                    except discord.HTTPException as again:
                        if again.status != 413:
                            raise
                    reply = still
                log.warning("outbox #%s: %s too large for Discord; sending smaller images",
                            self.row.id, ", ".join(n for n, _ in reply.files))
                files = await render_pool.current().call(shrink_files, reply.files, route=self.row.game_id)
                smaller = dataclasses.replace(reply, files=files)
                try:
                    return await where.send(nonce=nonce, **smaller.new_kwargs())
                except discord.HTTPException as again:
                    if again.status != 413:
                        raise
                log.warning("outbox #%s: still too large; sending it without images", self.row.id)
                self.files_dropped = True
                return await where.send(nonce=nonce, **without_files(reply).new_kwargs())
            if isinstance(exc, discord.Forbidden) and exc.code == MISSING_PERMISSIONS and isinstance(target, Channel):
                message = await where.send(nonce=nonce, **without_files(reply).new_kwargs())
                self.files_dropped = True
                log.warning("outbox #%s: channel %s refuses files; posted without them",
                            self.row.id, target.channel_id)
                self.degraded.append(("permissions", target.channel_id))
                return message
            raise


def without_files(reply: Reply) -> Reply:
    """The reply without attachments, and without the embed images that showed them."""
    embeds = []
    for embed in reply.embeds:
        copy = embed.copy()
        if (copy.image.url or "").startswith("attachment://"):
            copy.set_image(url=None)
        if (copy.thumbnail.url or "").startswith("attachment://"):
            copy.set_thumbnail(url=None)
        embeds.append(copy)
    return dataclasses.replace(reply, files=[], embeds=embeds)


def _is_animation(data: bytes) -> bool:
    try:
        with Image.open(io.BytesIO(data)) as image:
            return bool(getattr(image, "is_animated", False))
    except (UnidentifiedImageError, OSError):  # not an image at all: keep it
        return False


def without_animations(reply: Reply) -> Reply | None:
    """The reply without its animated images (a timelapse), or None if it has none."""
    kept = [(name, data) for name, data in reply.files if not _is_animation(data)]
    if len(kept) == len(reply.files):
        return None
    names = {name for name, _ in kept}
    return dataclasses.replace(reply, files=kept,
                               descriptions={n: d for n, d in reply.descriptions.items() if n in names})


def shrink_images(reply: Reply, scale: float = 0.5) -> Reply:
    """The reply with every image scaled by `scale` (a quarter of the pixels at 0.5) and
    re-encoded; anything that is not an image is kept as it is (render.kit.encode.shrink_files,
    which the courier runs in the render pool)."""
    return dataclasses.replace(reply, files=shrink_files(reply.files, scale))


# ==================================================================================
# the dispatcher
# ==================================================================================
class OutboxDispatcher:
    def __init__(self, bot: Host, composer: Composer, *, poll_seconds: float = 5.0,
                 concurrency: int = 4, policy: RetryPolicy | None = None,
                 prune_seconds: float = 600.0, lease_seconds: float | None = None) -> None:
        self.bot = bot
        self.poll_seconds = poll_seconds
        self.prune_seconds = prune_seconds
        self.policy = policy or RetryPolicy()
        self.composer = composer
        if lease_seconds is None:  # the bot's setting (RAILYARD_LEASE_SECONDS)
            lease_seconds = bot.settings.lease_seconds
        self.lease = float(lease_seconds)
        self.concurrency = concurrency
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._limit = asyncio.Semaphore(concurrency)
        self.lost = 0
        self._task: asyncio.Task[None] | None = None
        self._prune_task: asyncio.Task[None] | None = None
        self.delivered = 0
        self.given_up = 0

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="railyard-outbox")
        if self._prune_task is None or self._prune_task.done():
            self._prune_task = asyncio.create_task(self._prune_loop(), name="railyard-outbox-prune")

    async def stop(self) -> None:
        for name in ("_task", "_prune_task"):
            task = getattr(self, name)
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
                setattr(self, name, None)

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

    async def _prune_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.prune()
            except Exception:  # noqa: BLE001
                log.exception("outbox pruning failed")
            await asyncio.sleep(self.prune_seconds)

    async def prune(self) -> int:
        """Delete finished rows past their keep time, a short transaction at a time so moves
        never wait behind more than one batch (the first run after an upgrade may have
        millions of rows to go through). Returns how many were deleted."""
        total = 0
        while True:
            removed = await self.bot.service.deliveries.prune(self.bot.settings.outbox_keep_hours * 3600.0)
            total += removed
            if not removed:
                break
            await asyncio.sleep(0)
        if total:
            log.info("pruned %d finished outbox rows", total)
        return total

    # ------------------------------------------------------------------ delivery
    async def flush(self) -> int:
        """Deliver everything due now (row after row of each game); return how many.

        Games go independently: as soon as one game's row is done, its next due row starts,
        and a game whose row is still going (a final post drawing its timelapse takes
        seconds) holds back no other game's posts, new ones included (`wake` or the poll
        looks for them while it runs). A game whose row failed waits for its back-off,
        outside this round.

        Rows are claimed (see the module docstring), no more at a time than there are
        delivery slots free, so that with several processes the rows spread over all of
        them instead of queueing in the first that looked. While rows run, their leases
        are renewed every third of a lease; a row claimed but not started (its lane was
        still busy), or cut short by a stop, is given back at once."""
        total = 0
        deliveries = self.bot.service.deliveries
        async with self._lock:
            running: dict[Any, asyncio.Task[str]] = {}
            rows: dict[Any, int] = {}  # lane -> the id of the row its task delivers
            failed: set[Any] = set()
            keeper = asyncio.create_task(self._keep_claims(running, rows), name="railyard-outbox-leases")
            try:
                while True:
                    free = self.concurrency - len(running)
                    claimed = await deliveries.claim(self.lease, limit=free) if free > 0 else []
                    unused: list[int] = []
                    for row in claimed:
                        lane = row.game_id if row.game_id is not None else ("row", row.id)
                        if lane not in running and lane not in failed:
                            running[lane] = asyncio.create_task(self._deliver_one(row))
                            rows[lane] = row.id
                        elif rows.get(lane) != row.id:
                            unused.append(row.id)
                    if unused:
                        await deliveries.release(unused)
                    if not running:
                        break
                    woken = asyncio.ensure_future(self._wake.wait())
                    done, _ = await asyncio.wait([*running.values(), woken], timeout=self.poll_seconds,
                                                 return_when=asyncio.FIRST_COMPLETED)
                    if woken in done:
                        self._wake.clear()
                    else:
                        woken.cancel()
                    for lane, task in list(running.items()):
                        if task.done():
                            row_id = rows[lane]
                            # (an unexpected error leaves the lane in place: the finally gives its row back)
                            outcome = LOST if task.cancelled() else task.result()
                            del running[lane], rows[lane]
                            total += outcome == DELIVERED
                            if outcome == RETRY:
                                failed.add(lane)
                            elif outcome == LOST:
                                self.lost += 1
                                log.warning("outbox #%s: taken over by another process; left to it", row_id)
            finally:
                keeper.cancel()
                for task in running.values():
                    task.cancel()
                if running:
                    await asyncio.gather(*running.values(), return_exceptions=True)
                with contextlib.suppress(asyncio.CancelledError):
                    await keeper
                if rows:  # cut short (a stop, or a failure of this loop): anyone may take them now
                    with contextlib.suppress(Exception):
                        await deliveries.release(rows.values(), interrupted="interrupted: the dispatcher stopped")
        return total

    async def _keep_claims(self, running: Mapping[Any, asyncio.Task[str]], rows: Mapping[Any, int]) -> None:
        """Renew the leases of the rows being delivered every third of a lease. A row the
        renewal finds held by another process was taken over (this one stalled past its
        lease): its delivery is cancelled, so it sends nothing more."""
        while True:
            await asyncio.sleep(self.lease / 3)
            held = {lane: row_id for lane, row_id in rows.items() if lane in running and not running[lane].done()}
            if not held:
                continue
            try:
                lost = await self.bot.service.deliveries.renew(held.values(), self.lease)
            except Exception:  # noqa: BLE001 - try again next time; the lease has two more thirds
                log.exception("could not renew the outbox leases")
                continue
            for lane, row_id in held.items():
                task = running.get(lane)
                if row_id in lost and task is not None and not task.done():
                    log.warning("outbox #%s: lease lost to another process; stopping its delivery", row_id)
                    task.cancel()

    async def _deliver_one(self, row: OutboxRow) -> str:
        async with self._limit:
            deliveries = self.bot.service.deliveries
            done = await deliveries.parts(row.id)
            courier = Courier(self.bot, row, done, takeovers=self.policy.takeovers)
            try:
                await self.composer.compose(row, courier)
            except asyncio.CancelledError:
                raise
            except ClaimLost as lost:
                log.warning("outbox #%s: %s; its delivery stops here", row.id, lost)
                return LOST
            except Exception as exc:  # noqa: BLE001 - every failure is classified and kept
                try:
                    fatal = self.policy.outlived_its_holders(row)
                    if courier.only_finding and fatal is not None and classify(exc).problem != "deleted":
                        # what is out was found and stored; the rest is given up, not tried again
                        return await self._give_up(row, courier, fatal)
                    return await self._failed(row, courier, exc)
                except ClaimLost as lost:
                    log.warning("outbox #%s failed, but %s; not recorded", row.id, lost)
                    return LOST
            try:
                await deliveries.delivered(row.id)
            except ClaimLost as lost:
                log.warning("outbox #%s went out, but %s; not recorded", row.id, lost)
                return LOST
            self.delivered += 1
            for problem, channel_id in courier.degraded:
                await self._notify(row, problem, channel_id)
            return DELIVERED

    async def _failed(self, row: OutboxRow, courier: Courier, exc: Exception) -> str:
        failure = classify(exc)
        if failure.problem == "deleted":
            return await self._channel_deleted(row, courier, failure)
        attempts = row.attempts + 1
        where = f"outbox #{row.id} (game {row.game_id}, {row.kind}, attempt {attempts})"
        if failure.problem == "broken":
            log.error("%s could not be built or sent", where, exc_info=exc)
        if not self.policy.gives_up(failure, attempts):
            log.warning("%s failed (%s); retrying later", where, failure.error)
            await self.bot.service.deliveries.retry_later(row.id, courier.take_unsaved(), failure.error,
                                                          failure.retry_after)
            return RETRY
        return await self._give_up(row, courier, failure)

    async def _channel_deleted(self, row: OutboxRow, courier: Courier, failure: Failure) -> str:
        """Unknown Channel: if Discord confirms the game's channel is gone, its game ends
        (see the module docstring); otherwise the row is given up as an ordinary 404."""
        contact = await self.bot.service.deliveries.contact(row.game_id) if row.game_id is not None else None
        try:
            deleted = contact is not None and await self._is_deleted(contact.channel_id)
        except (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
            # Discord could not say just now (a 5xx, the network): a failure like any other,
            # retried with its back-off (and asked again), within the policy's bounds
            log.warning("outbox #%s: %s, but whether channel %s is deleted could not be checked",
                        row.id, failure.error, contact.channel_id if contact else None)
            return await self._failed(row, courier, exc)
        if not deleted:
            return await self._give_up(row, courier, dataclasses.replace(failure, problem="gone"))
        notice = await self._notice(row, "deleted")
        abandoned = await self.bot.service.deliveries.channel_deleted(
            row.id, courier.take_unsaved(), failure.error, notice=notice, notice_every=self.policy.notice_every)
        if abandoned:
            log.warning("game %s: its channel %s was deleted; the game is abandoned and its host told",
                        row.game_id, contact.channel_id)
        else:
            log.warning("outbox #%s: the channel %s of game %s was deleted; given up",
                        row.id, contact.channel_id, row.game_id)
        self.given_up += 1
        return DEAD

    async def _is_deleted(self, channel_id: str) -> bool:
        """Does Discord say the channel (or thread) does not exist (Unknown Channel)? A
        channel the bot may not see (403) exists."""
        try:
            await self.bot.fetch_channel(int(channel_id))
        except discord.NotFound as exc:
            return exc.code == UNKNOWN_CHANNEL
        except discord.Forbidden:
            return False
        return False

    async def _give_up(self, row: OutboxRow, courier: Courier, failure: Failure) -> str:
        log.error("outbox #%s (game %s, %s) failed for good (%s): given up; the game's later posts go on",
                  row.id, row.game_id, row.kind, failure.error)
        notice = await self._notice(row, NOTICE_FOR.get(failure.problem, "broken"))
        await self.bot.service.deliveries.give_up(row.id, courier.take_unsaved(), failure.error, notice=notice,
                                                  notice_every=self.policy.notice_every)
        self.given_up += 1
        return DEAD

    # ------------------------------------------------------------------ telling the host
    async def _notice(self, row: OutboxRow, problem: str,
                      channel_id: str | None = None) -> tuple[int, str, dict[str, Any]] | None:
        """(game_id, problem, payload) of a notice for the game's host, or None for rows
        that belong to no game (a notice that cannot be delivered is not reported again)."""
        if row.game_id is None:
            return None
        contact = await self.bot.service.deliveries.contact(row.game_id)
        if contact is None:
            return None
        channel = channel_id or contact.channel_id
        permissions = self.missing_permissions(channel) if problem == "permissions" else []
        return contact.game_id, problem, notice_payload(contact, problem, channel_id=channel, permissions=permissions)

    async def _notify(self, row: OutboxRow, problem: str, channel_id: str) -> None:
        notice = await self._notice(row, problem, channel_id)
        if notice is not None:
            await self.bot.service.deliveries.queue_notice(*notice, notice_every=self.policy.notice_every)

    def missing_permissions(self, channel_id: str) -> list[str]:
        """The post permissions the bot lacks in the channel, from discord.py's cache of
        roles and overwrites; all of them when the cache cannot tell (or thinks nothing is
        missing although Discord said 403)."""
        channel = self.bot.get_channel(int(channel_id)) if str(channel_id).isdigit() else None
        thread = isinstance(channel, discord.Thread)
        needed = [("send_messages_in_threads" if thread and p == "send_messages" else p) for p in POST_PERMISSIONS]
        source = channel.parent if thread else channel
        guild = getattr(source, "guild", None)
        me = getattr(guild, "me", None)
        if source is None or me is None or not hasattr(source, "overwrites_for"):
            return needed
        perms = _explicit_permissions(source, me)
        return [p for p in needed if not getattr(perms, p)] or needed


def _explicit_permissions(channel: Any, member: discord.Member) -> discord.Permissions:
    """The member's permissions in the channel as its roles and the channel's overwrites set
    them (Discord's documented order: @everyone, roles, @everyone's overwrite, the roles'
    overwrites, the member's overwrite) — without discord.py's implicit rules, under which no
    Send Messages also means no Attach Files: the host must be told what to switch on, not
    everything that follows from it."""
    guild = channel.guild
    if guild.owner_id == member.id:
        return discord.Permissions.all()
    base = discord.Permissions(guild.default_role.permissions.value)
    for role in member.roles:
        base.value |= role.permissions.value
    if base.administrator:
        return discord.Permissions.all()
    allow, deny = channel.overwrites_for(guild.default_role).pair()
    base.handle_overwrite(allow.value, deny.value)
    role_allow = role_deny = 0
    for role in member.roles:
        if role.is_default():
            continue
        allow, deny = channel.overwrites_for(role).pair()
        role_allow, role_deny = role_allow | allow.value, role_deny | deny.value
    base.handle_overwrite(role_allow, role_deny)
    allow, deny = channel.overwrites_for(member).pair()
    base.handle_overwrite(allow.value, deny.value)
    return base
