"""What each kind of outbox row says: the "what to send" half of the outbox.

`OutboxMessages.compose(row, out)` reads the row's payload and hands every message to the
courier (`bot.discord.outbox.Courier`) as a named part: `out.post(part, channel, reply)`,
`out.dm(part, user, reply)` or `out.first(part, [(target, reply), ...])`. How the parts are
delivered, retried, de-duplicated and given up is the courier's and the dispatcher's
business, so this is the only module that knows the payloads' shape. Anything raised here
(a missing key, a rendering bug) counts as a post that cannot be built.

Pings: a turn post mentions the users the game now waits on, but only notifies those who
were not already waited on by the game's previous post (the second card of a turn, or
another player's part of a simultaneous choice, do not ping again); `allowed_mentions`
never allows @everyone or roles.

Reminders: a user who opted in gets a DM; if their DMs are closed (403, code 50007) they are
mentioned in the game's channel instead, with everyone else the game waits on.

Notices: when a post was given up (or went out without its images), the game's host is told
what is wrong in their language, in the channel if the bot can still post there (with a
mention), else by DM.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import discord

from bot.discord.outbox import Channel, Courier, DirectMessage
from bot.discord.posts import game_post, jump_url, mentions
from bot.discord.replies import Reply
from bot.discord.text import CONTENT_MAX, clip, event_text, join_lines, t
from bot.discord.ui import base as ui_base
from bot.store import OutboxRow

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

log = logging.getLogger("railyard.discord.outbox")

GAME_POST_KINDS = ("start", "move", "undo", "kick")


class UnknownKind(Exception):
    """An outbox row of a kind this version cannot say (a bug, or a newer writer)."""


def _only_users(user_ids: list[str]) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(int(u)) for u in user_ids if str(u).isdigit()])


def _title(game: str, lang: str) -> str:
    try:
        return ui_base.get(game).title(lang)
    except Exception:  # noqa: BLE001 - a notice about a game this version cannot load
        return game


def _and(lang: str, items: list[str]) -> str:
    """"A", "A and B", "A, B and C" (ja: 「A」と「B」)."""
    if len(items) <= 1:
        return "".join(items)
    return t(lang, "discord.delivery.list", first=t(lang, "discord.delivery.comma").join(items[:-1]),
             last=items[-1])


class OutboxMessages:
    def __init__(self, bot: "RailyardBot") -> None:
        self.bot = bot
        # per game, the users the last delivered post was waiting on: a post notifies only
        # users who were not already being waited on; after a restart everyone is pinged
        self._waiting: dict[int, set[str]] = {}
        self._kinds: dict[str, Callable[[OutboxRow, dict[str, Any], Courier], Awaitable[None]]] = {
            **{kind: self._game_post for kind in GAME_POST_KINDS},
            "abandoned": self._abandoned,
            "reminder": self._reminder,
            "notice": self._notice,
        }

    async def compose(self, row: OutboxRow, out: Courier) -> None:
        payload = row.payload
        if not isinstance(payload, dict):
            raise ValueError(f"payload is a {type(payload).__name__}, not an object")
        say = self._kinds.get(row.kind)
        if say is None:
            raise UnknownKind(row.kind)
        await say(row, payload, out)

    # ------------------------------------------------------------------ game posts
    async def _game_post(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        reply = await game_post(payload)
        waiting = {str(u) for u in payload.get("mention_user_ids") or []}
        before = self._waiting.get(row.game_id or 0)
        ping = waiting if before is None else waiting - before
        reply.allowed_mentions = _only_users(sorted(ping))
        await out.post("post", payload["channel_id"], reply)
        self._waiting[row.game_id or 0] = waiting

    async def _abandoned(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        self._waiting.pop(row.game_id or 0, None)
        lang = payload.get("locale") or "en"
        names = payload.get("names") or []
        lines = ["🛑 " + event_text(lang, e, names) for e in payload.get("events") or []]
        await out.post("post", payload["channel_id"], Reply(content=join_lines(lines, CONTENT_MAX)))

    # ------------------------------------------------------------------ reminders
    async def _reminder(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        lang = payload.get("locale") or "en"
        names = payload.get("names") or []
        text = " ".join(event_text(lang, e, names) for e in payload.get("events") or [])
        title = ui_base.get(payload["game"]).title(lang)
        dm_users = [str(u) for u in payload.get("dm_user_ids") or []]
        channel_users = [str(u) for u in payload.get("mention_user_ids") or [] if str(u) not in dm_users]
        body = "⏰ " + t(lang, "discord.reminder.dm", game=title, text=text,
                         link=jump_url(payload.get("guild_id"), payload["channel_id"]))
        for user_id in dm_users:
            if not await out.dm(f"dm:{user_id}", user_id, Reply(content=clip(body, CONTENT_MAX))):
                log.info("reminder for game %s: DMs of user %s are closed; mentioning in the channel",
                         payload.get("game_id"), user_id)
                channel_users.append(user_id)
        if channel_users:
            content = f"⏰ {mentions(channel_users)} {text}"
            await out.post("channel", payload["channel_id"],
                           Reply(content=clip(content, CONTENT_MAX), allowed_mentions=_only_users(channel_users)))

    # ------------------------------------------------------------------ notices to the host
    async def _notice(self, row: OutboxRow, payload: dict[str, Any], out: Courier) -> None:
        lang = payload.get("locale") or "en"
        problem = payload.get("problem") or "broken"
        host = str(payload["host_user_id"])
        channel_id = str(payload["channel_id"])
        permissions = _and(lang, [t(lang, f"discord.permission.{p}") for p in payload.get("permissions") or []])

        def text(mention: str) -> str:
            return clip("⚠️ " + t(lang, f"discord.delivery.{problem}", host=mention, channel=f"<#{channel_id}>",
                                  game=_title(payload.get("game") or "", lang), game_id=payload.get("game_id"),
                                  permissions=permissions), CONTENT_MAX)

        in_dm = (DirectMessage(host), Reply(content=text(""), allowed_mentions=_only_users([])))
        if problem == "gone":  # no channel to post in
            await out.first("notice", [in_dm])
            return
        in_channel = (Channel(channel_id), Reply(content=text(f"<@{host}> "), allowed_mentions=_only_users([host])))
        await out.first("notice", [in_channel, in_dm])
