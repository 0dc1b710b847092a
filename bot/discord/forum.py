"""Games in forum posts: the post the bot opens for a game, and the status tag it keeps on it.

A forum channel holds only posts (threads whose starter message has the post's id). A game
opened in a forum (`/game new forum:`, or `thread:True` inside one of its posts) gets a post
of its own whose starter message is the lobby; the post carries one of three status tags,
lobby, playing or finished, that the bot keeps up to date (an abandoned game's post is
finished too: nothing in it is open any more). Tags a person put on the post stay.

The tags are the forum's, found by name: any tag named with the catalog's word for the
status in any of the bot's languages (discord.forum.tag.<status>, en or ja, case and spaces
aside). Missing ones are created, in the game's language and with an emoji, when the bot may
(Manage Channels in the forum) and the forum has room (20 tags at most, Discord's limit);
otherwise the game runs untagged and its host is told what to do, in the reply to /game new.

Tag changes go through the outbox ("forum_status" rows, written by the sessions service in
the transaction of the change: bot/sessions/commit.py `post_forum_status`), so they follow
the game whichever process delivers them, after the change's own post. Everything here reads
Discord's own answer (raw channel objects) rather than discord.py's cache: a forum's tag list
is replaced as a whole when a tag is added, and a post's tags are set as a whole, so acting
on a stale copy would drop tags someone added meanwhile.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import discord

from bot.discord.refusals import UserError
from bot.discord.text import THREAD_ARCHIVE_MINUTES, t
from games.core.i18n import LANGUAGES

log = logging.getLogger("railyard.discord.forum")

STATUSES = ("lobby", "playing", "finished")
TAG_EMOJI = {"lobby": "🙋", "playing": "🚂", "finished": "🏁"}
FORUM_TAGS_MAX = 20  # a forum's tags (resources/channel, Modify Channel: available_tags)
APPLIED_TAGS_MAX = 5  # a post's tags
TAG_NAME_MAX = 20
REQUIRE_TAG = 1 << 4  # channel flag: every post of the forum must carry a tag
TAG_NAMES_UNIQUE = 40061  # Discord's error when a tag name is taken (another game made it just now)
THREAD_ARCHIVED = 50083


def _name(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def tag_words(status: str) -> set[str]:
    """The names a tag for `status` may have: the catalog's word in every language."""
    return {_name(t(lang, f"discord.forum.tag.{status}")) for lang in LANGUAGES}


@dataclass
class StatusTags:
    """A forum's tags for the statuses (raw tag objects by status), the statuses without one,
    and why they were not created: "permission" (no Manage Channels in the forum) or
    "full" (no room among its 20 tags); or "moderated": the statuses in `missing` have a
    moderated tag, which the bot may not set (no Manage Threads)."""

    tags: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    problem: str | None = None
    require_tag: bool = False

    def id_of(self, status: str) -> int | None:
        tag = self.tags.get(status)
        return int(tag["id"]) if tag is not None else None

    def ours(self) -> set[int]:
        return {int(tag["id"]) for tag in self.tags.values()}


