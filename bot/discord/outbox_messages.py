"""What each kind of outbox row says: the "what to send" half of the outbox.

`OutboxMessages.compose(row, out)` reads the row's payload and hands every message to the
courier (`bot.discord.outbox.Courier`) as a named part: `out.post(part, channel, reply)`,
`out.dm(part, user, reply)` or `out.first(part, [(target, reply), ...])`. How the parts are
delivered, retried, de-duplicated and given up is the courier's and the dispatcher's
business, so this is the only module that knows the payloads' shape. Anything raised here
(a missing key, a rendering bug) counts as a post that cannot be built.

Game posts keep one live board per game (bot/sessions/live.py): a new message only when
somebody is newly waited on (and only they are notified), at the start and at the end;
otherwise the live message is edited (words, status and buttons; it keeps its picture). The
previous live message loses its buttons when a new one is posted. The final post also carries
the game's timelapse (render/timelapse.py), drawn from the game's record; when the processes
delivering it keep dying, it goes out without the timelapse, then without images, but it goes
out (`_new_message`). Who the live message waits on is stored (`live_boards`), so a restart
does not ping everyone again. A live message that was deleted (Unknown Message), or that sits
in an archived thread (which takes no edits), is replaced by a new one.
`allowed_mentions` never allows @everyone or roles.

Reminders: a user who opted in gets a DM (in their own language, bot/discord/reminders.py);
if their DMs are closed (403, code 50007) they are mentioned in the game's channel instead,
with everyone else the game waits on. A reminder in the channel does not stay there: the next
reminder of the game deletes it (it is outdated), and so does the game's next step (it is
answered), both as parts of their own rows, so one game's channel holds one reminder at most,
in order with its posts, whichever process delivers them. DMs are left as they are: they are
the reader's own, one line each, and clutter no channel.

Forum posts: a game in a post the bot opened in a forum has its status tag set by rows of
its own ("forum_status", bot/discord/forum.py), after the post of the change that made it.

Notices: when a post was given up (or went out without its images), the game's host is told
what is wrong in their language, in the channel if the bot can still post there (with a
mention), else by DM.

A game that lives by its answers (a post's `delivery` "replies": the bot is no member of its
channel, see bot/discord/where.py) gets nothing in its channel from here: its boards went out
as the answers to the interactions that changed it (bot/discord/boards.py). Its final post
goes to each of its players by DM, its reminders by DM only (a closed DM has no channel to
fall back on), and its host's notices by DM.
"""
from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

import discord

from bot.discord.outbox import THREAD_ARCHIVED, UNKNOWN_MESSAGE, Channel, Courier, DirectMessage
from bot.discord.posts import Picture, game_post, jump_url, waiting_line
from bot.discord import forum, leagues, reminders
from bot.discord.host import Host
from bot.discord.replies import Reply
from bot.discord.text import CONTENT_MAX, clip, event_text, join_lines, t
from bot.sessions.live import GAME_POST_KINDS, LiveBoard, StandingReminder, Step, facts_of, plan, posted
from bot.sessions.posting import POSTS, AbandonedPost, GamePost, ReminderPost, load_post
from bot.sessions.delivery import OutboxRow
from bot.sessions.models import WaitingGame
from bot.sessions.settings import REPLIES
from render import pool as render_pool


log = logging.getLogger("railyard.discord.outbox")

# The forms of a game's final post, from the full one to the lightest (Courier.form).
FULL, NO_TIMELAPSE, WORDS_ONLY = 0, 1, 2
FINAL_FORMS = WORDS_ONLY  # how many lighter forms it has


class UnknownKind(Exception):
    """An outbox row of a kind this version cannot say (a bug, or a newer writer)."""


def _only_users(user_ids: list[str]) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(int(u)) for u in user_ids if str(u).isdigit()])


def _and(lang: str, items: list[str]) -> str:
    """"A", "A and B", "A, B and C" (ja: 「A」と「B」)."""
    if len(items) <= 1:
        return "".join(items)
    return t(lang, "discord.delivery.list", first=t(lang, "discord.delivery.comma").join(items[:-1]),
             last=items[-1])


