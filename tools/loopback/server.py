"""The loopback fake of Discord: REST under /api/v10 plus a gateway websocket.

See the package docstring (``tools/loopback/__init__.py``) for the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from aiohttp import WSMsgType, web

from . import limits
from .limits import Problem
from .models import (
    DM,
    FORUM,
    GROUP_DM,
    PRIVATE_THREAD,
    REQUIRE_TAG,
    PUBLIC_THREAD,
    TEXT,
    CallbackRecord,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeTag,
    FakeUser,
    InteractionResult,
    MessagePayloadRecord,
    RecordedRequest,
    SnowflakeFactory,
    UploadedFile,
    Violation,
    iso,
)

CLOSE_WAIT = 10.0  # seconds a close waits for a peer or a held request before going on

DEFAULT_TOKEN = "fake-discord-token.railyard.tests"
DEFAULT_APPLICATION_ID = 900000000000000001
DEFAULT_OWNER_ID = 900000000000000002

# Discord's gateway close code for an IDENTIFY whose shard is invalid (an id outside the
# count, or a count that disagrees with the bot's other sessions)
CLOSE_INVALID_SHARD = 4010

# gateway intents we look at
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# interaction type -> callback types Discord accepts for it
_ALLOWED_CALLBACKS = {
    1: {1},
    2: {4, 5, 9, 10, 12},
    3: {4, 5, 6, 7, 9, 10, 12},
    4: {8},
    5: {4, 5, 6, 7, 10, 12},
}

_MENTION_RE = re.compile(r"<@!?(\d+)>")

Reply = Tuple[int, Any, Optional[Dict[str, str]]]


class CommandUnavailable(LookupError):
    """A slash command (or its autocomplete) Discord would not offer the user there: not
    registered for that place (`contexts`), or for no install that reaches it
    (`integration_types` against who installed the app). It never reaches the bot."""


def _reply(status: int, data: Any = None, headers: Optional[Dict[str, str]] = None) -> Reply:
    return status, data, headers


def _err(status: int, code: int, message: str, errors: Optional[dict] = None) -> Reply:
    body: Dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return status, body, None


def _truthy(value: Optional[str]) -> bool:
    return (value or "").lower() in ("1", "true", "yes")


def _as_int(value: Any) -> int:
    if isinstance(value, int):
        return value
    if hasattr(value, "id"):
        return int(value.id)
    return int(value)


def _perm_value(value: Any) -> Optional[int]:
    if value is None:
        return None
    if hasattr(value, "value"):
        return int(value.value)
    return int(value)


@dataclass
class _Failure:
    method: str
    pattern: re.Pattern
    route: str
    status: int
    remaining: int
    retry_after: float
    code: Optional[int]
    message: Optional[str]
    is_global: bool
    body: Optional[dict]
    after: bool = False  # handle the request for real, then answer with the failure
    match: Optional[Callable[[RecordedRequest], bool]] = None  # only requests it accepts


class Stall:
    """Requests whose answers are held back (``FakeDiscord.stall``): each is carried out (a
    message IS created) and then not answered until ``release()``, as when Discord did the
    work but its answer is slow to come. The sender waits meanwhile, as long as it would
    for Discord; a test can kill it then, "mid-delivery", at a moment it chose."""

    def __init__(self, method: str, route: str, match: Optional[Callable[[RecordedRequest], bool]],
                 times: int) -> None:
        self.method = method.upper()
        self.route = route
        self.pattern = _template_regex(route)
        self.match = match
        self.remaining = times
        #: the requests held (or held and released), in arrival order
        self.requests: List[RecordedRequest] = []
        self._reached = asyncio.Event()
        self._released = asyncio.Event()

    def _takes(self, method: str, path: str, rec: RecordedRequest) -> bool:
        return (self.remaining > 0 and method == self.method and bool(self.pattern.match(path))
                and (self.match is None or self.match(rec)))

    async def _hold(self, rec: RecordedRequest) -> None:
        self.remaining -= 1
        self.requests.append(rec)
        self._reached.set()
        await self._released.wait()

    @property
    def held(self) -> bool:
        """A request has been taken and its answer is still held."""
        return bool(self.requests) and not self._released.is_set()

    async def reached(self, timeout: float) -> RecordedRequest:
        """The first held request, once one came (asyncio.TimeoutError after ``timeout``)."""
        await asyncio.wait_for(self._reached.wait(), timeout)
        return self.requests[0]

    def release(self) -> None:
        """Answer the held requests (a sender that died meanwhile never reads the answer)."""
        self._released.set()


class _Route:
    def __init__(self, method: str, template: str, handler: Callable[..., Awaitable[Reply]], auth: bool = True):
        self.method = method
        self.template = template
        self.handler = handler
        self.auth = auth
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        self.regex = re.compile("^" + pattern + "$")


def shard_for_guild(guild_id: int, shard_count: int) -> int:
    """The shard that serves a guild: Discord's documented ``(guild_id >> 22) % shard_count``."""
    return (int(guild_id) >> 22) % shard_count


@contextlib.contextmanager
def point_discord_at(api_base: str, gateway_url: str):
    """Point discord.py's REST base and default gateway at a loopback Discord; restored on exit.

    ``api_base`` is the REST root (``http://127.0.0.1:PORT/api/v10``), ``gateway_url`` the
    websocket (``ws://127.0.0.1:PORT/gateway``). Used by ``FakeDiscord.patched()`` in the
    process that runs the fake, and by ``tools.loopback.bot_process`` in another one."""
    import discord.gateway
    import discord.http
    import yarl

    route_cls = discord.http.Route
    ws_cls = discord.gateway.DiscordWebSocket
    if "BASE" not in vars(route_cls) or "DEFAULT_GATEWAY" not in vars(ws_cls):
        raise RuntimeError(
            "discord.py no longer has Route.BASE / DiscordWebSocket.DEFAULT_GATEWAY; the fake harness needs updating"
        )
    old_base, old_gateway = route_cls.BASE, ws_cls.DEFAULT_GATEWAY
    route_cls.BASE = api_base.rstrip("/")
    ws_cls.DEFAULT_GATEWAY = yarl.URL(gateway_url.rstrip("/") + "/")
    try:
        yield
    finally:
        route_cls.BASE = old_base
        ws_cls.DEFAULT_GATEWAY = old_gateway


def _template_regex(route: str) -> re.Pattern:
    parts = re.split(r"\{[^}]*\}", route)
    return re.compile("^" + "[^/]+".join(re.escape(p) for p in parts) + "$")


class GatewaySession:
    """One websocket connection from a client."""

    def __init__(self, fake: "FakeDiscord", ws: web.WebSocketResponse) -> None:
        self.fake = fake
        self.ws = ws
        self.seq = 0
        self.session_id: Optional[str] = None
        self.identified = False
        self.intents = 0
        self.shard: List[int] = [0, 1]
        self.closed = False
        self.identify_payload: Optional[dict] = None
        self._lock = asyncio.Lock()

    @property
    def open(self) -> bool:
        return not self.closed and not self.ws.closed

    async def send(self, op: int, d: Any = None, t: Optional[str] = None) -> None:
        async with self._lock:
            if not self.open:
                return
            payload: Dict[str, Any] = {"op": op, "d": d, "s": None, "t": None}
            if op == 0:
                self.seq += 1
                payload["s"] = self.seq
                payload["t"] = t
                self.fake.gateway_events.append((t, d))
            try:
                await self.ws.send_str(json.dumps(payload))
            except (ConnectionError, RuntimeError):
                self.closed = True

    async def dispatch(self, event: str, data: Any) -> None:
        await self.send(0, data, event)

    @property
    def live(self) -> bool:
        """IDENTIFYed (or RESUMEd) and still connected: events may be sent to it."""
        return self.identified and self.open

    def serves(self, guild_id: Optional[int]) -> bool:
        """Whether Discord would send this session the events of ``guild_id`` (None: a DM,
        which only shard 0 receives)."""
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_for_guild(guild_id, shard_count) == shard_id