def find_tags(available: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """The forum's tag for each status, by name (the first one, in the forum's order)."""
    found: dict[str, Mapping[str, Any]] = {}
    for status in STATUSES:
        words = tag_words(status)
        tag = next((tag for tag in available if _name(tag.get("name", "")) in words), None)
        if tag is not None:
            found[status] = tag
    return found


async def status_tags(http: Any, forum_id: int, lang: str) -> StatusTags:
    """The forum's status tags as Discord has them now, creating the missing ones (in `lang`)
    when the bot may and there is room. Raises what fetching the forum raises."""
    forum = await http.get_channel(forum_id)
    available = list(forum.get("available_tags") or [])
    require = bool(int(forum.get("flags") or 0) & REQUIRE_TAG)
    found = find_tags(available)
    missing = [s for s in STATUSES if s not in found]
    if not missing:
        return StatusTags(found, [], None, require)
    if len(available) + len(missing) > FORUM_TAGS_MAX:
        return StatusTags(found, missing, "full", require)
    new = [{"name": t(lang, f"discord.forum.tag.{s}")[:TAG_NAME_MAX], "emoji_name": TAG_EMOJI[s], "moderated": False}
           for s in missing]
    kept = [{k: tag.get(k) for k in ("id", "name", "moderated", "emoji_id", "emoji_name")} for tag in available]
    try:
        forum = await http.edit_channel(forum_id, available_tags=kept + new,
                                        reason="Railyard: status tags for games (lobby, playing, finished)")
    except discord.Forbidden:
        log.info("forum %s: no Manage Channels to create the status tags %s", forum_id, missing)
        return StatusTags(found, missing, "permission", require)
    except discord.HTTPException as exc:
        if exc.code != TAG_NAMES_UNIQUE:
            raise
        forum = await http.get_channel(forum_id)  # made meanwhile (another game, a person): use them
    found = find_tags(list(forum.get("available_tags") or []))
    missing = [s for s in STATUSES if s not in found]
    return StatusTags(found, missing, "permission" if missing else None, require)


def retagged(current: Sequence[int], tags: StatusTags, status: str) -> list[int]:
    """A post's tags for `status`: the other status tags off, this one on, every other tag
    kept as it is (a person's). With five tags of their own there is no room for it."""
    ours = tags.ours()
    kept = [tag for tag in current if tag not in ours]
    wanted = tags.id_of(status)
    if wanted is not None and len(kept) < APPLIED_TAGS_MAX:
        kept.append(wanted)
    return kept


async def set_status(http: Any, post_id: int, forum_id: int, status: str, lang: str) -> None:
    """Put the post's status tag to `status` (an outbox row's work). A post that is gone, or
    whose tags the bot may not change (locked, a moderated tag), is left as it is: its game
    does not depend on it, and the host heard at /game new what the tags need. Anything else
    (a network failure, Discord down) raises, for the outbox to try again."""
    try:
        tags = await status_tags(http, forum_id, lang)
        post = await http.get_channel(post_id)
        current = [int(tag) for tag in post.get("applied_tags") or []]
        wanted = retagged(current, tags, status)
        if wanted == current:
            return
        meta = post.get("thread_metadata") or {}
        change: dict[str, Any] = {"applied_tags": [str(tag) for tag in wanted]}
        if meta.get("archived"):  # an archived post takes a change only with being unarchived
            change["archived"] = False
        await http.edit_channel(post_id, **change)
    except (discord.Forbidden, discord.NotFound) as exc:
        log.info("forum post %s: status tag %s not set (%s %s)", post_id, status, exc.status, exc.code)


# ------------------------------------------------------------------------------ opening a post


@dataclass
class OpenedPost:
    """A new post for a game: the post, its starter message (to become the lobby) and the
    forum's status tags as they were found or made. A new thread of a text channel is one
    without a starter message or tags."""

    post: discord.Thread
    starter: discord.Message | None
    tags: StatusTags | None


async def open_post(client: discord.Client, forum: discord.ForumChannel, name: str, lang: str) -> OpenedPost:
    """A new post in the forum for a game's lobby, tagged lobby: its starter message says the
    lobby is being opened until the caller makes it the lobby (the lobby's buttons need the
    game's id, which needs the post's). Raises UserError when the forum cannot take it."""
    try:
        tags = await status_tags(client.http, forum.id, lang)
    except discord.HTTPException as exc:  # the bot cannot even see the forum
        log.info("forum %s: cannot read it (%s %s)", forum.id, exc.status, exc.code)
        raise UserError("discord.error.cannot_post_forum", forum=forum.mention) from None
    lobby_tag = tags.id_of("lobby")
    if tags.require_tag and lobby_tag is None:
        raise UserError("discord.error.forum_needs_tag", forum=forum.mention,
                        tag=t(lang, "discord.forum.tag.lobby"))
    applied = [discord.Object(lobby_tag)] if lobby_tag is not None else []
    words = "⏳ " + t(lang, "discord.forum.opening")
    try:
        try:
            made = await forum.create_thread(name=name[:100], content=words, applied_tags=applied,
                                             auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.Forbidden:
            if not applied or tags.require_tag or not tags.tags["lobby"].get("moderated"):
                raise
            # a moderated tag takes Manage Threads: the game opens untagged, and the host hears why
            log.info("forum %s: the lobby tag is moderated and the bot may not set it", forum.id)
            tags.problem = "moderated"
            tags.missing = [s for s in STATUSES if s in tags.tags and tags.tags[s].get("moderated")]
            made = await forum.create_thread(name=name[:100], content=words,
                                             auto_archive_duration=THREAD_ARCHIVE_MINUTES)
    except discord.HTTPException as exc:
        log.warning("forum %s: cannot open a post (%s %s)", forum.id, exc.status, exc.code)
        raise UserError("discord.error.cannot_post_forum", forum=forum.mention) from None
    return OpenedPost(made.thread, made.message, tags)


async def clear_post(opened: OpenedPost) -> None:
    """Take back a post that opened no game (its game could not be made, or another player's
    rematch opened first): deleted if the bot may (Manage Threads), else closed with a line
    saying so, archived and locked where it may, so that it leads nobody astray."""
    try:
        await opened.post.delete()
        return
    except discord.HTTPException as exc:
        log.info("forum post %s: cannot delete it (%s %s); closing it instead", opened.post.id, exc.status, exc.code)
    try:
        if opened.starter is not None:
            await opened.starter.edit(content="—")
        await opened.post.edit(archived=True)
    except discord.HTTPException as exc:
        log.info("forum post %s: cannot close it either (%s %s)", opened.post.id, exc.status, exc.code)


def tags_note(tags: StatusTags, forum: discord.ForumChannel, lang: str) -> str | None:
    """What the host should do about status tags the bot could not make, or None."""
    if not tags.missing or tags.problem is None:
        return None
    names = [t(lang, "discord.forum.tag_name", name=t(lang, f"discord.forum.tag.{s}")) for s in tags.missing]
    listed = names[0] if len(names) == 1 else t(lang, "discord.delivery.list",
                                                  first=t(lang, "discord.delivery.comma").join(names[:-1]),
                                                  last=names[-1])
    key = {"full": "discord.forum.tags_full", "moderated": "discord.forum.tags_moderated"}.get(
        tags.problem, "discord.forum.tags_not_allowed")
    return t(lang, key, forum=forum.mention, tags=listed, max=FORUM_TAGS_MAX)
