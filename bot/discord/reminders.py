"""The words of a reminder: which game, how long it has waited, and what it asks of each
person (bot/sessions/reminding.py).

In the game's channel the reminder is in the game's language, one line per thing asked with
the people it is asked of mentioned at its head; a DM is in its reader's own language and
carries the link to the game's channel (a channel mention does not resolve in a DM).
"""
from __future__ import annotations

from typing import Sequence

from bot.discord.posts import jump_url, mentions
from bot.discord.replies import Reply
from bot.discord.text import CONTENT_MAX, clip, event_text, join_lines, t
from bot.discord.ui import base as ui_base
from bot.sessions.posting import ReminderPost
from games.core.i18n import language_for

LINE_MAX = 400  # one thing asked (a prompt may list a hand): long ones are cut, not the others


def game_title(game: str, lang: str) -> str:
    """The game's name in `lang` (its registry name for a game this version cannot load)."""
    try:
        return ui_base.get(game).title(lang)
    except Exception:  # noqa: BLE001 - a reminder about a game this version cannot load
        return game


def _hours(post: ReminderPost) -> int:
    if post.hours is not None:
        return post.hours
    for event in post.events:  # a row written before `hours` was kept apart
        hours = event.params.get("hours")
        if isinstance(hours, int):
            return hours
    return 0


def _asks(post: ReminderPost, user_id: str, lang: str) -> list[str]:
    """What the game asks of the person's seats, in `lang` ("your turn" where the rules say
    nothing more, or the row predates `asked`)."""
    said = [event_text(lang, a.prompt, post.names) for a in post.asked if a.user_id == user_id and a.prompt]
    return list(dict.fromkeys(said)) or [t(lang, "discord.hint.your_turn")]


def channel_reminder(post: ReminderPost, user_ids: Sequence[str]) -> str:
    """The reminder posted in the game's channel for `user_ids`, in the game's language. People
    asked the same thing share one line."""
    lang = post.locale or "en"
    head = t(lang, "discord.reminder.channel", game=game_title(post.game, lang),
             idle=t(lang, "discord.reminder.idle", hours=_hours(post)))
    asked: dict[str, list[str]] = {}
    for user_id in dict.fromkeys(user_ids):
        for words in _asks(post, user_id, lang):
            asked.setdefault(words, []).append(user_id)
    lines = [clip(t(lang, "discord.reminder.asks", who=mentions(people), asks=words), LINE_MAX)
             for words, people in asked.items()]
    return join_lines(["⏰ " + head, *lines], CONTENT_MAX)


def dm_language(post: ReminderPost, user_id: str) -> str:
    """The reader's own language where it is known, else the game's."""
    return language_for(post.dm_locales.get(user_id) or post.locale or "en")


def dm_reminder(post: ReminderPost, user_id: str) -> Reply:
    """The reminder sent to one person by DM, in their own language."""
    lang = dm_language(post, user_id)
    head = t(lang, "discord.reminder.dm", game=game_title(post.game, lang),
             idle=t(lang, "discord.reminder.idle", hours=_hours(post)),
             link=jump_url(post.guild_id, post.channel_id))
    lines = [clip("👉 " + words, LINE_MAX) for words in _asks(post, user_id, lang)]
    return Reply(content=join_lines(["⏰ " + head, *lines], CONTENT_MAX))
