"""Answering interactions: always inside Discord's 3 seconds, privately unless asked.

Every interaction response of Railyard is either an ephemeral message or an update of the
message whose component was clicked (the lobby, a private select). In a channel the bot posts
in, public posts never go through an interaction token: the lobby is sent to the channel, game
posts come from the outbox. Where the bot may not post by itself (bot/discord/where.py) the
answer is the only way to the channel: the lobby is the public answer to /game new
(`public=True`), and a change's board follows the answer as a public follow-up, which the work
leaves behind with `after_answer`. An error is still answered ephemerally.

`answer(interaction, work)` runs `work` (a coroutine making a `Reply`) and sends its result.
If the work is known to be slow (`slow=True`: an image to render) or takes longer than
DEFER_AFTER seconds, the interaction is deferred first (type 5 ephemeral "thinking", or
type 6 for an update) and the reply then edits the original response.
"""
from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import discord

DEFER_AFTER = 1.2  # seconds of work before we defer (the hard limit is 3 s)
AFTER_ANSWER = "railyard.after_answer"  # interaction.extras: what to send once answered
DESCRIPTION_MAX = 1024  # Discord refuses an attachment description longer than this


@dataclass(frozen=True)
class Picture:
    """A rendered image and its alt text (Discord's attachment description)."""

    data: bytes
    description: str = ""


@dataclass
class Reply:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)  # (file name, image bytes)
    view: discord.ui.View | None = None
    allowed_mentions: discord.AllowedMentions | None = None  # default: the bot's (users only)
    # file name -> alt text (the attachment's description, read aloud by screen readers);
    # kept beside `files` so code that shrinks or drops the images keeps it as it is
    descriptions: dict[str, str] = field(default_factory=dict)

    def attach(self, name: str, data: bytes, description: str | None = None) -> None:
        """Add a file with its alt text."""
        self.files.append((name, data))
        if description:
            self.descriptions[name] = description

    def discord_files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name,
                             description=clip_description(self.descriptions.get(name)))
                for name, data in self.files]

    def new_kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {}
        if self.content:
            kw["content"] = self.content
        if self.embeds:
            kw["embeds"] = self.embeds
        if self.files:
            kw["files"] = self.discord_files()
        if self.view is not None:
            kw["view"] = self.view
        if self.allowed_mentions is not None:
            kw["allowed_mentions"] = self.allowed_mentions
        return kw

    def edit_words_kwargs(self) -> dict[str, Any]:
        """Replace the words, embeds and buttons; keep the attachments the message has."""
        kw: dict[str, Any] = {"content": self.content or None, "embeds": list(self.embeds), "view": self.view}
        if self.allowed_mentions is not None:
            kw["allowed_mentions"] = self.allowed_mentions
        return kw

    def edit_kwargs(self) -> dict[str, Any]:
        """Replace everything in the message (absent parts are removed)."""
        return {"content": self.content or None, "embeds": list(self.embeds),
                "attachments": self.discord_files(), "view": self.view}


def clip_description(text: str | None) -> str | None:
    """Alt text as Discord takes it: at most DESCRIPTION_MAX characters (cut at a word, with
    "…"), None when there is none."""
    text = (text or "").strip()
    if not text:
        return None
    if len(text) <= DESCRIPTION_MAX:
        return text
    cut = text[: DESCRIPTION_MAX - 1]
    # the last whole sentence if that keeps most of it, else the last whole word (Japanese
    # has no spaces: then the cut is simply at the limit)
    sentence = max(cut.rfind("。") + 1, cut.rfind(". ") + 1)
    space = cut.rfind(" ")
    if sentence > DESCRIPTION_MAX // 2:
        return cut[:sentence].rstrip() + "…"
    if space > DESCRIPTION_MAX // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


async def send_new(interaction: discord.Interaction, reply: Reply, *, public: bool = False) -> None:
    """A new message: ephemeral for the interaction's user (`public`: for the channel),
    whatever was sent before."""
    response = interaction.response
    if not response.is_done():
        await response.send_message(ephemeral=not public, **reply.new_kwargs())
    elif response.type is discord.InteractionResponseType.deferred_channel_message:
        # the loading message becomes the reply (it keeps the defer's visibility)
        await interaction.edit_original_response(**reply.edit_kwargs())
    else:
        await interaction.followup.send(ephemeral=not public, **reply.new_kwargs())


async def send_update(interaction: discord.Interaction, reply: Reply) -> None:
    """Replace the message whose component was used."""
    response = interaction.response
    if not response.is_done():
        await response.edit_message(**reply.edit_kwargs())
    else:
        await interaction.edit_original_response(**reply.edit_kwargs())


async def defer(interaction: discord.Interaction, *, update: bool = False, public: bool = False) -> None:
    if interaction.response.is_done():
        return
    if update and interaction.type is discord.InteractionType.component:
        await interaction.response.defer()  # type 6: the clicked message will be edited
    else:
        await interaction.response.defer(ephemeral=not public, thinking=True)


def after_answer(interaction: discord.Interaction, send: Callable[[], Awaitable[None]]) -> None:
    """Have `send` run once the interaction is answered (by `answer`): a follow-up the work
    decided on, which must come after the answer (a follow-up before it is refused)."""
    interaction.extras[AFTER_ANSWER] = send


async def answer(interaction: discord.Interaction, work: Awaitable[Reply], *,
                 update: bool = False, slow: bool = False, public: bool = False) -> None:
    task = asyncio.ensure_future(work)
    try:
        if slow:
            await defer(interaction, update=update, public=public)
        else:
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done:
                await defer(interaction, update=update, public=public)
        reply = await task
    except BaseException:
        # The defer failed (e.g. the token expired): let the work finish on its own (a move
        # still commits and reaches the channel through the outbox), but never leak errors.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        raise
    if update:
        await send_update(interaction, reply)
    else:
        await send_new(interaction, reply, public=public)
    send = interaction.extras.pop(AFTER_ANSWER, None)
    if send is not None:
        await send()