class FakeDiscord:
    """A loopback fake of Discord for the real discord.py client.  See package docs."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        application_id: int = DEFAULT_APPLICATION_ID,
        bot_name: str = "Railyard",
        owner_id: int = DEFAULT_OWNER_ID,
        heartbeat_interval_ms: int = 41250,
        ack_deadline: float = limits.ACK_DEADLINE,
        token_lifetime: float = limits.TOKEN_LIFETIME,
        quiet_period: float = 0.3,
        response_timeout: float = 5.0,
        attachment_size_limit: int = limits.DEFAULT_ATTACHMENT_SIZE_LIMIT,
        host: str = "127.0.0.1",
        shards: int = 1,
    ) -> None:
        if shards < 1:
            raise ValueError(f"shards must be 1 or more, not {shards}")
        self.token = token
        #: the shard count /gateway/bot recommends (a client given no count uses it)
        self.shards = shards
        self.application_id = application_id
        self.application_flags = 0
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime
        self.quiet_period = quiet_period
        self.response_timeout = response_timeout
        self.attachment_size_limit = attachment_size_limit
        self.host = host
        self.port: Optional[int] = None

        self._snowflake = SnowflakeFactory()
        self.bot_user = FakeUser(application_id, bot_name, bot=True)
        self.owner = FakeUser(owner_id, "owner")

        # world
        self.users: Dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: Dict[int, FakeGuild] = {}
        self.channels: Dict[int, FakeChannel] = {}
        self._dm_by_user: Dict[int, FakeChannel] = {}
        self._messages: Dict[int, FakeMessage] = {}
        self._attachments: Dict[int, FakeAttachment] = {}

        # records
        self.requests: List[RecordedRequest] = []
        self.unexpected_requests: List[RecordedRequest] = []
        self.violations: List[Violation] = []
        self.interactions: List[InteractionResult] = []
        self.interaction_responses: List[CallbackRecord] = []
        self.message_payloads: List[MessagePayloadRecord] = []
        self.commands: Dict[Optional[int], List[dict]] = {}
        self.command_syncs: List[Tuple[Optional[int], list]] = []
        self.gateway_events: List[Tuple[str, Any]] = []
        self.gateway_received: List[dict] = []
        #: IDENTIFYs closed with 4010 (invalid shard): (the shard asked for, why)
        self.shard_rejections: List[Tuple[Any, str]] = []
        self.injected: List[RecordedRequest] = []
        #: channel posts answered with an earlier message because their nonce repeated one
        #: (``enforce_nonce``): Discord's own guard against a retried post being doubled.
        self.nonce_repeats: List[RecordedRequest] = []
        #: slash commands Discord would not have offered there (CommandUnavailable):
        #: (guild id, channel id, user id, command, why)
        self.refused_commands: List[Tuple[Optional[int], Optional[int], int, str, str]] = []
        #: seconds (fake clock, see advance_time) a nonce is remembered ("the past few
        #: minutes" in Discord's docs)
        self.nonce_window = 300.0
        self._nonces: Dict[Tuple[int, int, str], Tuple[int, float]] = {}

        self._interactions_by_id: Dict[int, InteractionResult] = {}
        self._interactions_by_token: Dict[str, InteractionResult] = {}
        self._command_ids: Dict[Tuple[Optional[int], int, str], int] = {}
        self._command_creates: Dict[Optional[int], int] = {}
        self._failures: List[_Failure] = []
        self._stalls: List[Stall] = []
        self._sessions: List[GatewaySession] = []
        self._known_sessions: Dict[str, GatewaySession] = {}
        self._time_offset = 0.0
        self._inflight = 0
        self._last_activity = 0.0
        self._runner: Optional[web.AppRunner] = None
        self._routes = self._build_routes()

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> "FakeDiscord":
        app = web.Application(client_max_size=256 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_get("/gateway/", self._gateway_handler)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn_handler)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._api_handler)
        app.router.add_route("*", "/{tail:.*}", self._stray_handler)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._last_activity = self._mono()
        return self

    async def close(self) -> None:
        for stall in self._stalls:  # no handler may outlive the fake waiting for a release
            stall.release()
        # Bounded: a client that never answers the close frame, or a request still held open,
        # must not keep the loopback (and a test run) from ending.
        for session in list(self._sessions):
            if not session.ws.closed:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(session.ws.close(code=1001, message=b"fake discord shutting down"),
                                           CLOSE_WAIT)
            session.closed = True
        if self._runner is not None:
            runner, self._runner = self._runner, None
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(runner.cleanup(), CLOSE_WAIT)

    async def __aenter__(self) -> "FakeDiscord":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    @contextlib.contextmanager
    def patched(self):
        """Point discord.py's REST base and default gateway at this fake; always restored."""
        if self.port is None:
            raise RuntimeError("FakeDiscord is not started (use `async with FakeDiscord() as fake`)")
        with point_discord_at(self.api_base, self.gateway_url):
            yield self

    @contextlib.asynccontextmanager
    async def running(self, client: Any, *, token: Optional[str] = None, ready_timeout: float = 10.0):
        """Patch, log ``client`` in, connect it, wait for READY; close it afterwards."""
        with self.patched():
            await client.login(self.token if token is None else token)
            task = asyncio.create_task(client.connect(), name="fake-discord-client-connect")
            try:
                await self.wait_ready(client, timeout=ready_timeout, connect_task=task)
                yield client
            finally:
                with contextlib.suppress(Exception):
                    await client.close()
                try:
                    await asyncio.wait_for(asyncio.shield(task), timeout=5.0)
                except BaseException:  # noqa: BLE001 - never leave the task pending
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task

    async def wait_ready(self, client: Any = None, *, timeout: float = 10.0, connect_task: Optional[asyncio.Task] = None) -> None:
        """Wait until a client has IDENTIFYed and received READY + GUILD_CREATEs.

        With ``client`` also wait for ``client.wait_until_ready()`` (that takes
        ``guild_ready_timeout`` seconds after the last GUILD_CREATE: pass a small
        ``guild_ready_timeout`` to the client in tests).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.active_session is None:
            if connect_task is not None and connect_task.done():
                connect_task.result()  # re-raise the client's error
                raise RuntimeError("client.connect() returned before READY")
            if loop.time() > deadline:
                raise TimeoutError("no client IDENTIFYed with the fake gateway in time")
            await asyncio.sleep(0.01)
        if client is not None:
            waiter = asyncio.ensure_future(client.wait_until_ready())
            pending = {waiter} | ({connect_task} if connect_task is not None else set())
            done, _ = await asyncio.wait(pending, timeout=max(0.0, deadline - loop.time()), return_when=asyncio.FIRST_COMPLETED)
            if waiter not in done:
                waiter.cancel()
                with contextlib.suppress(BaseException):
                    await waiter
                if connect_task is not None and connect_task in done:
                    connect_task.result()
                    raise RuntimeError("client.connect() returned before READY")
                raise TimeoutError("client did not become ready in time")

    # ------------------------------------------------------------------ clock
    def _mono(self) -> float:
        return time.monotonic()

    def now(self) -> float:
        """The fake clock (monotonic seconds, moved on by ``advance_time``)."""
        return time.monotonic() + self._time_offset

    def advance_time(self, seconds: float) -> None:
        """Move the fake clock forward (token lifetimes, ack deadlines)."""
        self._time_offset += seconds

    def _touch(self) -> None:
        self._last_activity = self._mono()

    # ------------------------------------------------------------------ world building
    def add_user(self, user_id: int, name: Optional[str] = None, *, dm_closed: bool = False, bot: bool = False,
                 global_name: Optional[str] = None, installed: Optional[bool] = None) -> FakeUser:
        user = self.users.get(user_id)
        if user is None:
            user = FakeUser(user_id, name or f"user{user_id}", global_name=global_name, bot=bot, dm_closed=dm_closed,
                            installed=bool(installed))
            self.users[user_id] = user
        else:
            if name:
                user.name = name
            user.dm_closed = dm_closed
            user.bot = bot
            if global_name is not None:
                user.global_name = global_name
            if installed is not None:
                user.installed = installed
        return user

    def install_app(self, user_id: int, installed: bool = True) -> FakeUser:
        """The user installs the app to their account (USER_INSTALL), or removes it."""
        user = self.users.get(user_id) or self.add_user(user_id)
        user.installed = installed
        return user

    def add_group_dm(self, channel_id: int, recipients: Sequence[int], *, name: str = "",
                     owner_id: Optional[int] = None) -> FakeChannel:
        """A group DM of ``recipients`` (user ids, added as users if new). The bot is never in
        one: it gets the interactions of people who installed the app there and answers them,
        and nothing else (a post of its own is refused 403 50001)."""
        people = [self.users.get(int(u)) or self.add_user(int(u)) for u in recipients]
        channel = FakeChannel(channel_id, name, type=GROUP_DM, recipients=people,
                              owner_id=owner_id or (people[0].id if people else None))
        self.channels[channel_id] = channel
        return channel

    def set_dm_closed(self, user_id: int, closed: bool = True) -> None:
        self.users[user_id].dm_closed = closed

    def add_guild(
        self,
        guild_id: int,
        name: str = "Test Guild",
        *,
        channels: Optional[Sequence[Union[int, Mapping[str, Any]]]] = None,
        members: Optional[Sequence[Union[int, Mapping[str, Any]]]] = None,
        roles: Optional[Sequence[Mapping[str, Any]]] = None,
        locale: str = "en-US",
        owner_id: Optional[int] = None,
        everyone_permissions: int = limits.DEFAULT_MEMBER_PERMISSIONS,
        app_permissions: int = limits.DEFAULT_APP_PERMISSIONS,
        installed: bool = True,
    ) -> FakeGuild:
        """Add a guild.  ``channels``: ids (text channels) or dicts {id, name, type, parent_id,
        topic, archived, locked, flags, available_tags} (a forum: ``type=FORUM``, tags as dicts
        {id?, name, moderated, emoji_name}, ``flags=REQUIRE_TAG``); ``members``: user ids or dicts {id,
        name, roles, nick, permissions}; ``roles``: dicts {id, name, permissions}.  The bot is a
        member unless ``installed=False``: a server the app is not installed to, whose members reach
        it only through their own installs (the client never hears of it: no GUILD_CREATE, no events;
        the bot's requests about it are refused 403 50001)."""
        guild = FakeGuild(guild_id, name, locale=locale, owner_id=owner_id or self.owner.id, app_permissions=app_permissions,
                          installed=installed)
        guild.roles[guild_id] = FakeRole(guild_id, "@everyone", permissions=everyone_permissions)
        for i, spec in enumerate(roles or []):
            role = FakeRole(int(spec["id"]), spec.get("name", f"role{i}"), permissions=int(spec.get("permissions", 0)),
                            position=spec.get("position", i + 1), mentionable=spec.get("mentionable", False))
            guild.roles[role.id] = role
        self.guilds[guild_id] = guild
        for i, spec in enumerate(channels if channels is not None else [guild_id + 1]):
            if isinstance(spec, Mapping):
                channel = self._new_channel(guild, int(spec["id"]), spec.get("name"), type=spec.get("type", TEXT),
                                            parent_id=spec.get("parent_id"), topic=spec.get("topic"), position=i,
                                            archived=spec.get("archived", False), locked=spec.get("locked", False),
                                            flags=int(spec.get("flags", 0)))
                channel.available_tags = [self._new_tag(t) for t in spec.get("available_tags") or []]
            else:
                self._new_channel(guild, int(spec), None, position=i)
        if installed:
            self._add_member_obj(guild, self.bot_user, roles=[], nick=None, permissions=None)
        self._add_member_obj(guild, self.owner, roles=[], nick=None, permissions=None)
        for spec in members or []:
            self._add_member_spec(guild, spec)
        return guild

    def _add_member_spec(self, guild: FakeGuild, spec: Union[int, Mapping[str, Any]]) -> FakeMember:
        if isinstance(spec, Mapping):
            user = self.add_user(int(spec["id"]), spec.get("name"), dm_closed=spec.get("dm_closed", False),
                                 bot=spec.get("bot", False)) if int(spec["id"]) not in self.users else self.users[int(spec["id"])]
            if spec.get("name"):
                user.name = spec["name"]
            return self._add_member_obj(guild, user, roles=[int(r) for r in spec.get("roles", [])], nick=spec.get("nick"),
                                        permissions=_perm_value(spec.get("permissions")))
        user = self.users.get(int(spec)) or self.add_user(int(spec))
        return self._add_member_obj(guild, user, roles=[], nick=None, permissions=None)

    def _add_member_obj(self, guild: FakeGuild, user: FakeUser, *, roles, nick, permissions) -> FakeMember:
        member = FakeMember(user, guild.id, roles=list(roles), nick=nick, permissions=permissions)
        guild.members[user.id] = member
        return member

    def add_member(self, guild_id: int, user_id: int, *, roles: Iterable[int] = (), nick: Optional[str] = None,
                   permissions: Any = None, name: Optional[str] = None) -> FakeMember:
        guild = self.guilds[guild_id]
        user = self.users.get(user_id) or self.add_user(user_id, name)
        return self._add_member_obj(guild, user, roles=list(roles), nick=nick, permissions=_perm_value(permissions))

    def _new_channel(self, guild: FakeGuild, channel_id: int, name: Optional[str], **kw: Any) -> FakeChannel:
        channel = FakeChannel(channel_id, name or f"channel-{channel_id}", guild_id=guild.id, outside=not guild.installed, **kw)
        if channel.is_thread and channel.owner_id is None:
            channel.owner_id = self.bot_user.id
        guild.channels[channel_id] = channel
        self.channels[channel_id] = channel
        return channel

    async def add_channel(self, guild_id: int, channel_id: int, name: Optional[str] = None, *, type: int = TEXT,
                          parent_id: Optional[int] = None) -> FakeChannel:
        """Add a channel (or thread) later; connected clients get CHANNEL_CREATE / THREAD_CREATE."""
        channel = self._new_channel(self.guilds[guild_id], channel_id, name, type=type, parent_id=parent_id,
                                    position=len(self.guilds[guild_id].channels))
        if channel.is_thread:
            await self._broadcast("THREAD_CREATE", dict(channel.payload(), newly_created=True))
        else:
            await self._broadcast("CHANNEL_CREATE", channel.payload())
        return channel

    async def delete_channel(self, channel_id: int) -> None:
        """Someone deleted the channel (or thread): it is gone from the world, the client
        hears CHANNEL_DELETE / THREAD_DELETE, and every request to it gets 404 10003. A
        channel's threads go with it (Discord deletes them too)."""
        await self._remove_channel(self.channels[channel_id])

    async def _remove_channel(self, channel: FakeChannel) -> None:
        self.channels.pop(channel.id, None)
        if channel.guild_id is not None:
            self.guilds[channel.guild_id].channels.pop(channel.id, None)
        if channel.is_thread:
            await self._broadcast("THREAD_DELETE", {"id": str(channel.id), "guild_id": str(channel.guild_id),
                                                    "parent_id": str(channel.parent_id), "type": channel.type})
            return
        await self._broadcast("CHANNEL_DELETE", channel.payload())
        for thread in [c for c in self.channels.values() if c.is_thread and c.parent_id == channel.id]:
            self.channels.pop(thread.id, None)
            if thread.guild_id is not None:
                self.guilds[thread.guild_id].channels.pop(thread.id, None)

    def _new_tag(self, spec: Mapping[str, Any]) -> FakeTag:
        return FakeTag(int(spec.get("id") or self._snowflake()), str(spec["name"]), moderated=bool(spec.get("moderated")),
                       emoji_id=int(spec["emoji_id"]) if spec.get("emoji_id") else None,
                       emoji_name=spec.get("emoji_name"))

    async def set_forum(self, forum_id: int, *, tags: Optional[Sequence[Mapping[str, Any]]] = None,
                        flags: Optional[int] = None) -> FakeChannel:
        """Someone who manages the forum changed its tags (dicts {id?, name, moderated,
        emoji_name}; a tag kept gives its id) or its flags (REQUIRE_TAG): the client hears
        CHANNEL_UPDATE. Tags that go are taken off the forum's posts, as Discord does."""
        forum = self.channels[forum_id]
        if tags is not None:
            forum.available_tags = [self._new_tag(t) for t in tags]
            self._drop_unknown_tags(forum)
        if flags is not None:
            forum.flags = flags
        await self._broadcast("CHANNEL_UPDATE", forum.payload())
        return forum

    def _drop_unknown_tags(self, forum: FakeChannel) -> None:
        known = {t.id for t in forum.available_tags}
        for post in self.channels.values():
            if post.is_thread and post.parent_id == forum.id:
                post.applied_tags = [t for t in post.applied_tags if t in known]

    # ------------------------------------------------------------------ the bot's permissions
    async def deny_bot(self, channel_id: int, *permissions: str) -> None:
        """Give the channel a permission overwrite for the bot that denies ``permissions``
        (discord.py names, e.g. "send_messages", "attach_files"); no names lifts it. The
        client hears CHANNEL_UPDATE (so its cached ``permissions_for`` agrees) and posts
        that need a denied permission get 403 like Discord's (50001 without view_channel,
        else 50013 Missing Permissions). Threads follow their parent's overwrite."""
        channel = self.channels[channel_id]
        channel.overwrites = [o for o in channel.overwrites if o["id"] != str(self.bot_user.id)]
        if permissions:
            channel.overwrites.append({"id": str(self.bot_user.id), "type": 1, "allow": "0",
                                       "deny": str(limits.permission_value(*permissions))})
        await self._broadcast("CHANNEL_UPDATE", channel.payload())

    def _bot_denied(self, channel: FakeChannel) -> int:
        source = self.channels.get(channel.parent_id) if channel.is_thread and channel.parent_id else channel
        denied = 0
        for overwrite in (source.overwrites if source is not None else []):
            if overwrite["id"] == str(self.bot_user.id):
                denied |= int(overwrite["deny"])
        return denied

    def _bot_has(self, channel: FakeChannel, *permissions: str) -> bool:
        """Has the bot these permissions in the channel (a thread: its parent's): the guild's
        app permissions, with the bot's own overwrite there (``deny_bot``)?"""
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        if guild is None:
            return True
        if guild.app_permissions & limits.PERMISSIONS["administrator"]:
            return True
        wanted = limits.permission_value(*permissions)
        return (guild.app_permissions & ~self._bot_denied(channel)) & wanted == wanted

    def _bot_permission_problem(self, channel: FakeChannel, payload: dict, rec: RecordedRequest) -> Optional[Reply]:
        if channel.type == DM:
            return None
        denied = self._bot_denied(channel)
        if not denied:
            return None
        send = "send_messages_in_threads" if channel.is_thread else "send_messages"
        if denied & limits.permission_value("view_channel"):
            return _err(403, 50001, "Missing Access")
        if denied & limits.permission_value(send) or (rec.files and denied & limits.permission_value("attach_files")):
            return _err(403, 50013, "Missing Permissions")
        return None

    # ------------------------------------------------------------------ failure injection
    def fail_next(
        self,
        method: str,
        route: str,
        status: int = 500,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        code: Optional[int] = None,
        message: Optional[str] = None,
        is_global: bool = False,
        body: Optional[dict] = None,
        after: bool = False,
        match: Optional[Callable[[RecordedRequest], bool]] = None,
    ) -> None:
        """Answer the next ``times`` matching requests with ``status``.

        ``after=True`` models a lost response: the request is carried out (the message
        IS created) and only then answered with the failure, as when Discord times out
        after doing the work. The client's retry is then a true duplicate (see nonces).
        ``match`` narrows it further: only requests for which it returns True (e.g. the
        DM channel of one user, once the bot has opened it) count.

        ``route`` is a path below /api/v10, either concrete (``/channels/5/messages``)
        or a template whose ``{...}`` parts match one path segment
        (``/channels/{id}/messages``).  429 answers carry ``retry_after`` in the
        JSON and the headers discord.py needs (``Via``, ``X-RateLimit-*``).
        """
        self._failures.append(
            _Failure(method.upper(), _template_regex(route), route, status, times, retry_after, code, message, is_global, body,
                     after, match)
        )

    def _take_failure(self, method: str, path: str, rec: Optional[RecordedRequest] = None, *,
                      after: bool = False) -> Optional[Reply]:
        for failure in self._failures:
            if (failure.remaining > 0 and failure.after == after and failure.method == method
                    and failure.pattern.match(path)
                    and (failure.match is None or (rec is not None and failure.match(rec)))):
                failure.remaining -= 1
                if failure.status == 429:
                    scope = "global" if failure.is_global else "user"
                    headers = {
                        "Via": "1.1 google",
                        "Retry-After": str(max(1, math.ceil(failure.retry_after))),
                        "X-RateLimit-Limit": "1",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset": f"{time.time() + failure.retry_after:.3f}",
                        "X-RateLimit-Reset-After": f"{failure.retry_after:.3f}",
                        "X-RateLimit-Bucket": "fake-" + failure.route.replace("/", "_"),
                        "X-RateLimit-Scope": scope,
                    }
                    if failure.is_global:
                        headers["X-RateLimit-Global"] = "true"
                    body = failure.body or {
                        "message": failure.message or "You are being rate limited.",
                        "retry_after": failure.retry_after,
                        "global": failure.is_global,
                        "code": failure.code or 0,
                    }
                    return _reply(429, body, headers)
                body = failure.body or {"code": failure.code or 0, "message": failure.message or f"{failure.status}: injected failure"}
                return _reply(failure.status, body)
        return None

    def stall(self, method: str, route: str, *, times: int = 1,
              match: Optional[Callable[[RecordedRequest], bool]] = None) -> Stall:
        """Hold back the answers to the next ``times`` successful requests matching ``method``
        and ``route`` (concrete or a ``{...}`` template; ``match`` narrows it further) until
        the returned ``Stall`` is released. The requests are carried out first. A held
        answer is not activity: ``settle`` and the quiet periods do not wait for it."""
        stall = Stall(method, route, match, times)
        self._stalls.append(stall)
        return stall

    @property
    def pending_failures(self) -> List[Tuple[str, str, int, int]]:
        return [(f.method, f.route, f.status, f.remaining) for f in self._failures if f.remaining > 0]

    # ------------------------------------------------------------------ violations
    def _violate(self, rule: str, message: str, rec: Optional[RecordedRequest] = None, detail: Any = None) -> None:
        self.violations.append(
            Violation(rule, message, rec.method if rec else "", rec.path if rec else "", detail)
        )

    def _reject(self, rec: RecordedRequest, problems: Sequence[Problem]) -> Reply:
        for problem in problems:
            self._violate(problem.rule, problem.describe(), rec, problem)
        return _reply(400, limits.invalid_form_body(problems))

    def _file_problems(self, rec: RecordedRequest) -> Optional[Reply]:
        too_big = [f for f in rec.files if f.size > self.attachment_size_limit]
        if too_big:
            for f in too_big:
                self._violate("file_size", f"{f.filename} is {f.size} bytes > attachment_size_limit {self.attachment_size_limit}", rec)
            return _err(413, 40005, "Request entity too large")
        return None

    def assert_no_violations(self) -> None:
        if self.violations:
            raise AssertionError("Discord limit violations:\n" + "\n".join(f"  {v}" for v in self.violations))

    def assert_no_unexpected_requests(self) -> None:
        if self.unexpected_requests:
            raise AssertionError("Requests the fake does not model:\n" + "\n".join(f"  {r.method} {r.path}" for r in self.unexpected_requests))

    def assert_clean(self) -> None:
        """No violations and no unexpected requests."""
        self.assert_no_violations()
        self.assert_no_unexpected_requests()

    def mass_mention_risks(self) -> List[MessagePayloadRecord]:
        """Message creations with content whose allowed_mentions would let @everyone/@here/roles ping.

        A message without ``allowed_mentions`` counts (Discord then parses every mention);
        set ``allowed_mentions=discord.AllowedMentions(everyone=False, roles=False)`` on the client.
        """
        return [p for p in self.message_payloads
                if p.kind == "create" and p.payload.get("content") and limits.check_allowed_mentions(p.payload)]

    # ------------------------------------------------------------------ inspection helpers
    def messages(self, channel_id: Optional[int] = None, *, ephemeral: Optional[bool] = None,
                 include_deleted: bool = False) -> List[FakeMessage]:
        """Messages in creation order, optionally for one channel / only (non-)ephemeral."""
        out = []
        for msg in self._messages.values():
            if channel_id is not None and msg.channel_id != channel_id:
                continue
            if ephemeral is not None and msg.ephemeral != ephemeral:
                continue
            if msg.deleted and not include_deleted:
                continue
            out.append(msg)
        return out

    def message(self, message_id: int) -> FakeMessage:
        return self._messages[int(message_id)]

    def dm_channel(self, user_id: int) -> Optional[FakeChannel]:
        return self._dm_by_user.get(user_id)

    def dm_messages(self, user_id: int) -> List[FakeMessage]:
        channel = self._dm_by_user.get(user_id)
        return self.messages(channel.id) if channel else []

    def public_payloads(self) -> List[MessagePayloadRecord]:
        return [p for p in self.message_payloads if not p.ephemeral]

    def ephemeral_payloads(self) -> List[MessagePayloadRecord]:
        return [p for p in self.message_payloads if p.ephemeral]

    def requests_to(self, method: str, route: str) -> List[RecordedRequest]:
        """Recorded requests matching a method and a concrete path or ``{...}`` template."""
        regex = _template_regex(route)
        return [r for r in self.requests if r.method == method.upper() and regex.match(r.path)]

    @property
    def last_interaction(self) -> Optional[InteractionResult]:
        return self.interactions[-1] if self.interactions else None

    @property
    def active_session(self) -> Optional[GatewaySession]:
        for session in reversed(self._sessions):
            if session.live:
                return session
        return None

    @property
    def live_sessions(self) -> List[GatewaySession]:
        """Every connected, IDENTIFYed session, oldest first."""
        return [s for s in self._sessions if s.live]

    @property
    def live_shards(self) -> List[Tuple[int, int]]:
        """``(shard_id, shard_count)`` of every live session, sorted."""
        return sorted((s.shard[0], s.shard[1]) for s in self.live_sessions)

    def session_for(self, guild_id: Optional[int]) -> Optional[GatewaySession]:
        """The live session that gets ``guild_id``'s interactions (None: a DM), the newest if
        several serve its shard; None if no connected client serves that shard."""
        for session in reversed(self._sessions):
            if session.live and session.serves(guild_id):
                return session
        return None

    @staticmethod
    def shard_of(guild_id: int, shard_count: int) -> int:
        """Which of ``shard_count`` shards serves ``guild_id`` (Discord's formula)."""
        return shard_for_guild(guild_id, shard_count)

    def guild_id_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A guild id not used yet (nor its default channel ``id + 1``) that lands on
        ``shard_id`` of ``shard_count``: for tests that need guilds on different shards."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of 0..{shard_count - 1}")
        # the part above the low 22 bits is a snowflake's timestamp: start at a plausible one
        stamp = 1 << 40
        stamp += (shard_id - stamp) % shard_count
        while True:
            guild_id = stamp << 22
            if guild_id not in self.guilds and not {guild_id, guild_id + 1} & self.channels.keys():
                return guild_id
            stamp += shard_count

    @property
    def identify_payloads(self) -> List[dict]:
        return [s.identify_payload for s in self._sessions if s.identify_payload is not None]

    async def settle(self, *, quiet: Optional[float] = None, timeout: Optional[float] = None) -> None:
        """Wait until no REST request has arrived for ``quiet`` seconds (or ``timeout``)."""
        quiet = self.quiet_period if quiet is None else quiet
        end = self._mono() + (self.response_timeout if timeout is None else timeout)
        while self._mono() < end:
            idle = self._mono() - self._last_activity
            if self._inflight == 0 and idle >= quiet:
                return
            await asyncio.sleep(max(0.005, min(quiet - idle, 0.05)))

    # ------------------------------------------------------------------ HTTP plumbing
    def _build_routes(self) -> List[_Route]:
        r = _Route
        return [
            r("GET", "/users/@me", self._h_me),
            r("GET", "/users/{user_id}", self._h_get_user),
            r("POST", "/users/@me/channels", self._h_create_dm),
            r("GET", "/oauth2/applications/@me", self._h_app_info),
            r("GET", "/applications/@me", self._h_app_info),
            r("GET", "/gateway", self._h_gateway, auth=False),
            r("GET", "/gateway/bot", self._h_gateway_bot),
            r("GET", "/applications/{application_id}/commands", self._h_get_commands),
            r("PUT", "/applications/{application_id}/commands", self._h_put_commands),
            r("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._h_get_commands),
            r("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._h_put_commands),
            r("POST", "/interactions/{interaction_id}/{token}/callback", self._h_callback, auth=False),
            r("POST", "/webhooks/{application_id}/{token}", self._h_followup, auth=False),
            r("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_webhook_message, auth=False),
            r("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_webhook_message, auth=False),
            r("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_webhook_message, auth=False),
            r("GET", "/channels/{channel_id}", self._h_get_channel),
            r("PATCH", "/channels/{channel_id}", self._h_patch_channel),
            r("DELETE", "/channels/{channel_id}", self._h_delete_channel),
            r("GET", "/channels/{channel_id}/messages", self._h_list_messages),
            r("POST", "/channels/{channel_id}/messages", self._h_post_message),
            r("GET", "/channels/{channel_id}/messages/{message_id}", self._h_channel_message),
            r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._h_channel_message),
            r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._h_channel_message),
            r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._h_reaction),
            r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._h_reaction),
            r("POST", "/channels/{channel_id}/typing", self._h_typing),
            r("POST", "/channels/{channel_id}/threads", self._h_create_thread),
            r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._h_create_thread),
            r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._h_thread_member),
            r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._h_thread_member),
            r("GET", "/guilds/{guild_id}", self._h_get_guild),
            r("GET", "/guilds/{guild_id}/channels", self._h_guild_channels),
            r("GET", "/guilds/{guild_id}/members/{user_id}", self._h_guild_member),
        ]

    def _match(self, method: str, path: str) -> Tuple[Optional[_Route], Dict[str, str]]:
        for route in self._routes:
            if route.method != method:
                continue
            m = route.regex.match(path)
            if m:
                return route, m.groupdict()
        return None, {}

    async def _read_body(self, request: web.Request) -> Tuple[Any, List[UploadedFile]]:
        ctype = request.headers.get("Content-Type", "")
        files: List[UploadedFile] = []
        if ctype.startswith("multipart/"):
            payload = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                data = await part.read(decode=False)
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(bytes(data).decode("utf-8"))
                elif part.filename is not None or name.startswith("files["):
                    files.append(
                        UploadedFile(name, part.filename or name, part.headers.get("Content-Type", "application/octet-stream"), bytes(data))
                    )
                else:  # plain form field
                    payload = payload or {}
                    payload[name] = bytes(data).decode("utf-8")
            return payload, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw.decode("utf-8")), files
        except (ValueError, UnicodeDecodeError):
            return raw, files

    @staticmethod
    def _to_response(reply: Reply) -> web.Response:
        status, data, headers = reply
        out_headers = dict(headers or {})
        if status == 204 or data is None:
            return web.Response(status=status, headers=out_headers)
        out_headers["Content-Type"] = "application/json"  # exactly; discord.py checks equality
        return web.Response(status=status, body=json.dumps(data).encode("utf-8"), headers=out_headers)

    async def _api_handler(self, request: web.Request) -> web.Response:
        self._inflight += 1
        self._touch()
        try:
            path = "/" + request.match_info["tail"]
            method = request.method
            body, files = await self._read_body(request)
            rec = RecordedRequest(method, path, None, dict(request.query), body, files, dict(request.headers), self.now())
            self.requests.append(rec)
            route, params = self._match(method, path)
            if route is None:
                self.unexpected_requests.append(rec)
                reply = _err(404, 0, f"fake_discord does not model {method} {path} (add a route in tools/loopback/server.py)")
            else:
                rec.route = route.template
                injected = self._take_failure(method, path, rec)
                if injected is not None:
                    self.injected.append(rec)
                    reply = injected
                elif route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    reply = _err(401, 0, "401: Unauthorized")
                else:
                    reply = await route.handler(rec, **params)
                    stall = next((st for st in self._stalls if 200 <= reply[0] < 300 and st._takes(method, path, rec)),
                                 None)
                    if stall is not None:
                        self._inflight -= 1
                        try:
                            await stall._hold(rec)
                        finally:
                            self._inflight += 1
                    if 200 <= reply[0] < 300:
                        lost = self._take_failure(method, path, rec, after=True)
                        if lost is not None:
                            self.injected.append(rec)
                            rec.handled_status = reply[0]
                            reply = lost
            rec.status, rec.response = reply[0], reply[1]
            return self._to_response(reply)
        finally:
            self._inflight -= 1
            self._touch()

    async def _stray_handler(self, request: web.Request) -> web.Response:
        rec = RecordedRequest(request.method, request.path, None, dict(request.query), None, [], dict(request.headers), self.now(), 404)
        self.requests.append(rec)
        self.unexpected_requests.append(rec)
        return self._to_response(_err(404, 0, f"fake_discord: {request.method} {request.path} is outside /api/v10"))

    async def _cdn_handler(self, request: web.Request) -> web.Response:
        attachment = self._attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})

    # ------------------------------------------------------------------ gateway
    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(self, ws)
        self._sessions.append(session)
        try:
            await session.send(10, {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-discord"]})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_gateway_message(session, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            session.closed = True
        return ws

    async def _on_gateway_message(self, session: GatewaySession, msg: dict) -> None:
        self.gateway_received.append(msg)
        op, d = msg.get("op"), msg.get("d")
        if op == 1:
            await session.send(11)
        elif op == 2:
            if (d or {}).get("token") != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = d.get("shard") or [0, 1]
            problem = self._shard_problem(shard)
            if problem is not None:
                self.shard_rejections.append((shard, problem))
                session.closed = True
                await session.ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
                return
            session.identify_payload = d
            session.intents = int(d.get("intents", 0) or 0)
            session.shard = [int(shard[0]), int(shard[1])]
            session.session_id = uuid.uuid4().hex
            self._known_sessions[session.session_id] = session
            await session.dispatch("READY", self._ready_payload(session))
            for guild in self.guilds.values():
                if guild.installed and session.serves(guild.id):
                    await session.dispatch("GUILD_CREATE", self._guild_create_payload(guild, session))
            session.identified = True
        elif op == 6:
            old = self._known_sessions.get((d or {}).get("session_id"))
            if old is None or (d or {}).get("token") != self.token:
                await session.send(9, False)
                return
            session.session_id = old.session_id
            session.shard = list(old.shard)
            session.intents = old.intents
            session.identify_payload = old.identify_payload
            session.seq = old.seq
            self._known_sessions[session.session_id] = session
            session.identified = True
            await session.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        elif op == 8:
            await self._member_chunk(session, d or {})
        # op 3 (presence), 4 (voice) etc. are recorded only

    def _shard_problem(self, shard: Any) -> Optional[str]:
        """Why Discord would refuse an IDENTIFY's ``[shard_id, shard_count]`` (None: fine)."""
        if (not isinstance(shard, (list, tuple)) or len(shard) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in shard)):
            return f"shard must be [shard_id, shard_count], not {shard!r}"
        shard_id, shard_count = shard
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            return f"shard id {shard_id} is not below the shard count {shard_count}"
        counts = {s.shard[1] for s in self.live_sessions}
        if counts and counts != {shard_count}:
            return f"shard count {shard_count} disagrees with the live sessions' {sorted(counts)}"
        return None

    def _ready_payload(self, session: GatewaySession) -> dict:
        user = dict(self.bot_user.payload(), verified=True, mfa_enabled=False, flags=0, email=None, locale="en-US")
        return {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds.values()
                       if g.installed and session.serves(g.id)],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "shard": session.shard,
            "application": {"id": str(self.application_id), "flags": self.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "session_type": "normal",
            "auth": {},
            "_trace": ["fake-discord"],
        }

    def _guild_create_payload(self, guild: FakeGuild, session: GatewaySession) -> dict:
        include_members = bool(session.intents & INTENT_GUILD_MEMBERS)
        joined = guild.members[self.bot_user.id].joined_at
        return guild.payload(include_members=include_members, joined_at=joined)

    async def _member_chunk(self, session: GatewaySession, d: dict) -> None:
        guild = self.guilds.get(int(d.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        if d.get("user_ids"):
            wanted = {int(u) for u in d["user_ids"]}
            members = [m for m in members if m.id in wanted]
        elif d.get("query"):
            members = [m for m in members if m.user.name.lower().startswith(d["query"].lower())]
        if d.get("limit"):
            members = members[: int(d["limit"])]
        payload = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if d.get("nonce"):
            payload["nonce"] = d["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", payload)

    async def _broadcast(self, event: str, data: Any, intent: int = 0) -> None:
        """Send a guild event (its ``guild_id`` says which) to every session serving that
        guild's shard; an event without a guild goes to shard 0, like a DM."""
        raw = data.get("guild_id") if isinstance(data, dict) else None
        guild_id = int(raw) if raw else None
        if guild_id is not None and guild_id in self.guilds and not self.guilds[guild_id].installed:
            return  # the bot is not in that server: it hears nothing of it
        for session in list(self._sessions):
            if session.live and session.serves(guild_id) and (intent == 0 or session.intents & intent):
                await session.dispatch(event, data)

    async def disconnect_gateway(self, *, code: int = 4000, shard: Optional[int] = None) -> None:
        """Drop the active gateway connection, or the one serving ``shard`` (the client will RESUME)."""
        if shard is None:
            session = self.active_session
        else:
            session = next((s for s in reversed(self._sessions) if s.live and s.shard[0] == shard), None)
        if session is not None:
            await session.ws.close(code=code, message=b"fake discord disconnect")
            session.closed = True

    # ------------------------------------------------------------------ REST: identity & app
    async def _h_me(self, rec: RecordedRequest) -> Reply:
        return _reply(200, dict(self.bot_user.payload(), verified=True, mfa_enabled=False, flags=0, bot=True, locale="en-US"))

    async def _h_get_user(self, rec: RecordedRequest, user_id: str) -> Reply:
        user = self.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            return _err(404, 10013, "Unknown User")
        return _reply(200, user.payload())

    async def _h_app_info(self, rec: RecordedRequest) -> Reply:
        return _reply(200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Railyard (fake)",
            "summary": "",
            "type": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": self.application_flags,
            "bot": dict(self.bot_user.payload(), bot=True),
            "install_params": None,
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        })

    async def _h_gateway(self, rec: RecordedRequest) -> Reply:
        return _reply(200, {"url": self.gateway_url})

    async def _h_gateway_bot(self, rec: RecordedRequest) -> Reply:
        return _reply(200, {
            "url": self.gateway_url,
            "shards": self.shards,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        })

    # ------------------------------------------------------------------ REST: commands
    def _command_scope(self, application_id: str, guild_id: Optional[str]) -> Tuple[Optional[Reply], Optional[int]]:
        if application_id != str(self.application_id):
            return _err(404, 10002, "Unknown Application"), None
        if guild_id is None:
            return None, None
        if not guild_id.isdigit() or int(guild_id) not in self.guilds:
            return _err(404, 10004, "Unknown Guild"), None
        return None, int(guild_id)

    async def _h_get_commands(self, rec: RecordedRequest, application_id: str, guild_id: Optional[str] = None) -> Reply:
        error, scope = self._command_scope(application_id, guild_id)
        if error:
            return error
        return _reply(200, self.commands.get(scope, []))

    async def _h_put_commands(self, rec: RecordedRequest, application_id: str, guild_id: Optional[str] = None) -> Reply:
        error, scope = self._command_scope(application_id, guild_id)
        if error:
            return error
        payload = rec.json
        self.command_syncs.append((scope, payload))
        problems = limits.check_commands(payload)
        if problems:
            return self._reject(rec, problems)
        stored = []
        for command in payload:
            ctype = command.get("type", 1)
            key = (scope, ctype, command["name"])
            if key not in self._command_ids:
                self._command_ids[key] = self._snowflake()
                self._command_creates[scope] = self._command_creates.get(scope, 0) + 1
            obj = dict(command)
            obj.update(
                id=str(self._command_ids[key]),
                application_id=str(self.application_id),
                version=str(self._snowflake()),
                type=ctype,
                description=command.get("description", ""),
                default_member_permissions=command.get("default_member_permissions"),
                nsfw=command.get("nsfw", False),
            )
            if scope is not None:
                obj["guild_id"] = str(scope)
            stored.append(obj)
        if self._command_creates.get(scope, 0) > limits.COMMAND_CREATES_PER_DAY:
            self._violate("command_creates", f"more than {limits.COMMAND_CREATES_PER_DAY} command creates in scope {scope}", rec)
            return _err(400, 30034, "Max number of daily application command creates has been reached (200)")
        self.commands[scope] = stored
        return _reply(200, stored)

    # ------------------------------------------------------------------ messages (shared)
    def _mentions(self, content: str, allowed: Optional[dict]) -> List[FakeUser]:
        users = []
        for match in _MENTION_RE.finditer(content or ""):
            uid = int(match.group(1))
            ok = allowed is None or "users" in (allowed.get("parse") or []) or str(uid) in [str(u) for u in allowed.get("users") or []]
            if ok and uid in self.users and self.users[uid] not in users:
                users.append(self.users[uid])
        return users

    def _new_attachments(self, channel_id: int, payload: dict, files: List[UploadedFile],
                         keep: Sequence[FakeAttachment] = ()) -> List[FakeAttachment]:
        """Attachments after a create/edit: kept ones by id, new ones from ``files[n]``."""
        by_index = {f.index: f for f in files if f.index is not None}
        existing = {a.id: a for a in keep}
        result: List[FakeAttachment] = []
        used = set()
        specs = payload.get("attachments")
        if specs is None:
            result = list(keep)
            specs = [{"id": i} for i in sorted(by_index)]
        for spec in specs:
            try:
                ident = int(spec.get("id"))
            except (TypeError, ValueError):
                continue
            if ident in existing:
                result.append(existing[ident])
                continue
            upload = by_index.get(ident)
            if upload is None or ident in used:
                continue
            used.add(ident)
            result.append(self._store_attachment(channel_id, upload, spec.get("filename"), spec.get("description")))
        for idx, upload in sorted(by_index.items()):
            if idx not in used and payload.get("attachments") is not None:
                result.append(self._store_attachment(channel_id, upload, None, None))
        return result

    def _store_attachment(self, channel_id: int, upload: UploadedFile, filename: Optional[str], description: Optional[str]) -> FakeAttachment:
        att_id = self._snowflake()
        name = filename or upload.filename
        ctype = upload.content_type
        if ctype == "application/octet-stream":
            lower = name.lower()
            if lower.endswith(".png"):
                ctype = "image/png"
            elif lower.endswith((".jpg", ".jpeg")):
                ctype = "image/jpeg"
            elif lower.endswith(".webp"):
                ctype = "image/webp"
            elif lower.endswith(".gif"):
                ctype = "image/gif"
            elif lower.endswith(".txt"):
                ctype = "text/plain; charset=utf-8"
        attachment = FakeAttachment(att_id, name, upload.size, ctype, upload.data,
                                    f"{self.base_url}/attachments/{channel_id}/{att_id}/{name}", description)
        self._attachments[att_id] = attachment
        return attachment

    def _create_message(
        self,
        channel: FakeChannel,
        payload: dict,
        files: List[UploadedFile],
        rec: RecordedRequest,
        *,
        flags: int,
        author: Optional[FakeUser] = None,
        msg_type: int = 0,
        interaction: Optional[InteractionResult] = None,
        recorded_payload: Optional[dict] = None,
        message_id: Optional[int] = None,
    ) -> FakeMessage:
        msg = FakeMessage(
            id=message_id or self._snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author or self.bot_user,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=flags,
            type=msg_type,
            allowed_mentions=payload.get("allowed_mentions"),
            created_mono=self._mono(),
        )
        msg.attachments = self._new_attachments(channel.id, payload, files)
        msg.mentions = self._mentions(msg.content, msg.allowed_mentions)
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.integration_owners = dict(interaction.integration_owners)
            msg.interaction_id = interaction.id
            msg.interaction_type = interaction.type
            msg.interaction_user = self.users.get(interaction.user_id)
        self._messages[msg.id] = msg
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            channel.message_count += 1
        self.message_payloads.append(
            MessagePayloadRecord("create", rec.method, rec.path, msg.id, payload if recorded_payload is None else recorded_payload,
                                 list(files), msg.ephemeral, interaction.id if interaction else None)
        )
        return msg

    def _apply_edit(self, msg: FakeMessage, payload: dict, files: List[UploadedFile], rec: RecordedRequest,
                    interaction: Optional[InteractionResult] = None) -> None:
        msg.history.append(msg.payload())
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = msg.flags & (limits.FLAG_EPHEMERAL | limits.FLAG_COMPONENTS_V2)
            msg.flags = keep | (payload["flags"] & (limits.FLAG_SUPPRESS_EMBEDS | limits.FLAG_COMPONENTS_V2))
        msg.flags &= ~limits.FLAG_LOADING
        if "attachments" in payload or files:
            msg.attachments = self._new_attachments(msg.channel_id, payload, files, keep=msg.attachments)
        if "allowed_mentions" in payload:
            msg.allowed_mentions = payload["allowed_mentions"]
        msg.mentions = self._mentions(msg.content, msg.allowed_mentions)
        msg.edited_timestamp = iso()
        self.message_payloads.append(
            MessagePayloadRecord("edit", rec.method, rec.path, msg.id, payload, list(files), msg.ephemeral,
                                 interaction.id if interaction else None)
        )

    def _message_problems(self, rec: RecordedRequest, payload: Any, *, partial: bool, path=()) -> Optional[Reply]:
        if payload is not None and not isinstance(payload, dict):
            return self._reject(rec, [Problem(path, "BASE_TYPE_DICT", "Must be a JSON object", "payload")])
        problems = limits.check_message(payload or {}, partial=partial, n_files=len(rec.files), path=path)
        if problems:
            return self._reject(rec, problems)
        return self._file_problems(rec)

    # ------------------------------------------------------------------ REST: interactions
    async def _h_callback(self, rec: RecordedRequest, interaction_id: str, token: str) -> Reply:
        ir = self._interactions_by_id.get(int(interaction_id)) if interaction_id.isdigit() else None
        if ir is None or ir.token != token:
            return _err(404, 10062, "Unknown interaction")
        body = rec.json if isinstance(rec.json, dict) else {}
        ctype = body.get("type")
        data = body.get("data")
        cb = CallbackRecord(ir.id, ctype, data, list(rec.files), latency=self.now() - ir.dispatched_at)
        self.interaction_responses.append(cb)

        def reject(reply: Reply) -> Reply:
            cb.status, cb.error = reply[0], reply[1]
            ir.rejected_callbacks.append(cb)
            return reply

        if ir.callback is not None:
            self._violate("double_ack", f"second callback (type {ctype}) for interaction {ir.id}", rec)
            return reject(_err(400, 40060, "Interaction has already been acknowledged."))
        if cb.latency > self.ack_deadline:
            self._violate("late_ack", f"callback {cb.latency:.3f}s after dispatch (deadline {self.ack_deadline}s)", rec)
            return reject(_err(404, 10062, "Unknown interaction"))
        if ctype not in _ALLOWED_CALLBACKS.get(ir.type, set()):
            return reject(self._reject(rec, [Problem(("type",), "INTERACTION_CALLBACK_TYPE_INVALID",
                                                     f"callback type {ctype} is not valid for interaction type {ir.type}", "callback_type")]))
        error: Optional[Reply] = None
        if ctype == 4:
            error = self._message_problems(rec, data or {}, partial=False, path=("data",))
        elif ctype == 7:
            error = self._message_problems(rec, data or {}, partial=True, path=("data",))
        elif ctype == 5:
            extra = set((data or {}).keys()) - {"flags"}
            bad_flags = ((data or {}).get("flags") or 0) & ~limits.FLAG_EPHEMERAL
            if extra or bad_flags:
                error = self._reject(rec, [Problem(("data",), "INTERACTION_DEFER_DATA", "a deferred response only takes flags=EPHEMERAL", "defer_data")])
        elif ctype == 8:
            problems = limits.check_autocomplete(data)
            if problems:
                error = self._reject(rec, problems)
        elif ctype == 9:
            problems = []
            if not (data or {}).get("custom_id"):
                problems.append(Problem(("data", "custom_id"), "BASE_TYPE_REQUIRED", "This field is required", "modal"))
            title = (data or {}).get("title") or ""
            if not 1 <= len(title) <= limits.MODAL_TITLE_MAX:
                problems.append(Problem(("data", "title"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {limits.MODAL_TITLE_MAX} in length.", "modal"))
            if problems:
                error = self._reject(rec, problems)
        if error is not None:
            return reject(error)

        cb.status = 200
        ir.callback = cb
        if ctype not in (5, 6):
            ir.answered_mono = self._mono()
        channel = self.channels[ir.channel_id]
        resource: Dict[str, Any] = {"type": ctype}
        if ctype in (4, 5):
            flags = ((data or {}).get("flags") or 0) & (limits.FLAG_EPHEMERAL | limits.FLAG_SUPPRESS_EMBEDS | limits.FLAG_COMPONENTS_V2 | limits.FLAG_SUPPRESS_NOTIFICATIONS)
            if ctype == 5:
                flags = (flags & limits.FLAG_EPHEMERAL) | limits.FLAG_LOADING
            msg = self._create_message(channel, (data or {}) if ctype == 4 else {}, list(rec.files) if ctype == 4 else [], rec,
                                       flags=flags, msg_type=20 if ir.type == 2 else 0, interaction=ir,
                                       recorded_payload=data or {})
            ir.original = msg
            resource["message"] = msg.payload()
            if not msg.ephemeral and ctype == 4:
                await self._dispatch_message_create(channel, msg)
        elif ctype in (6, 7):
            ir.original = ir.component_message
            if ctype == 7 and ir.component_message is not None:
                self._apply_edit(ir.component_message, data or {}, list(rec.files), rec, ir)
                resource["message"] = ir.component_message.payload()
        if not _truthy(rec.query.get("with_response")):
            return _reply(204)
        interaction_info: Dict[str, Any] = {"id": str(ir.id), "type": ir.type}
        if ir.original is not None and ctype in (4, 5, 7):
            interaction_info.update(
                response_message_id=str(ir.original.id),
                response_message_loading=ctype == 5,
                response_message_ephemeral=ir.original.ephemeral,
            )
        return _reply(200, {"interaction": interaction_info, "resource": resource})

    def _webhook_interaction(self, rec: RecordedRequest, application_id: str, token: str) -> Tuple[Optional[InteractionResult], Optional[Reply]]:
        ir = self._interactions_by_token.get(token)
        if application_id != str(self.application_id) or ir is None:
            self._violate("unknown_webhook", "webhook request with an unknown application id or token", rec)
            return None, _err(404, 10015, "Unknown Webhook")
        if self.now() - ir.dispatched_at > self.token_lifetime:
            self._violate("expired_token", f"interaction token used {self.now() - ir.dispatched_at:.0f}s after dispatch "
                                            f"(lifetime {self.token_lifetime:.0f}s)", rec)
            return None, _err(401, 50027, "Invalid Webhook Token")
        if ir.callback is None:
            self._violate("followup_before_ack", "follow-up/edit before the interaction was acknowledged", rec)
            return None, _err(404, 10015, "Unknown Webhook")
        return ir, None

    async def _h_followup(self, rec: RecordedRequest, application_id: str, token: str) -> Reply:
        ir, error = self._webhook_interaction(rec, application_id, token)
        if error:
            return error
        assert ir is not None
        payload = rec.json if isinstance(rec.json, dict) else {}
        error = self._message_problems(rec, payload, partial=False)
        if error:
            return error
        channel = self.channels[ir.channel_id]
        original = ir.original
        if ir.callback_type == 5 and original is not None and original.loading and not ir.followups:
            # Deprecated Discord behaviour: the first follow-up after a "thinking" defer
            # edits the loading message (keeping the defer's ephemeral state).
            self._apply_edit(original, payload, list(rec.files), rec, ir)
            ir.edits.append(payload)
            msg = original
            if ir.answered_mono is None:
                ir.answered_mono = self._mono()
        else:
            if ir.user_install_only and len(ir.followups) >= limits.USER_INSTALL_FOLLOWUPS_MAX:
                self._violate("followup_limit", f"follow-up {len(ir.followups) + 1} of an interaction authorized only by a "
                                                f"user install (at most {limits.USER_INSTALL_FOLLOWUPS_MAX})", rec)
                return _err(400, 40094, "This interaction has hit the maximum number of follow up messages")
            flags = (payload.get("flags") or 0) & (limits.FLAG_EPHEMERAL | limits.FLAG_SUPPRESS_EMBEDS | limits.FLAG_COMPONENTS_V2 | limits.FLAG_SUPPRESS_NOTIFICATIONS)
            msg = self._create_message(channel, payload, list(rec.files), rec, flags=flags, msg_type=19 if ir.original else 0, interaction=ir)
            ir.followups.append(msg)
            if ir.answered_mono is None:
                ir.answered_mono = self._mono()
            if not msg.ephemeral:
                await self._dispatch_message_create(channel, msg)
        if _truthy(rec.query.get("wait")):
            return _reply(200, msg.payload())
        return _reply(204)

    async def _h_webhook_message(self, rec: RecordedRequest, application_id: str, token: str, message_id: str) -> Reply:
        ir, error = self._webhook_interaction(rec, application_id, token)
        if error:
            return error
        assert ir is not None
        if message_id == "@original":
            msg = ir.original
        else:
            candidates = ([ir.original] if ir.original else []) + ir.followups
            msg = next((m for m in candidates if message_id.isdigit() and m.id == int(message_id)), None)
        if msg is None or msg.deleted:
            return _err(404, 10008, "Unknown Message")
        if rec.method == "GET":
            return _reply(200, msg.payload())
        if rec.method == "DELETE":
            msg.deleted = True
            if msg is ir.original:
                ir.deleted_original = True
            return _reply(204)
        payload = rec.json if isinstance(rec.json, dict) else {}
        error = self._message_problems(rec, payload, partial=True)
        if error:
            return error
        self._apply_edit(msg, payload, list(rec.files), rec, ir)
        ir.edits.append(payload)
        if ir.answered_mono is None:
            ir.answered_mono = self._mono()
        return _reply(200, msg.payload())

    # ------------------------------------------------------------------ REST: channels & messages
    def _channel(self, channel_id: str) -> Optional[FakeChannel]:
        return self.channels.get(int(channel_id)) if channel_id.isdigit() else None

    def _not_a_member(self, channel: FakeChannel, rec: RecordedRequest) -> Optional[Reply]:
        """The bot's own request about a channel it is not in (a group DM, a channel of a
        server the app is not installed to): Discord answers 403 Missing Access. The bot has
        no business there but answering interactions, so it is a violation too."""
        if channel.bot_is_member:
            return None
        where = "a group DM" if channel.type == GROUP_DM else "a server the app is not installed to"
        self._violate("not_a_member", f"the bot is not in channel {channel.id} ({where}): only interaction "
                                      "responses and follow-ups reach it", rec)
        return _err(403, 50001, "Missing Access")

    async def _dispatch_message_create(self, channel: FakeChannel, msg: FakeMessage) -> None:
        if not channel.bot_is_member:
            return  # the bot hears nothing of a channel it is not in
        data = msg.payload(with_nonce=True)
        if channel.guild_id is not None:
            guild = self.guilds.get(channel.guild_id)
            member = guild.members.get(msg.author.id) if guild else None
            if member is not None:
                data["member"] = member.payload(with_user=False)
        intent = INTENT_GUILD_MESSAGES if channel.guild_id is not None else INTENT_DIRECT_MESSAGES
        for session in list(self._sessions):
            if not (session.live and session.serves(channel.guild_id) and session.intents & intent):
                continue
            event = dict(data)
            visible = (session.intents & INTENT_MESSAGE_CONTENT or channel.type == DM
                       or msg.author.id == self.bot_user.id
                       or any(u.id == self.bot_user.id for u in msg.mentions))
            if not visible:
                event.update(content="", embeds=[], attachments=[], components=[])
            await session.dispatch("MESSAGE_CREATE", event)

    async def _h_get_channel(self, rec: RecordedRequest, channel_id: str) -> Reply:
        channel = self._channel(channel_id)
        if channel is None:
            return _err(404, 10003, "Unknown Channel")
        return self._not_a_member(channel, rec) or _reply(200, channel.payload())

    async def _h_patch_channel(self, rec: RecordedRequest, channel_id: str) -> Reply:
        channel = self._channel(channel_id)
        if channel is None:
            return _err(404, 10003, "Unknown Channel")
        body = rec.json if isinstance(rec.json, dict) else {}
        if channel.type == FORUM:
            return await self._patch_forum(rec, channel, body)
        parent = self.channels.get(channel.parent_id) if channel.is_thread and channel.parent_id else None
        if parent is not None and parent.type == FORUM:
            refused = self._thread_edit_problem(rec, channel, parent, body)
            if refused is not None:
                return refused
            if "applied_tags" in body:
                channel.applied_tags = list(dict.fromkeys(int(t) for t in body["applied_tags"] or []))
        problems = []
        if "name" in body and not (isinstance(body["name"], str) and 1 <= len(body["name"]) <= limits.THREAD_NAME_MAX):
            problems.append(Problem(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.", "channel_name"))
        if body.get("auto_archive_duration") is not None and body["auto_archive_duration"] not in limits.AUTO_ARCHIVE_DURATIONS:
            problems.append(Problem(("auto_archive_duration",), "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.", "thread_archive_duration"))
        if problems:
            return self._reject(rec, problems)
        for key in ("name", "topic", "archived", "locked", "auto_archive_duration", "invitable"):
            if key in body and hasattr(channel, key):
                setattr(channel, key, body[key])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await self._broadcast(event, channel.payload())
        return _reply(200, channel.payload())

    def _thread_edit_problem(self, rec: RecordedRequest, post: FakeChannel, forum: FakeChannel,
                             body: dict) -> Optional[Reply]:
        """What Discord refuses of a PATCH on a forum post (topics/threads, "Editing &
        Deleting Threads"; resources/channel, "Modify Channel", thread params): its name,
        archiving and tags are its creator's or need Manage Threads; a locked post's are
        Manage Threads' only; an archived post takes nothing but being unarchived with it
        (50083); a moderated tag goes on or off only with Manage Threads; at most 5 tags,
        all the forum's."""
        moderator = self._bot_has(post, "manage_threads")
        if post.archived and body.get("archived") is not False:
            return _err(400, 50083, "Thread is archived")
        if not moderator and (post.locked or "locked" in body or "rate_limit_per_user" in body):
            return _err(403, 50013, "Missing Permissions")
        if not moderator and post.owner_id != self.bot_user.id and (
                {"name", "auto_archive_duration", "applied_tags"} & set(body) or body.get("archived") is True):
            return _err(403, 50013, "Missing Permissions")
        if "applied_tags" in body:
            problems = limits.check_applied_tags(body["applied_tags"], [t.id for t in forum.available_tags])
            if problems:
                return self._reject(rec, problems)
            wanted = {int(t) for t in body["applied_tags"] or []}
            changed = wanted ^ set(post.applied_tags)
            if not moderator and any(forum.tag(t) is not None and forum.tag(t).moderated for t in changed):  # type: ignore[union-attr]
                return _err(403, 50013, "Missing Permissions")
        return None

    async def _patch_forum(self, rec: RecordedRequest, forum: FakeChannel, body: dict) -> Reply:
        """PATCH /channels/{forum}: Manage Channels (50013 without); its tags (at most 20,
        names unique: 40061) and flags (REQUIRE_TAG). A tag sent with its id is that tag
        kept (or changed); one without is new; one left out is deleted, and taken off the
        forum's posts."""
        if not self._bot_has(forum, "manage_channels"):
            return _err(403, 50013, "Missing Permissions")
        if "available_tags" in body:
            problems = limits.check_available_tags(body["available_tags"])
            if problems:
                return self._reject(rec, problems)
            names = [str(t["name"]).casefold() for t in body["available_tags"]]
            if len(set(names)) != len(names):
                return _err(400, 40061, "Tag names must be unique")
            tags = []
            for spec in body["available_tags"]:
                old = forum.tag(int(spec["id"])) if str(spec.get("id") or "").isdigit() else None
                tags.append(FakeTag(old.id if old else self._snowflake(), spec["name"],
                                    moderated=bool(spec.get("moderated")),
                                    emoji_id=int(spec["emoji_id"]) if spec.get("emoji_id") else None,
                                    emoji_name=spec.get("emoji_name")))
            forum.available_tags = tags
            self._drop_unknown_tags(forum)
        if "flags" in body and body["flags"] is not None:
            forum.flags = int(body["flags"]) & REQUIRE_TAG
        for key in ("name", "topic"):
            if key in body:
                setattr(forum, key, body[key])
        await self._broadcast("CHANNEL_UPDATE", forum.payload())
        return _reply(200, forum.payload())

    async def _h_delete_channel(self, rec: RecordedRequest, channel_id: str) -> Reply:
        channel = self._channel(channel_id)
        if channel is None:
            return _err(404, 10003, "Unknown Channel")
        await self._remove_channel(channel)
        return _reply(200, channel.payload())

    async def _h_list_messages(self, rec: RecordedRequest, channel_id: str) -> Reply:
        channel = self._channel(channel_id)
        if channel is None:
            return _err(404, 10003, "Unknown Channel")
        refused = self._not_a_member(channel, rec)
        if refused is not None:
            return refused
        if channel.type != DM:
            # Discord: View Channel is needed (403 50001); without Read Message History the
            # answer is simply no messages
            denied = self._bot_denied(channel)
            if denied & limits.permission_value("view_channel"):
                return _err(403, 50001, "Missing Access")
            if denied & limits.permission_value("read_message_history"):
                return _reply(200, [])
        limit = int(rec.query.get("limit", 50))
        before = int(rec.query["before"]) if "before" in rec.query else None
        after = int(rec.query["after"]) if "after" in rec.query else None
        msgs = [m for m in self.messages(channel.id, ephemeral=False)
                if (before is None or m.id < before) and (after is None or m.id > after)]
        msgs.sort(key=lambda m: m.id, reverse=True)
        if after is not None and before is None:
            msgs = sorted(msgs, key=lambda m: m.id)[:limit][::-1]
        return _reply(200, [m.payload() for m in msgs[:limit]])

    async def _h_post_message(self, rec: RecordedRequest, channel_id: str) -> Reply:
        channel = self._channel(channel_id)
        if channel is None:
            return _err(404, 10003, "Unknown Channel")
        refused = self._not_a_member(channel, rec)
        if refused is not None:
            return refused
        if channel.type == DM and channel.recipient is not None and channel.recipient.dm_closed:
            return _err(403, 50007, "Cannot send messages to this user")
        if channel.type == FORUM:  # topics/threads: "Messages cannot be sent directly in forum channels"
            return _err(400, 40058, "Cannot send a message in a forum channel")
        payload = rec.json if isinstance(rec.json, dict) else {}
        refused = self._bot_permission_problem(channel, payload, rec)
        if refused is not None:
            return refused
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            key = (channel.id, self.bot_user.id, str(nonce))
            seen = self._nonces.get(key)
            if seen is not None and self.now() - seen[1] <= self.nonce_window and seen[0] in self._messages:
                self.nonce_repeats.append(rec)
                return _reply(200, self._messages[seen[0]].payload(with_nonce=True))
        if channel.is_thread and channel.archived:
            if channel.locked:
                return _err(400, 50083, "Thread is archived")
            channel.archived = False
            await self._broadcast("THREAD_UPDATE", channel.payload())
        error = self._message_problems(rec, payload, partial=False)
        if error:
            return error
        flags = (payload.get("flags") or 0) & (limits.FLAG_SUPPRESS_EMBEDS | limits.FLAG_SUPPRESS_NOTIFICATIONS | limits.FLAG_COMPONENTS_V2)
        msg = self._create_message(channel, payload, list(rec.files), rec, flags=flags,
                                   msg_type=19 if payload.get("message_reference") else 0)
        if nonce is not None:
            msg.nonce = str(nonce)
            if payload.get("enforce_nonce"):
                self._nonces[(channel.id, self.bot_user.id, str(nonce))] = (msg.id, self.now())
        await self._dispatch_message_create(channel, msg)
        return _reply(200, msg.payload(with_nonce=True))

    async def _h_channel_message(self, rec: RecordedRequest, channel_id: str, message_id: str) -> Reply:
        channel = self._channel(channel_id)
        if channel is None:
            return _err(404, 10003, "Unknown Channel")
        refused = self._not_a_member(channel, rec)
        if refused is not None:
            return refused
        msg = self._messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
            return _err(404, 10008, "Unknown Message")
        if rec.method == "GET":
            return _reply(200, msg.payload())
        if channel.is_thread and channel.archived:
            # only a new message unarchives a thread; an edit or a deletion is refused
            return _err(400, 50083, "Thread is archived")
        if rec.method == "DELETE":
            msg.deleted = True
            await self._broadcast("MESSAGE_DELETE", {"id": str(msg.id), "channel_id": str(channel.id),
                                                     **({"guild_id": str(channel.guild_id)} if channel.guild_id else {})})
            return _reply(204)
        if msg.author.id != self.bot_user.id:
            return _err(403, 50005, "Cannot edit a message authored by another user")
        payload = rec.json if isinstance(rec.json, dict) else {}
        error = self._message_problems(rec, payload, partial=True)
        if error:
            return error
        self._apply_edit(msg, payload, list(rec.files), rec)
        return _reply(200, msg.payload())

    async def _h_reaction(self, rec: RecordedRequest, channel_id: str, message_id: str, emoji: str) -> Reply:
        channel = self._channel(channel_id)
        if channel is None:
            return _err(404, 10003, "Unknown Channel")
        return self._not_a_member(channel, rec) or _reply(204)

    async def _h_typing(self, rec: RecordedRequest, channel_id: str) -> Reply:
        channel = self._channel(channel_id)
        if channel is None:
            return _err(404, 10003, "Unknown Channel")
        return self._not_a_member(channel, rec) or _reply(204)

    async def _h_create_thread(self, rec: RecordedRequest, channel_id: str, message_id: Optional[str] = None) -> Reply:
        parent = self._channel(channel_id)
        if parent is None:
            return _err(404, 10003, "Unknown Channel")
        refused = self._not_a_member(parent, rec)
        if refused is not None:
            return refused
        if parent.guild_id is None:
            return _err(404, 10003, "Unknown Channel")
        if parent.is_thread or parent.type not in (TEXT, 5, FORUM):
            return _err(400, 50024, "Cannot execute action on this channel type")
        if parent.type == FORUM:
            if message_id is not None:  # a forum's posts start with their own message
                return _err(400, 50024, "Cannot execute action on this channel type")
            return await self._create_forum_post(rec, parent)
        body = rec.json if isinstance(rec.json, dict) else {}
        from_message = message_id is not None
        if from_message:
            msg = self._messages.get(int(message_id)) if message_id.isdigit() else None
            if msg is None or msg.channel_id != parent.id or msg.ephemeral:
                return _err(404, 10008, "Unknown Message")
            if msg.id in self.channels:
                return _err(400, 160004, "A thread has already been created for this message")
        problems = limits.check_thread_create(body, parent_type=parent.type, from_message=from_message)
        if problems:
            return self._reject(rec, problems)
        thread_type = PUBLIC_THREAD if from_message else int(body.get("type", PRIVATE_THREAD))
        guild = self.guilds[parent.guild_id]
        thread = self._new_channel(
            guild,
            int(message_id) if from_message else self._snowflake(),
            body["name"],
            type=thread_type,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            invitable=body.get("invitable", True) if thread_type == PRIVATE_THREAD else True,
            member_ids=[self.bot_user.id],
        )
        event = dict(thread.payload(), newly_created=True,
                     member={"id": str(thread.id), "user_id": str(self.bot_user.id), "join_timestamp": thread.created_at, "flags": 0})
        await self._broadcast("THREAD_CREATE", event)
        return _reply(201, thread.payload())

    async def _create_forum_post(self, rec: RecordedRequest, forum: FakeChannel) -> Reply:
        """POST /channels/{forum}/threads: a post (a public thread whose parent is the forum)
        and its starter message (same id as the post), in one request (resources/channel,
        "Start Thread in Forum or Media Channel"). Send Messages in the forum is what it
        takes (Create Posts in the client; Create Public Threads is ignored); a REQUIRE_TAG
        forum refuses a post without a tag (40067), a moderated tag needs Manage Threads."""
        body = rec.json if isinstance(rec.json, dict) else {}
        denied = self._bot_denied(forum)
        if denied & limits.permission_value("view_channel"):
            return _err(403, 50001, "Missing Access")
        if denied & limits.permission_value("send_messages") or (
                rec.files and denied & limits.permission_value("attach_files")):
            return _err(403, 50013, "Missing Permissions")
        problems = limits.check_forum_post(body, [t.id for t in forum.available_tags], len(rec.files))
        if problems:
            return self._reject(rec, problems)
        tags = [int(t) for t in body.get("applied_tags") or []]
        may_moderate = self._bot_has(forum, "manage_threads")
        if forum.flags & REQUIRE_TAG and not tags:
            if not may_moderate and forum.available_tags and all(t.moderated for t in forum.available_tags):
                return _err(400, 40066, "There are no tags available that can be set by non-moderators")
            return _err(400, 40067, "A tag is required to create a forum post in this channel")
        if not may_moderate and any(forum.tag(t).moderated for t in tags):  # type: ignore[union-attr]
            return _err(403, 50013, "Missing Permissions")
        message = body["message"]
        guild = self.guilds[forum.guild_id]
        post = self._new_channel(guild, self._snowflake(), body["name"], type=PUBLIC_THREAD, parent_id=forum.id,
                                 owner_id=self.bot_user.id,
                                 auto_archive_duration=body.get("auto_archive_duration") or forum.auto_archive_duration,
                                 member_ids=[self.bot_user.id])
        post.applied_tags = list(dict.fromkeys(tags))
        flags = (message.get("flags") or 0) & (limits.FLAG_SUPPRESS_EMBEDS | limits.FLAG_SUPPRESS_NOTIFICATIONS)
        starter = self._create_message(post, message, list(rec.files), rec, flags=flags, message_id=post.id)
        post.message_count = 0  # a post's count leaves its starter message out
        forum.last_message_id = post.id
        event = dict(post.payload(), newly_created=True,
                     member={"id": str(post.id), "user_id": str(self.bot_user.id), "join_timestamp": post.created_at, "flags": 0})
        await self._broadcast("THREAD_CREATE", event)
        await self._dispatch_message_create(post, starter)
        return _reply(201, dict(post.payload(), message=starter.payload()))

    async def _h_thread_member(self, rec: RecordedRequest, channel_id: str, user_id: str) -> Reply:
        thread = self._channel(channel_id)
        if thread is None or not thread.is_thread:
            return _err(404, 10003, "Unknown Channel")
        uid = self.bot_user.id if user_id == "@me" else (int(user_id) if user_id.isdigit() else -1)
        if uid not in self.guilds[thread.guild_id].members:
            return _err(404, 10007, "Unknown Member")
        if rec.method == "PUT" and uid not in thread.member_ids:
            thread.member_ids.append(uid)
        elif rec.method == "DELETE" and uid in thread.member_ids:
            thread.member_ids.remove(uid)
        return _reply(204)

    async def _h_create_dm(self, rec: RecordedRequest) -> Reply:
        body = rec.json if isinstance(rec.json, dict) else {}
        try:
            uid = int(body.get("recipient_id"))
        except (TypeError, ValueError):
            return self._reject(rec, [Problem(("recipient_id",), "BASE_TYPE_REQUIRED", "This field is required", "dm_recipient")])
        user = self.users.get(uid)
        if user is None or user.bot and uid == self.bot_user.id:
            return _err(400, 50033, "Invalid Recipient(s)")
        channel = self._dm_by_user.get(uid)
        if channel is None:
            channel = FakeChannel(self._snowflake(), "", type=DM, recipient=user)
            self._dm_by_user[uid] = channel
            self.channels[channel.id] = channel
        return _reply(200, channel.payload())

    async def _h_get_guild(self, rec: RecordedRequest, guild_id: str) -> Reply:
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            return _err(404, 10004, "Unknown Guild")
        if not guild.installed:
            return _err(403, 50001, "Missing Access")
        data = guild.payload(include_members=False, joined_at=iso())
        for key in ("channels", "threads", "members", "voice_states", "presences", "joined_at", "large", "unavailable", "member_count"):
            data.pop(key, None)
        return _reply(200, data)

    async def _h_guild_channels(self, rec: RecordedRequest, guild_id: str) -> Reply:
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            return _err(404, 10004, "Unknown Guild")
        return _reply(200, [c.payload() for c in guild.channels.values() if not c.is_thread])

    async def _h_guild_member(self, rec: RecordedRequest, guild_id: str, user_id: str) -> Reply:
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            return _err(404, 10004, "Unknown Guild")
        member = guild.members.get(int(user_id)) if user_id.isdigit() else None
        if member is None:
            return _err(404, 10007, "Unknown Member")
        return _reply(200, member.payload())

    # ------------------------------------------------------------------ driving interactions
    def _find_command(self, guild_id: Optional[int], name: str, ctype: int = 1) -> Tuple[Optional[dict], Optional[int]]:
        scopes = ([guild_id] if guild_id is not None else []) + [None]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command.get("name") == name and command.get("type", 1) == ctype:
                    return command, scope
        return None, None

    def _resolved_user(self, resolved: dict, guild: Optional[FakeGuild], uid: int) -> None:
        user = self.users.get(uid)
        if user is None:
            raise LookupError(f"unknown user {uid}: add it with fake.add_user()")
        resolved.setdefault("users", {})[str(uid)] = user.payload()
        if guild is not None and uid in guild.members:
            member = guild.members[uid]
            resolved.setdefault("members", {})[str(uid)] = dict(member.payload(with_user=False),
                                                                permissions=str(guild.member_permissions(member)))

    def _option_value(self, otype: int, value: Any, spec: Optional[dict], guild: Optional[FakeGuild], resolved: dict,
                      focused: bool) -> Any:
        name = (spec or {}).get("name", "?")
        if focused:
            return str(value)
        if otype == 3:
            value = str(value)
            if spec and spec.get("min_length") is not None and len(value) < spec["min_length"]:
                raise ValueError(f"option {name}: shorter than min_length {spec['min_length']}")
            if spec and spec.get("max_length") is not None and len(value) > spec["max_length"]:
                raise ValueError(f"option {name}: longer than max_length {spec['max_length']}")
        elif otype in (4, 10):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"option {name}: expected a number, got {value!r}")
            if otype == 4 and not float(value).is_integer():
                raise ValueError(f"option {name}: expected an integer, got {value!r}")
            value = int(value) if otype == 4 else float(value)
            if spec and spec.get("min_value") is not None and value < spec["min_value"]:
                raise ValueError(f"option {name}: below min_value {spec['min_value']}")
            if spec and spec.get("max_value") is not None and value > spec["max_value"]:
                raise ValueError(f"option {name}: above max_value {spec['max_value']}")
        elif otype == 5:
            value = bool(value)
        elif otype == 6:
            uid = _as_int(value)
            self._resolved_user(resolved, guild, uid)
            value = str(uid)
        elif otype == 7:
            cid = _as_int(value)
            channel = self.channels.get(cid)
            if channel is None:
                raise LookupError(f"unknown channel {cid}")
            if spec and spec.get("channel_types") and channel.type not in spec["channel_types"]:
                raise ValueError(f"option {name}: channel {cid} (type {channel.type}) is not one of the types "
                                 f"{spec['channel_types']} the client offers")
            entry = {"id": str(cid), "name": channel.name, "type": channel.type, "permissions": str(limits.DEFAULT_MEMBER_PERMISSIONS)}
            if channel.parent_id:
                entry["parent_id"] = str(channel.parent_id)
            if channel.is_thread:
                entry["thread_metadata"] = channel.payload()["thread_metadata"]
            resolved.setdefault("channels", {})[str(cid)] = entry
            value = str(cid)
        elif otype in (8, 9):
            rid = _as_int(value)
            if guild is not None and rid in guild.roles:
                resolved.setdefault("roles", {})[str(rid)] = guild.roles[rid].payload()
            elif otype == 9:
                self._resolved_user(resolved, guild, rid)
            else:
                raise LookupError(f"unknown role {rid}")
            value = str(rid)
        elif otype == 11:
            filename, data = value  # an ATTACHMENT option is given as (filename, bytes)
            upload = UploadedFile("files[0]", filename, "application/octet-stream", bytes(data))
            attachment = self._store_attachment(0, upload, filename, None)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
            value = str(attachment.id)
        if spec and spec.get("choices"):
            allowed = [c["value"] for c in spec["choices"]]
            if value not in allowed:
                raise ValueError(f"option {name}: {value!r} is not one of the choices {allowed}")
        return value

    @staticmethod
    def _normalize_command(command: str, options: Any) -> Tuple[List[str], Dict[str, Any]]:
        path = command.strip().lstrip("/").split()
        while isinstance(options, (list, tuple)) and len(options) == 1 and isinstance(options[0], (list, tuple)) \
                and len(options[0]) == 2 and isinstance(options[0][0], str) and isinstance(options[0][1], (dict, list, tuple, type(None))):
            path.append(options[0][0])
            options = options[0][1]
        if options is None:
            return path, {}
        if isinstance(options, Mapping):
            return path, dict(options)
        return path, dict(options)

    def _command_data(self, guild_id: Optional[int], command: str, options: Any, *, require_synced: bool,
                      focused: Optional[str] = None, focused_value: Any = None) -> dict:
        path, leaf = self._normalize_command(command, options)
        if focused is not None:
            leaf[focused] = focused_value if focused_value is not None else leaf.get(focused, "")
        guild = self.guilds.get(guild_id) if guild_id is not None else None
        cmd, scope = self._find_command(guild_id, path[0])
        if cmd is None and require_synced:
            known = {str(k): [c["name"] for c in v] for k, v in self.commands.items()}
            raise LookupError(f"/{path[0]} is not a synced command (synced: {known}); call tree.sync() "
                              "or pass require_synced=False")
        specs: Optional[List[dict]] = cmd.get("options", []) if cmd else None
        data_options: List[dict] = []
        container = data_options
        for depth, name in enumerate(path[1:], start=1):
            spec = None
            if specs is not None:
                spec = next((o for o in specs if o.get("name") == name and o.get("type") in (1, 2)), None)
                if spec is None:
                    raise LookupError(f"/{' '.join(path[:depth])} has no subcommand {name!r}")
            otype = spec["type"] if spec else (1 if depth == len(path) - 1 else 2)
            sub = {"name": name, "type": otype, "options": []}
            container.append(sub)
            container = sub["options"]
            specs = spec.get("options", []) if spec else None
        if specs is not None and any(o.get("type") in (1, 2) for o in specs):
            raise LookupError(f"/{' '.join(path)} needs a subcommand: {[o['name'] for o in specs if o.get('type') in (1, 2)]}")
        resolved: dict = {}
        for name, value in leaf.items():
            spec = None
            if specs is not None:
                spec = next((o for o in specs if o.get("name") == name), None)
                if spec is None:
                    raise LookupError(f"/{' '.join(path)} has no option {name!r} (has {[o['name'] for o in specs]})")
                otype = spec["type"]
            else:
                otype = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 10 if isinstance(value, float) else 3
            is_focused = name == focused
            if is_focused and spec is not None and not spec.get("autocomplete"):
                raise LookupError(f"option {name!r} of /{' '.join(path)} has no autocomplete")
            opt = {"name": name, "type": otype, "value": self._option_value(otype, value, spec, guild, resolved, is_focused)}
            if is_focused:
                opt["focused"] = True
            container.append(opt)
        if specs is not None and focused is None:
            missing = [o["name"] for o in specs if o.get("required") and o["name"] not in leaf]
            if missing:
                raise ValueError(f"/{' '.join(path)}: missing required options {missing}")
        data: Dict[str, Any] = {
            "id": cmd["id"] if cmd else str(self._snowflake()),
            "name": path[0],
            "type": 1,
        }
        if data_options:
            data["options"] = data_options
        if scope is not None:
            data["guild_id"] = str(scope)
        if resolved:
            data["resolved"] = resolved
        return data

    def _place(self, guild_id: Optional[int], channel_id: Optional[int], user_id: int) -> Tuple[Optional[FakeGuild], FakeChannel, int]:
        """(guild, channel, interaction context) of an interaction by ``user_id``: a server
        channel (GUILD), a group DM (PRIVATE_CHANNEL) or, with neither, the user's DM with the
        bot (BOT_DM)."""
        user = self.users.get(user_id)
        if user is None:
            raise LookupError(f"unknown user {user_id}: add it with fake.add_user() or add_guild(members=...)")
        if guild_id is not None:
            guild = self.guilds.get(guild_id)
            if guild is None:
                raise LookupError(f"unknown guild {guild_id}")
            channel = guild.channels.get(channel_id) if channel_id is not None else None
            if channel is None:
                raise LookupError(f"channel {channel_id} is not in guild {guild_id}")
            if user_id not in guild.members:
                raise LookupError(f"user {user_id} is not a member of guild {guild_id}")
            return guild, channel, limits.CONTEXT_GUILD
        channel = self.channels.get(channel_id) if channel_id is not None else None
        if channel is not None and channel.type == GROUP_DM:
            if all(u.id != user_id for u in channel.recipients):
                raise LookupError(f"user {user_id} is not in group DM {channel.id}")
            return None, channel, limits.CONTEXT_PRIVATE_CHANNEL
        if channel is None:
            channel = self._dm_by_user.get(user_id)
        if channel is None:
            channel = FakeChannel(self._snowflake(), "", type=DM, recipient=user)
            self._dm_by_user[user_id] = channel
            self.channels[channel.id] = channel
        return None, channel, limits.CONTEXT_BOT_DM

    @staticmethod
    def _registered_places(command: dict, scope: Optional[int]) -> Tuple[List[int], List[int]]:
        """(integration_types, contexts) of a registered command. Unset, Discord takes the
        app's installs and every context by its docs; what it does (discord-api-docs issue
        7108) is a guild install and no PRIVATE_CHANNEL, which is modelled here, and
        dm_permission false takes BOT_DM away. A guild command is for its guild only."""
        if scope is not None:
            return [limits.GUILD_INSTALL], [limits.CONTEXT_GUILD]
        installs = command.get("integration_types")
        contexts = command.get("contexts")
        if installs is None:
            installs = [limits.GUILD_INSTALL]
        if contexts is None:
            contexts = [limits.CONTEXT_GUILD]
            if command.get("dm_permission", True) is not False:
                contexts.append(limits.CONTEXT_BOT_DM)
        return [int(i) for i in installs], [int(c) for c in contexts]

    def _owners(self, guild: Optional[FakeGuild], context: int, user: FakeUser, installs: Sequence[int]) -> Dict[str, str]:
        """authorizing_integration_owners of an interaction in that place by ``user``, for a
        command registered for ``installs`` (a component: both)."""
        owners: Dict[str, str] = {}
        if limits.GUILD_INSTALL in installs:
            if guild is not None and guild.installed:
                owners["0"] = str(guild.id)
            elif context == limits.CONTEXT_BOT_DM:
                owners["0"] = "0"
        if limits.USER_INSTALL in installs and user.installed:
            owners["1"] = str(user.id)
        return owners

    def command_refusal(self, guild_id: Optional[int], channel_id: Optional[int], user_id: int,
                        name: str) -> Optional[str]:
        """Why Discord would not offer ``/name`` to ``user_id`` there (None: it would)."""
        guild, channel, context = self._place(guild_id, channel_id, user_id)
        command, scope = self._find_command(guild_id, name)
        if command is None:
            return None  # an unsynced command: _command_data decides (require_synced)
        installs, contexts = self._registered_places(command, scope)
        if context not in contexts:
            return f"/{name} is not registered for interaction context {context} (its contexts: {contexts})"
        if not self._owners(guild, context, self.users[user_id], installs):
            return (f"/{name} (integration_types {installs}) reaches user {user_id} through no install here: "
                    "the app is not installed to this server or this user")
        return None

    def _gate_command(self, guild_id: Optional[int], channel_id: Optional[int], user_id: int, command: str) -> None:
        name = command.strip().lstrip("/").split()[0]
        reason = self.command_refusal(guild_id, channel_id, user_id, name)
        if reason is not None:
            self.refused_commands.append((guild_id, channel_id, user_id, command, reason))
            raise CommandUnavailable(reason)

    def _interaction_payload(self, itype: int, guild_id: Optional[int], channel_id: Optional[int], user_id: int,
                             data: dict, *, locale: str, permissions: Any, message: Optional[FakeMessage] = None) -> Tuple[dict, FakeChannel]:
        guild, channel, context = self._place(guild_id, channel_id, user_id)
        user = self.users[user_id]
        iid = self._snowflake()
        payload: Dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": f"fake-interaction-token.{iid}.{secrets.token_urlsafe(12)}",
            "version": 1,
            "locale": locale,
            "attachment_size_limit": self.attachment_size_limit,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "context": context,
        }
        if message is not None and message.integration_owners:
            owners = dict(message.integration_owners)  # a component: the installs its message answered
        elif itype in (2, 4):
            command, scope = self._find_command(guild_id, data.get("name", ""))
            installs = self._registered_places(command, scope)[0] if command else [limits.GUILD_INSTALL]
            owners = self._owners(guild, context, user, installs)
        else:
            owners = self._owners(guild, context, user, [limits.GUILD_INSTALL, limits.USER_INSTALL])
        payload["authorizing_integration_owners"] = owners
        if guild is not None:
            member = guild.members[user_id]
            if itype in (2, 4) and channel.is_thread and channel.archived:
                raise ValueError("users cannot use application commands in archived threads")
            if channel.type == FORUM:
                raise ValueError("a forum channel has no message box: commands are used in its posts")
            perms = _perm_value(permissions)
            perms = guild.member_permissions(member) if perms is None else perms
            channel_payload = dict(channel.payload(), permissions=str(perms))
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.locale,
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                member=dict(member.payload(), permissions=str(perms)),
                # where the app is not installed, it acts with the user's own permissions
                app_permissions=str(guild.app_permissions if guild.installed else perms),
            )
        else:
            channel_payload = dict(channel.payload(), permissions=str(limits.DEFAULT_MEMBER_PERMISSIONS))
            payload.update(
                user=user.payload(),
                app_permissions=str(limits.BOT_DM_APP_PERMISSIONS if context == limits.CONTEXT_BOT_DM
                                    else limits.PRIVATE_CHANNEL_APP_PERMISSIONS),
            )
        payload["channel"] = channel_payload
        payload["channel_id"] = str(channel.id)
        if message is not None:
            payload["message"] = message.payload()
        return payload, channel

    async def dispatch_interaction(self, payload: dict, *, channel: FakeChannel, user_id: int,
                                   component_message: Optional[FakeMessage] = None) -> InteractionResult:
        """Send a prepared INTERACTION_CREATE to the client serving its guild's shard (a DM:
        shard 0); returns the live record. With clients connected but none serving that shard
        nobody gets it (``InteractionResult.shard`` stays None) and it times out unanswered."""
        if self.active_session is None:
            raise RuntimeError("no client is connected to the fake gateway (await fake.wait_ready() first)")
        guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        session = self.session_for(guild_id)
        ir = InteractionResult(
            id=int(payload["id"]), token=payload["token"], type=payload["type"], payload=payload,
            guild_id=guild_id, channel_id=channel.id, user_id=user_id,
            dispatched_at=self.now(), dispatched_mono=self._mono(), component_message=component_message,
            shard=session.shard[0] if session is not None else None,
            session_id=session.session_id if session is not None else None,
        )
        self.interactions.append(ir)
        self._interactions_by_id[ir.id] = ir
        self._interactions_by_token[ir.token] = ir
        if session is not None:
            await session.dispatch("INTERACTION_CREATE", payload)
        return ir

    async def _collect(self, ir: InteractionResult, *, timeout: Optional[float], quiet: Optional[float], follow: bool) -> InteractionResult:
        quiet = self.quiet_period if quiet is None else quiet
        end = ir.dispatched_mono + (self.response_timeout if timeout is None else timeout)
        ack_end = min(end, ir.dispatched_mono + self.ack_deadline + 0.5)
        while ir.callback is None and not ir.rejected_callbacks and self._mono() < ack_end:
            await asyncio.sleep(0.005)
        if follow and ir.callback is not None:
            # A "thinking" defer promises more: wait for the edit / first follow-up.
            while (ir.callback_type == 5 and ir.original is not None and ir.original.loading and not ir.followups
                   and self._mono() < end):
                await asyncio.sleep(0.01)
        if follow:
            while self._mono() < end:
                idle = self._mono() - self._last_activity
                if self._inflight == 0 and idle >= quiet:
                    break
                await asyncio.sleep(max(0.005, min(quiet - idle, 0.05)))
        ir.channel_messages = [m for m in self._messages.values()
                               if m.created_mono >= ir.dispatched_mono and m.interaction_id is None]
        return ir

    async def slash(
        self,
        guild_id: Optional[int],
        channel_id: Optional[int],
        user_id: int,
        command: str,
        options: Any = None,
        *,
        locale: str = "en-US",
        permissions: Any = None,
        require_synced: bool = True,
        wait: bool = True,
        timeout: Optional[float] = None,
        quiet: Optional[float] = None,
    ) -> InteractionResult:
        """Invoke a slash command as ``user_id`` and collect what the user saw.

        ``command`` is "game" or "game new"; ``options`` a dict of leaf options or the
        nested form ``[("new", {"game": "ticket_to_ride"})]``.  Option types, choices,
        required options and subcommands are checked against the synced command
        payloads (``require_synced=False`` infers types from Python values).
        ``guild_id=None`` invokes it in the user's DM with the bot.
        """
        self._gate_command(guild_id, channel_id, user_id, command)
        data = self._command_data(guild_id, command, options, require_synced=require_synced)
        payload, channel = self._interaction_payload(2, guild_id, channel_id, user_id, data, locale=locale, permissions=permissions)
        ir = await self.dispatch_interaction(payload, channel=channel, user_id=user_id)
        if not wait:
            return ir
        return await self._collect(ir, timeout=timeout, quiet=quiet, follow=True)

    async def autocomplete(
        self,
        guild_id: Optional[int],
        channel_id: Optional[int],
        user_id: int,
        command: str,
        options: Any = None,
        *,
        focused: str,
        value: Any = "",
        locale: str = "en-US",
        permissions: Any = None,
        require_synced: bool = True,
        timeout: Optional[float] = None,
    ) -> List[dict]:
        """Type ``value`` into option ``focused``; returns the choices the bot offered
        ([] if it did not answer; the full record is ``fake.last_interaction``)."""
        self._gate_command(guild_id, channel_id, user_id, command)
        data = self._command_data(guild_id, command, options, require_synced=require_synced, focused=focused, focused_value=value)
        payload, channel = self._interaction_payload(4, guild_id, channel_id, user_id, data, locale=locale, permissions=permissions)
        ir = await self.dispatch_interaction(payload, channel=channel, user_id=user_id)
        await self._collect(ir, timeout=timeout, quiet=0, follow=False)
        return ir.choices or []

    def _resolve_message(self, message: Any) -> FakeMessage:
        if isinstance(message, FakeMessage):
            return self._messages.get(message.id, message)
        mid = _as_int(message)
        if mid not in self._messages:
            raise LookupError(f"unknown message {mid}")
        return self._messages[mid]

    async def _component(self, message: Any, custom_id: Optional[str], user_id: int, *, label: Optional[str], kinds: Tuple[int, ...],
                         extra: dict, locale: str, permissions: Any, wait: bool, timeout: Optional[float], quiet: Optional[float]) -> InteractionResult:
        msg = self._resolve_message(message)
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        comp = msg.component(custom_id, label=label)
        if comp is None:
            raise LookupError(f"message {msg.id} has no component {custom_id or label!r}; custom_ids: {msg.custom_ids}")
        if comp.get("type") not in kinds:
            raise LookupError(f"component {comp.get('custom_id')!r} is type {comp.get('type')}, not one of {kinds}")
        if comp.get("disabled"):
            raise ValueError(f"component {comp.get('custom_id')!r} is disabled")
        if msg.ephemeral and msg.interaction_user is not None and msg.interaction_user.id != user_id:
            raise ValueError("only the invoking user can see (and click) an ephemeral message")
        data = {"custom_id": comp["custom_id"], "component_type": comp["type"], **extra}
        if "id" in comp:
            data["id"] = comp["id"]
        payload, channel = self._interaction_payload(3, msg.guild_id, msg.channel_id, user_id, data, locale=locale,
                                                     permissions=permissions, message=msg)
        ir = await self.dispatch_interaction(payload, channel=channel, user_id=user_id, component_message=msg)
        if not wait:
            return ir
        return await self._collect(ir, timeout=timeout, quiet=quiet, follow=True)

    async def click(self, message: Any, custom_id: Optional[str], user_id: int, *, label: Optional[str] = None,
                    locale: str = "en-US", permissions: Any = None, wait: bool = True, timeout: Optional[float] = None,
                    quiet: Optional[float] = None) -> InteractionResult:
        """Click a button on ``message`` (FakeMessage, discord.Message or id) by custom_id or ``label=``."""
        return await self._component(message, custom_id, user_id, label=label, kinds=(2,), extra={}, locale=locale,
                                     permissions=permissions, wait=wait, timeout=timeout, quiet=quiet)

    async def select(self, message: Any, custom_id: Optional[str], values: Sequence[Any], user_id: int, *,
                     label: Optional[str] = None, locale: str = "en-US", permissions: Any = None, wait: bool = True,
                     timeout: Optional[float] = None, quiet: Optional[float] = None) -> InteractionResult:
        """Pick ``values`` in a select menu (checked against its options and min/max_values)."""
        msg = self._resolve_message(message)
        comp = msg.component(custom_id, label=label)
        values = [str(v) for v in values]
        extra: Dict[str, Any] = {"values": values}
        if comp is not None:
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not lo <= len(values) <= hi:
                raise ValueError(f"select {comp.get('custom_id')!r} takes {lo}..{hi} values, got {len(values)}")
            if comp.get("type") == 3:
                allowed = [o["value"] for o in comp.get("options") or []]
                bad = [v for v in values if v not in allowed]
                if bad:
                    raise ValueError(f"{bad} are not options of select {comp.get('custom_id')!r} ({allowed})")
            elif comp.get("type") in (5, 6, 7, 8):
                resolved: dict = {}
                guild = self.guilds.get(msg.guild_id) if msg.guild_id else None
                otype = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]
                for v in values:
                    self._option_value(otype, int(v), None, guild, resolved, False)
                extra["resolved"] = resolved
        return await self._component(msg, custom_id, user_id, label=label, kinds=(3, 5, 6, 7, 8), extra=extra, locale=locale,
                                     permissions=permissions, wait=wait, timeout=timeout, quiet=quiet)

    async def submit_modal(self, result: InteractionResult, values: Mapping[str, str], user_id: Optional[int] = None, *,
                           locale: str = "en-US", wait: bool = True, timeout: Optional[float] = None,
                           quiet: Optional[float] = None) -> InteractionResult:
        """Submit the modal the bot opened (callback type 9) in ``result`` with text ``values`` by custom_id."""
        if result.callback_type != 9:
            raise ValueError("that interaction was not answered with a modal")
        modal = result.callback.data or {}
        remaining = dict(values)

        def submitted(comp: dict) -> Optional[dict]:
            if comp.get("type") == 4:
                return {"type": 4, "custom_id": comp["custom_id"], "value": str(remaining.pop(comp["custom_id"], comp.get("value", "")))}
            return None

        rows = []
        for comp in modal.get("components") or []:
            if comp.get("type") == 1:
                rows.append({"type": 1, "components": [c for c in (submitted(x) for x in comp.get("components") or []) if c]})
            elif comp.get("type") == 18 and comp.get("component"):
                inner = submitted(comp["component"])
                if inner:
                    rows.append({"type": 18, "component": inner})
        if remaining:
            raise LookupError(f"modal has no text inputs {sorted(remaining)}")
        uid = result.user_id if user_id is None else user_id
        data = {"custom_id": modal.get("custom_id"), "components": rows}
        msg = result.component_message
        payload, channel = self._interaction_payload(5, result.guild_id, result.channel_id, uid, data, locale=locale,
                                                     permissions=None, message=msg)
        ir = await self.dispatch_interaction(payload, channel=channel, user_id=uid, component_message=msg)
        if not wait:
            return ir
        return await self._collect(ir, timeout=timeout, quiet=quiet, follow=True)

    async def user_message(self, channel_id: int, user_id: int, content: str) -> FakeMessage:
        """A user posts ``content``; connected clients get MESSAGE_CREATE (content gated by intent)."""
        channel = self.channels[channel_id]
        user = self.users[user_id]
        msg = FakeMessage(id=self._snowflake(), channel_id=channel.id, guild_id=channel.guild_id, author=user,
                          content=content, created_mono=self._mono())
        msg.mentions = self._mentions(content, None)
        self._messages[msg.id] = msg
        channel.last_message_id = msg.id
        await self._dispatch_message_create(channel, msg)
        return msg


class _FastSleepAsyncio:
    """Stand-in for the ``asyncio`` module inside discord.http / discord.webhook.async_
    whose ``sleep`` is capped, so discord.py's own 5xx back-off (1, 3, 5, 7 s) is instant."""

    def __init__(self, cap: float) -> None:
        self._cap = cap

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(min(delay, self._cap), result)


@contextlib.contextmanager
def fast_http_retries(cap: float = 0.01):
    """Within the block discord.py's REST retry sleeps last at most ``cap`` seconds
    (this also shortens 429 ``retry_after`` waits).  Restores the modules on exit."""
    import discord.http
    import discord.webhook.async_ as webhook_async

    modules = (discord.http, webhook_async)
    saved = [m.asyncio for m in modules]
    shim = _FastSleepAsyncio(cap)
    for module in modules:
        module.asyncio = shim  # type: ignore[assignment]
    try:
        yield
    finally:
        for module, original in zip(modules, saved):
            module.asyncio = original  # type: ignore[assignment]