class OutboxMessages:
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._kinds: dict[str, Callable[[OutboxRow, dict[str, Any], Courier], Awaitable[None]]] = {
            **{kind: self._game_post for kind in GAME_POST_KINDS},
            "abandoned": self._abandoned,
            "reminder": self._reminder,
            "notice": self._notice,
            "returned": self._personal,
            "digest": self._personal,
            "followed": self._followed,
            "league_round": self._league_round,
            "forum_status": self._forum_status,
        }

    async def compose(self, row: OutboxRow, out: Courier) -> None:
        payload = row.payload
        if not isinstance(payload, dict):
            raise ValueError(f"payload is a {type(payload).__name__}, not an object")
        say = self._kinds.get(row.kind)
        if say is None:
            raise UnknownKind(row.kind)
        # the sessions service's posts are typed (a payload that does not validate is a post
        # that cannot be built); notices are this adapter's own rows
        await say(row, load_post(row.kind, payload) if row.kind in POSTS else payload, out)

    # ------------------------------------------------------------------ game posts
    def _table_base(self) -> str | None:
        """The web table's public address, when this bot serves one (posts link to it)."""
        return self.bot.web.base_url if self.bot.web is not None else None

    async def _game_post(self, row: OutboxRow, post: GamePost, out: Courier) -> None:
        """One step of the game's live board (bot/sessions/live.py): this row and the game
        posts due right after it (a run of bot moves, the rest of a turn) become one new
        message or one edit of the live one."""
        if post.delivery == REPLIES:
            await self._result_by_dm(post, out)
            return
        deliveries = self.bot.service.deliveries
        # A row tried before may be out already, in part: Discord may have created its message
        # although the answer was lost (a retry finds it in the channel, see `_new_message`), or
        # the message went out and a later part failed, or the process sending it died and
        # another took the row over. What went out shows the rows that attempt folded in, and
        # no others: so the first attempt stores which rows it folds in ("fold") before it
        # sends anything, and every later attempt folds in exactly those (still pending) -
        # shown once, marked delivered together. An attempt that finds no fold stored (a row
        # tried before this was kept) delivers its row alone.
        folded = out.noted("fold")
        tried = row.attempts > 0 or out.message_id("post") is not None or out.message_id("edit") is not None
        if folded is not None:
            run = await self._folded(row, folded)
        elif tried:
            run = []
        else:
            run = await self._run_after(row)
            if run:
                await out.note("fold", "fold:" + ",".join(str(r.id) for r, _ in run))
        rows = [row, *(r for r, _ in run)]
        posts = [post, *(p for _, p in run)]
        facts = [facts_of(r.id, p) for r, p in zip(rows, posts)]
        live = await self._live(row.game_id)
        step, after = plan(live, facts)
        last = posts[-1]
        channel_id = last.channel_id
        if step.action == "edit" and live.message_id is not None:
            reply = await game_post(last, events=step.lines, draw_board=False, has_picture=live.picture,
                                    table_base=self._table_base())
            reply.allowed_mentions = _only_users([])
            try:
                await out.edit("edit", channel_id, live.message_id, reply)
            except discord.HTTPException as exc:
                if exc.code == UNKNOWN_MESSAGE:  # the live message was deleted: post the board anew
                    step, after = plan(LiveBoard(), facts)
                elif exc.code == THREAD_ARCHIVED:
                    # an archived thread takes no edit, but a new message, which unarchives it
                    step, after = plan(LiveBoard(), facts)
                    step = step.model_copy(update={"strip_message_id": live.message_id})
                else:
                    raise
        if step.action == "new":
            message_id, picture = await self._new_message(row, out, step, last)
            after = posted(after, message_id, picture=picture)
            if step.strip_message_id:
                await self._strip(out, channel_id, step.strip_message_id)
        await self._take_back_reminders(out, live)  # the game moved on: they are answered
        # The live board and every row the step delivered (this one too) in one write: were
        # this row left pending (a crash, a failed write just after), it would be delivered
        # again against a live board that already shows the rows after it.
        await deliveries.finish_step(row.game_id, after.model_dump_json(), [r.id for r in rows])

    async def _new_message(self, row: OutboxRow, out: Courier, step: Step, last: GamePost) -> tuple[str, bool]:
        """Post the step's new message: (its id, whether it carries the board's picture).

        A row tried before may have its message out already (its holder died before storing
        it): that is looked for first, before anything is drawn. Otherwise the message goes
        out in the form the courier says (`Courier.form`): a game's final post has lighter
        forms, without its timelapse (the longest to draw), then without images at all, so
        that the game's result is published whatever keeps killing the processes drawing it."""
        channel = Channel(last.channel_id)
        ping = _only_users(step.ping_user_ids)
        if out.message_id("post") is None and out.tried:
            said = await game_post(last, events=step.lines, draw_board=False)  # its words: nothing drawn
            said.allowed_mentions = ping
            found = await out.find("post", channel, said)
            if found is not None:
                return str(found.id), any(a.filename == "board.png" for a in found.attachments)
        stored = out.message_id("post")
        if stored is not None:  # sent by an earlier attempt, which stored it
            return stored, True
        form = out.form(FINAL_FORMS if step.final else 0)
        if form > FULL:
            log.warning("outbox #%s: %d holders in a row died delivering it; sending the final post of game %s"
                        " without its %s", row.id, row.takeovers, row.game_id,
                        "timelapse" if form == NO_TIMELAPSE else "images")
        animation = await self._timelapse(row.game_id, last) if step.final and form == FULL else None
        reply = await game_post(last, events=step.lines, timelapse=animation, draw_board=form < WORDS_ONLY,
                                table_base=self._table_base())
        reply.allowed_mentions = ping
        await out.post("post", last.channel_id, reply)
        return out.message_id("post") or "", bool(reply.files) and not out.files_dropped

    async def _result_by_dm(self, post: GamePost, out: Courier) -> None:
        """A game that lives by its answers posts nothing in its channel: its end goes to each
        of its players by DM (the final post, its words in the game's language, without its
        buttons); any other step was shown by the answer that made it."""
        if not post.finished:
            return
        reply = await game_post(post)
        lang = post.locale or "en"
        head = t(lang, "discord.result.dm", game=reminders.game_title(post.game, lang),
                 link=jump_url(post.guild_id, post.channel_id))
        reply.content = clip(join_lines([head, reply.content or ""], CONTENT_MAX), CONTENT_MAX)
        reply.view = None
        reply.allowed_mentions = _only_users([])
        for user_id in post.dm_user_ids:
            if not await out.dm(f"dm:{user_id}", user_id, reply):
                log.info("game %s: the result could not be sent to user %s (DMs closed)", post.game_id, user_id)

    async def _timelapse(self, game_id: int | None, post: GamePost) -> tuple[str, Picture] | None:
        """The game's timelapse (render/timelapse.py), drawn in the game's render worker (a
        thread without workers); None, logged, if it cannot be made: the final post goes out
        without it."""
        if game_id is None:
            return None
        log.info("game %s: drawing its timelapse", game_id)
        try:
            record = await self.bot.service.record(game_id)
            made = await render_pool.current().call(render_pool.draw_timelapse, record, list(post.names),
                                                    post.locale or "en", route=game_id)
        except Exception:  # noqa: BLE001 - a timelapse is a bonus, never a reason to hold the result back
            log.exception("game %s: the timelapse could not be made", game_id)
            return None
        log.info("game %s: timelapse of %d frames, %d bytes in %.1f s", game_id, made.frames,
                 len(made.data), made.seconds)
        return made.filename, Picture(made.data, made.description)

    async def _run_after(self, row: OutboxRow) -> list[tuple[OutboxRow, GamePost]]:
        """The game posts due right after `row`, up to the first row of another kind (or one
        that cannot be read: its own delivery gives it up); a forum post's status tag between
        them is no break (it is delivered on its own, next)."""
        run = []
        now = self.bot.clock()
        for later in await self.bot.service.deliveries.pending_after(row.game_id, row.id):
            if later.kind == "forum_status":
                continue  # a forum post's tag, no post: the posts after it still make one step with this
            if later.kind not in GAME_POST_KINDS or later.next_attempt_at > now:
                break
            try:
                run.append((later, GamePost.model_validate(later.payload)))
            except ValueError:  # not JSON, or not a game post (pydantic's error is a ValueError)
                break
        return run

    async def _folded(self, row: OutboxRow, folded: str) -> list[tuple[OutboxRow, GamePost]]:
        """The rows an earlier attempt folded into this row's step that are still pending."""
        ids = {int(x) for x in folded.removeprefix("fold:").split(",") if x.strip().isdigit()}
        run = []
        for later in await self.bot.service.deliveries.pending_after(row.game_id, row.id):
            if later.id in ids:
                run.append((later, GamePost.model_validate(later.payload)))
        return run

    async def _live(self, game_id: int | None) -> LiveBoard:
        stored = await self.bot.service.deliveries.live_board(game_id) if game_id is not None else None
        if stored is None:
            return LiveBoard()
        try:
            return LiveBoard.model_validate_json(stored)
        except ValueError:  # a live board that cannot be read: start a new one
            log.warning("game %s: live board unreadable; posting a new one", game_id)
            return LiveBoard()

    async def _strip(self, out: Courier, channel_id: str, message_id: str) -> None:
        """Take the buttons off an earlier live message, so nobody clicks a stale one. A
        message that is gone or cannot be edited any more is left as it is."""
        try:
            await out.edit("strip", channel_id, message_id, None)
        except (discord.NotFound, discord.Forbidden) as exc:
            log.info("could not take the buttons off message %s: %s", message_id, exc)

    async def _abandoned(self, row: OutboxRow, post: AbandonedPost, out: Courier) -> None:
        if post.delivery == REPLIES:  # said in the answer to /game abandon
            return
        lang = post.locale or "en"
        lines = ["🛑 " + event_text(lang, e, post.names) for e in post.events]
        await out.post("post", post.channel_id, Reply(content=join_lines(lines, CONTENT_MAX)))
        live = await self._live(row.game_id)
        if live.message_id and not live.closed:
            await self._strip(out, post.channel_id, live.message_id)
        await self._take_back_reminders(out, live)
        if row.game_id is not None:
            closed = live.model_copy(update={"closed": True, "reminders": []})
            await self.bot.service.deliveries.finish_step(row.game_id, closed.model_dump_json(), [])

    # ------------------------------------------------------------------ reminders
    async def _reminder(self, row: OutboxRow, post: ReminderPost, out: Courier) -> None:
        """DMs to those who asked for them, a mention in the channel for the others (and for
        those whose DMs are closed); then the game's earlier reminder in the channel, now
        outdated, is deleted, and this one is kept on the live board for the next step (or
        reminder) to delete. The board and the row's delivery are written together."""
        dm_users = list(post.dm_user_ids)
        if post.delivery == REPLIES:  # by DM only: the channel takes nothing unprompted
            for user_id in dm_users:
                if not await out.dm(f"dm:{user_id}", user_id, reminders.dm_reminder(post, user_id)):
                    log.info("reminder for game %s: DMs of user %s are closed, and the game's channel"
                             " takes no reminder", post.game_id, user_id)
            return
        live = await self._live(row.game_id)
        channel_users = [u for u in post.mention_user_ids if u not in dm_users]
        for user_id in dm_users:
            if not await out.dm(f"dm:{user_id}", user_id, reminders.dm_reminder(post, user_id)):
                log.info("reminder for game %s: DMs of user %s are closed; mentioning in the channel",
                         post.game_id, user_id)
                channel_users.append(user_id)
        standing: list[StandingReminder] = []
        if channel_users:
            await out.post("channel", post.channel_id,
                           Reply(content=reminders.channel_reminder(post, channel_users),
                                 allowed_mentions=_only_users(channel_users)))
            message_id = out.message_id("channel")
            if message_id is not None:
                standing.append(StandingReminder(channel_id=post.channel_id, message_id=message_id))
        await self._take_back_reminders(out, live)
        if row.game_id is not None:
            after = live.model_copy(update={"reminders": standing})
            await self.bot.service.deliveries.finish_step(row.game_id, after.model_dump_json(), [row.id])

    async def _take_back_reminders(self, out: Courier, live: LiveBoard) -> None:
        """Delete the reminders standing in the game's channel: the game moved on (they are
        answered) or a newer reminder replaces them.

        Deleted, not edited to an "answered" line: the live board already says whom the game
        waits on now, a reminder's only work is its ping, done once it is posted, and a line
        left per reminder is the pile-up a busy channel of several games cannot afford. Each
        deletion is a part of the row, so a retry or a takeover skips the ones stored; one
        that went out unstored meets Unknown Message, which is done. One that cannot be
        deleted for good (the bot no longer sees the channel, or it is gone) is left: the
        game's posts must not wait on it."""
        for standing in live.reminders:
            try:
                await out.delete(f"unremind:{standing.message_id}", standing.channel_id, standing.message_id)
            except (discord.NotFound, discord.Forbidden) as exc:
                log.info("could not delete reminder %s: %s", standing.message_id, exc)

    # ------------------------------------------------------------------ a person's own DMs
    async def _personal(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        """The DM a person gets when their away time ends ('returned') or at their digest
        hour ('digest'): the games waiting on them, in their own language. Closed DMs are
        nothing to retry (they chose so): the part is kept as closed."""
        lang = payload.get("locale") or "en"
        user_id = str(payload["user_id"])
        games = [WaitingGame.model_validate(g) for g in payload.get("games") or []]
        head = t(lang, f"discord.{row.kind}.title", count=len(games))
        lines = [waiting_line(g, lang, in_dm=True) for g in games] or [t(lang, "discord.mine.none_anywhere")]
        await out.dm("dm", user_id, Reply(content=join_lines([head, *lines], CONTENT_MAX)))

    async def _followed(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        """A followed game's public post (its board, or its final images), by DM to a follower,
        in the game's language with a line in theirs leading to its channel; no buttons (a DM
        is no place to play from)."""
        post = GamePost.model_validate(payload["post"])
        lang = payload.get("locale") or post.locale or "en"
        reply = await game_post(post, events=[])
        head = t(lang, "discord.follow.dm", game=reminders.game_title(post.game, lang),
                 link=jump_url(post.guild_id, post.channel_id))
        reply.content = clip(join_lines([head, reply.content or ""], CONTENT_MAX), CONTENT_MAX)
        reply.view = None
        reply.allowed_mentions = _only_users([])
        await out.dm("dm", str(payload["user_id"]), reply)

    # ------------------------------------------------------------------ leagues
    async def _league_round(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        """A league's standings after one of its rounds, in the league's channel, and its card
        redrawn (the round it is at; the league over)."""
        channel_id = str(payload["channel_id"])
        await out.post("post", channel_id, await leagues.round_over_post(payload))
        card = payload.get("card_message_id")
        if card:
            info = await self.bot.service.league(int(payload["league_id"]))
            try:
                await out.edit("card", channel_id, str(card), leagues.league_card(info))
            except (discord.NotFound, discord.Forbidden) as exc:  # the card was deleted: nothing to redraw
                log.info("could not redraw the card of league %s: %s", payload["league_id"], exc)

    async def _forum_status(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        """A game in a forum post changed status (started, finished, abandoned): the post's
        status tag follows (bot/discord/forum.py)."""
        await forum.set_status(self.bot.http, int(payload["channel_id"]), int(payload["forum_id"]),
                               str(payload["status"]), payload.get("locale") or "en")

    # ------------------------------------------------------------------ notices to the host
    async def _notice(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        lang = payload.get("locale") or "en"
        problem = payload.get("problem") or "broken"
        host = str(payload["host_user_id"])
        channel_id = str(payload["channel_id"])
        permissions = _and(lang, [t(lang, f"discord.permission.{p}") for p in payload.get("permissions") or []])

        def text(mention: str) -> str:
            return clip("⚠️ " + t(lang, f"discord.delivery.{problem}", host=mention, channel=f"<#{channel_id}>",
                                  game=reminders.game_title(payload.get("game") or "", lang), game_id=payload.get("game_id"),
                                  permissions=permissions), CONTENT_MAX)

        in_dm = (DirectMessage(host), Reply(content=text(""), allowed_mentions=_only_users([])))
        if problem in ("gone", "deleted") or payload.get("delivery") == REPLIES:  # no channel to post in
            await out.first("notice", [in_dm])
            return
        in_channel = (Channel(channel_id), Reply(content=text(f"<@{host}> "), allowed_mentions=_only_users([host])))
        await out.first("notice", [in_channel, in_dm])
