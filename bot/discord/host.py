"""What the adapter's modules need from the running bot, named as a type.

The outbox, the composer and the click handlers are given the bot (or find it on an
interaction) and use a few of its parts. Typing them against this protocol instead of
RailyardBot keeps them below bot.py in the import order: bot.py builds them, they never
import it back.
"""
from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.config import Settings
from bot.sessions import Outcome, SessionService


class Host(Protocol):
    service: SessionService
    settings: Settings
    outbox: Any  # the OutboxDispatcher (bot/discord/outbox.py): `wake()` after a change writes rows
    web: Any  # the WebTable (bot/web/server.py) when RAILYARD_WEB_URL is set, else None

    def clock(self) -> float: ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    def after_commit(self, outcome: Outcome | None) -> None: ...

    async def bots_done(self, game_id: int, timeout: float) -> None: ...

    async def wait_until_ready(self) -> None: ...

    def get_partial_messageable(self, id: int, **kwargs: Any) -> discord.PartialMessageable: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    @property
    def http(self) -> Any: ...
