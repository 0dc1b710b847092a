"""RailyardBot: the discord.py Bot subclass (RoboDanny's shape).

`setup_hook` opens the Store and the SessionService, starts the render pool (`render_workers`
worker processes that draw and encode the images, render/pool.py; 0 draws them in threads),
installs the command translator (Japanese localizations), registers the restart-proof
components, loads the extension list below and starts the outbox dispatcher; the timer loop lives in the `timers` extension. The
development guild (RAILYARD_DEV_GUILD_ID) gets the commands synced on start; a global sync
only happens through `railyard sync`.

The bot is discord.py's AutoShardedBot: it serves the shards its settings name
(RAILYARD_SHARD_IDS of RAILYARD_SHARD_COUNT, or `railyard run --shard-ids/--shard-count`), or
with neither every shard Discord recommends, in this one process. Nothing else depends on the
shard an interaction came on: every answer and post is a REST call, which works from any
process, and the games live in the shared database.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord import ids, where
from bot.discord.errors import UserError, report_error
from bot.discord.orders import on_order_component
from bot.discord.outbox import OutboxDispatcher
from bot.discord.outbox_messages import OutboxMessages
from bot.discord.play import on_component
from bot.discord.text import CatalogTranslator
from bot.discord.ui.components import GameButton, GameSelect
from bot.sessions import Outcome, SessionService
from render import pick as pick_render
from render import pool as render_pool
from render.pool import RenderPool
from bot.store import StoreBackend, open_store
from bot.web import Signer, WebTable, web_secret

log = logging.getLogger("railyard.discord")

INITIAL_EXTENSIONS: tuple[str, ...] = (
    "bot.discord.cogs.game",
    "bot.discord.cogs.move",
    "bot.discord.cogs.orders",
    "bot.discord.cogs.me",
    "bot.discord.cogs.community",
    "bot.discord.cogs.timers",
    "bot.discord.cogs.housekeeping",
)

ALLOWED_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)

# Discord lets a bot start one gateway session per 5 seconds (max_concurrency 1): the pause
# before each IDENTIFY after this process's first, as discord.py's default hook makes it.
IDENTIFY_INTERVAL = 5.0


class RailyardTree(app_commands.CommandTree):
    """The command tree with the one error handler, and the runtime side of where each
    command may be used (bot/discord/where.py)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A command used where its declaration does not allow it (a registration older than
        this release let Discord offer it there) is refused with a message saying where it
        works, and does nothing."""
        command = interaction.command
        if command is None:
            return True
        reason = where.refusal(command, interaction)
        if reason is None:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await report_error(interaction, UserError(reason))
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


class RailyardBot(commands.AutoShardedBot):
    store: StoreBackend
    service: SessionService
    outbox: OutboxDispatcher

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], int] | None = None,
        background: bool = True,
        sync_dev_guild: bool = True,
        commands_only: bool = False,
        identify_interval: float = IDENTIFY_INTERVAL,
        render_workers: int = 0,
        **options: Any,
    ) -> None:
        if settings.shard_count is not None:  # else discord.py asks Discord how many (/gateway/bot)
            options.setdefault("shard_count", settings.shard_count)
            if settings.shard_ids is not None:  # else all of them: 0 .. count - 1
                options.setdefault("shard_ids", list(settings.shard_ids))
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; slash commands need no other intent
        options.setdefault("max_ratelimit_timeout", 30.0)  # longer waits come back to the outbox
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=ALLOWED_MENTIONS,
            tree_cls=RailyardTree,
            **options,
        )
        self.settings = settings
        self.clock = clock
        self._new_seed = new_seed
        self.background = background  # start the outbox and timer loops (tests may not)
        self.sync_dev_guild = sync_dev_guild
        self.commands_only = commands_only  # `railyard sync`: no database, no loops
        self.identify_interval = identify_interval  # a loopback Discord needs no pause
        # worker processes that draw and encode the images (render/pool.py); 0: threads
        self.render_workers = render_workers
        self.render_pool = RenderPool(0)
        self._bot_runs: dict[int, asyncio.Task[None]] = {}
        self._bot_again: set[int] = set()
        self.web: WebTable | None = None  # the web table (bot/web), when RAILYARD_WEB_URL is set

    # ------------------------------------------------------------------ startup
    async def setup_hook(self) -> None:
        if self.commands_only:
            self.background = False
        else:
            self.store = await open_store(self.settings.database_url.get_secret_value(), clock=self.clock)
            self.service = SessionService(self.store, clock=self.clock, new_seed=self._new_seed,
                                          lease=self.settings.lease_seconds)
            self.render_pool = RenderPool(self.render_workers)
            self.render_pool.start()  # the workers warm up while the bot logs in
            render_pool.install(self.render_pool)
            # turn posts and picks locate places in this process: load the renderers meanwhile
            self._warming = asyncio.ensure_future(asyncio.to_thread(pick_render.warm))
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(GameButton, GameSelect)
        for extension in INITIAL_EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("failed to load extension %s", extension)
                raise
        self.outbox = OutboxDispatcher(self, OutboxMessages(self))
        if self.background:
            self.outbox.start()
        if self.settings.web_url and not self.commands_only:
            await self.start_web()
        if self.settings.dev_guild_id and self.sync_dev_guild and not self.commands_only:
            synced = await self.sync_commands(self.settings.dev_guild_id)
            log.info("synced %d commands to the development guild %s", len(synced), self.settings.dev_guild_id)

    async def start_web(self) -> WebTable:
        """Serve the web table (bot/web) on RAILYARD_WEB_HOST:RAILYARD_WEB_PORT; a move made there
        is posted and answered by the bots as a move made in Discord is."""
        settings = self.settings
        assert settings.web_url
        secret = settings.web_secret.get_secret_value() if settings.web_secret is not None else None
        self.web = WebTable(self.service, base_url=settings.web_url, host=settings.web_host, port=settings.web_port,
                            signer=Signer(web_secret(secret, settings.token.get_secret_value())),
                            link_hours=settings.web_link_hours, clock=self.clock, on_commit=self.after_commit)
        await self.web.start()
        return self.web

    async def sync_commands(self, guild_id: int | None = None) -> list[app_commands.AppCommand]:
        """Register the slash commands: in one guild (instant) or globally (`railyard sync`)."""
        if guild_id is None:
            return await self.tree.sync()
        guild = discord.Object(guild_id)
        self.tree.copy_global_to(guild=guild)
        return await self.tree.sync(guild=guild)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial and self.identify_interval > 0:
            await asyncio.sleep(self.identify_interval)

    @property
    def served_shards(self) -> tuple[int, ...]:
        """The shard ids this process serves (empty until Discord said how many, when the
        settings name none)."""
        if self.shard_ids is not None:
            return tuple(self.shard_ids)
        return tuple(range(self.shard_count or 0))

    def shards_text(self) -> str:
        ids = self.served_shards
        if not ids:
            return "the shards Discord recommends"
        return f"shard{'s' if len(ids) > 1 else ''} {_ranges(ids)} of {self.shard_count}"

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) to %d servers on %s", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds), self.shards_text())

    async def on_game_component(self, interaction: discord.Interaction, ref: Any, values: list[str]) -> None:
        """Every Railyard button and select lands here (see bot.discord.ui.components)."""
        if ref is not None and ref.verb in ids.ORDER_VERBS:
            await on_order_component(interaction, ref, values)
        else:
            await on_component(interaction, ref, values)

    # ------------------------------------------------------------------ after a change
    def after_commit(self, outcome: Outcome | None) -> None:
        """A change was committed: post it (outbox) and let bots move if it is their turn."""
        if outcome is None:
            return
        if self.web is not None:
            self.web.notify(outcome.game_id)
        if outcome.bots_next and outcome.status == "active":
            # the posts wait for the bots: a run of bot moves then goes out as one step of
            # the live board (bot/sessions/live.py) instead of an edit per move
            self.run_bots_soon(outcome.game_id)
        else:
            self.outbox.wake()

    def run_bots_soon(self, game_id: int) -> None:
        """Let the game's automatic moves (bots, standing orders) run in the background."""
        running = self._bot_runs.get(game_id)
        if running is not None and not running.done():
            self._bot_again.add(game_id)  # it will look again when it is done
            return
        self._bot_runs[game_id] = asyncio.create_task(self._run_bots(game_id), name=f"railyard-bots-{game_id}")

    async def _run_bots(self, game_id: int) -> None:
        try:
            while True:
                self._bot_again.discard(game_id)
                while True:
                    moved = await self.service.run_bots(game_id, limit=1)
                    if not moved:
                        break
                    if self.web is not None:
                        self.web.notify(game_id)
                    await asyncio.sleep(0)
                if game_id not in self._bot_again:
                    break
        except Exception:  # noqa: BLE001
            log.exception("bots of game %s could not move", game_id)
        finally:
            self._bot_runs.pop(game_id, None)
            self.outbox.wake()

    async def bots_done(self, game_id: int, timeout: float) -> None:
        """Wait (at most `timeout` seconds) until the game's automatic moves running in this
        process are made."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (task := self._bot_runs.get(game_id)) is not None and not task.done():
            left = end - loop.time()
            if left <= 0:
                return
            await asyncio.wait({task}, timeout=left)

    async def idle(self) -> None:
        """Wait until the bots have moved and every due post is delivered (tests, shutdown)."""
        for _ in range(1000):
            tasks = [t for t in self._bot_runs.values() if not t.done()]
            if tasks:
                await asyncio.gather(*tasks, return_exceptions=True)
            await self.outbox.flush()
            if not any(not t.done() for t in self._bot_runs.values()):
                break

    # ------------------------------------------------------------------ shutdown
    async def close(self) -> None:
        warming = getattr(self, "_warming", None)
        if warming is not None:
            with contextlib.suppress(Exception):
                await warming  # a renderer that fails to load says so when it is used
        if self.web is not None:
            web, self.web = self.web, None
            await web.stop()
        outbox = getattr(self, "outbox", None)
        if outbox is not None:
            await outbox.stop()
        for task in list(self._bot_runs.values()):
            task.cancel()
        for task in list(self._bot_runs.values()):
            with contextlib.suppress(BaseException):
                await task
        await super().close()
        render_pool.uninstall(self.render_pool)
        await self.render_pool.close()  # after the outbox: no picture is being drawn any more
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def _ranges(ids: tuple[int, ...]) -> str:
    """0,1,2,5 -> "0-2,5": the form RAILYARD_SHARD_IDS takes."""
    parts: list[str] = []
    start = prev = ids[0]
    for shard in (*ids[1:], None):
        if shard is not None and shard == prev + 1:
            prev = shard
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if shard is not None:
            start = prev = shard
    return ",".join(parts)
